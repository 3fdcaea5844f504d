"""Finding the holes of a shaped board (the game's hourglass, worm and amoeba packs, and holes
anywhere in a generated board).

Every cell of the board is outlined by a thin grid line, and a hole is bare page: no dot,
no pipe, and no grid line of its own (cpflow.vision.sides). So a bare cell is a hole when
each side of it is the border of the cell beside it (a bar), or nothing toward another
bare cell or the page (a line can vanish into a pipe's tint, but not between two bare
cells). Two bare cells with nothing between them are holes too, whatever their other
sides. On a board with a border (a bar round it), a cell that cannot be reached from the
dots without crossing a bar is no board cell either, bare or not (a line of text above the
board in step with its grid, say); on a board drawn without one, a bare cell with nothing
toward the page is a hole, on an edge of the lattice whose line is seen along most of it
(a faint outer line, half drawn or blurred away, says nothing).
"""

from __future__ import annotations

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.board import Lattice
from cpflow.vision.dots import corners_of, margin
from cpflow.vision.fits import distance, median
from cpflow.vision.hexes import Grid, HexLattice
from cpflow.vision.sides import Side, Sides, bordered, page

EDGE = 0.3  # share of an outer line that must be seen for its gaps to mark holes
BARE = 10.0  # Lab distance, at most, between a bare cell's middle and its corners
OPEN = 2  # sides with no line seen, at least, of a cell open to the page on a hexagonal board without a border
PAGE = 15.0  # Lab distance, at most, between a bare cell's middle and the page round the board
FADED = 0.2  # share of the grid lines' own contrast, at least, of a side read as nothing: a grid line faded, perhaps
LINES_READ = 40  # grid lines read for their contrast, about
COVER = 50.0  # Lab distance, at least, of the middle of a cell beyond the board's edge from the page just past its line
NEAR = 0.1  # of a cell: how far past a board's edge line the page is read beside it
COVERED_FEWEST = 2  # cells beyond an edge not the page, at least, of a board covered there


def find_holes(lab: np.ndarray, lattice: Grid, sides: Sides, dots: set[Cell]) -> tuple[set[Cell], dict[Cell, float]]:
    """The cells of the lattice that are not on the board (`dots`: the cells with a dot), and each
    cell's margin (0 to 1): how far its middle stood from the BARE and PAGE thresholds that said bare
    page or not, where that decided it: for a hole found bare, and for a cell found not bare without a
    dot, a grid line of its own or a hole (bare, it could be one); 1 for the others (a board cell found
    bare, or one with a dot or a line, is one whatever its middle). A hole with a side read as nothing
    is as sure as that side is clear of a faded grid line (`_faded`: 0 from FADED of the lines' contrast). A
    cell of a hexagonal board that would be a hole were its sides the picture's edge cut off open (CUT: a
    board cut through its edge cells), and a bare board cell beside the picture's edge walled off from
    another (`_cut_off`), have a margin of 0: the picture does not show which they are."""
    cells = [(row, col) for row in range(lattice.height) for col in range(lattice.width)]
    outside = page(lab, lattice)
    margins = _bares(lab, lattice, cells, outside)
    bare = {cell for cell, sure in margins.items() if sure > 0}
    around: dict[Cell, list[tuple[Cell, Side]]] = {cell: [] for cell in bare}
    for (cell, other), kind in sides.items():
        if cell in around:
            around[cell].append((other, kind))
    framed = bordered(sides, lattice, set())
    edges = _edges_seen(lattice, sides) if isinstance(lattice, Lattice) and not framed else None
    holes = set() if edges is not None else set(cells) - _within(lattice, sides, dots)
    for cell in bare:
        if _walled_off(cell, around[cell], bare, lattice):
            holes.add(cell)
        if framed and any(kind is Side.LINE for _, kind in around[cell]):
            continue  # a board with a border has bars round its holes: a grid line is a board cell's own
        for other, kind in around[cell]:
            if kind is Side.NOTHING and (
                other in bare or (edges is not None and _toward_seen_edge(cell, other, lattice, edges))
            ):
                holes.add(cell)
    hidden: set[Cell] = set()  # cells that would be holes were the sides the picture's edge cut off open
    if not framed and isinstance(lattice, HexLattice):  # a square board without one may have warps all round
        holes |= _open_to_page(lattice, sides, dots, bare)
        if Side.CUT in sides.values():
            opened: Sides = {key: Side.NOTHING if kind is Side.CUT else kind for key, kind in sides.items()}
            hidden = _open_to_page(lattice, opened, dots, bare) - holes
    lined = {cell for (cell, _), kind in sides.items() if kind is Side.LINE}
    decided = bare & holes | set(cells) - bare - holes - lined - dots
    found = {cell: abs(sure) if cell in decided else 1.0 for cell, sure in margins.items()}
    open_sides = [(cell, other) for cell in bare & holes for other, kind in around[cell] if kind is Side.NOTHING]
    for cell, faded in _faded(lab, lattice, sides, open_sides).items():
        found[cell] = min(found[cell], margin(faded, FADED, FADED) if faded < FADED else 0.0)
    cut_off = _cut_off(lattice, around, bare - holes - dots, holes)
    found.update(dict.fromkeys(hidden | cut_off, 0.0))  # a hole or not: the picture does not show
    return holes, found


def _cut_off(
    lattice: Grid, around: dict[Cell, list[tuple[Cell, Side]]], cells: set[Cell], holes: set[Cell]
) -> set[Cell]:
    """The bare board cells (`cells`) beside the picture's edge (a side CUT) with a bar toward another board
    cell: the page past a board's border with the border cut off by the picture's edge, or a board cell behind
    a wall; the picture does not show which (a shaped board cut to its box reads its page as cells)."""
    walled = lambda other, kind: kind is Side.BAR and lattice.inside(other) and other not in holes  # noqa: E731
    return {
        cell
        for cell in cells
        if any(kind is Side.CUT for _, kind in around[cell]) and any(walled(*side) for side in around[cell])
    }


def covered(
    lab: np.ndarray,
    lattice: Grid,
    sides: Sides,
    holes: set[Cell],
    seen: tuple[int, int, int, int],
    masks: tuple[np.ndarray, np.ndarray] | None = None,
) -> str:
    """The edge of the board (top, bottom, left or right) that runs on under something laid over the picture
    (an ad banner, a pop-up), or "" when none does: beyond most of the board cells on that edge whose outer
    side is a grid line (a board drawn without a border, or past its border), where the picture shows it
    (`seen`: the picture's own box, without the margin added round it), the next cell's middle is far
    (COVER) from the page just past the line (NEAR): past a board's outline the page runs on for half a
    cell at least. The row of a board hidden under a banner but for a sliver is no line the lattice
    found, and the board read without it would be another. On a square board (`masks`: its vertical and
    horizontal line masks) most of the lines across must run on past that edge's line too (through NEAR
    of a cell): the sliver's, where a board's outline has none, however near the page's own art may be."""
    step, reach = lattice.step, max(1, round(0.15 * lattice.step))
    edges, centres, cells = [], [], []
    for (a, b), side in sides.items():
        if side is not Side.LINE or not lattice.inside(a) or lattice.inside(b) or a in holes:
            continue
        (x, y) = lattice.centre(*a)
        if isinstance(lattice, HexLattice):
            bx, by = lattice.centre(*b)
        else:
            bx, by = x + (b[1] - a[1]) * step, y + (b[0] - a[0]) * step
        dx, dy = bx - x, by - y
        edges.append(("top" if dy < 0 else "bottom") if abs(dy) > abs(dx) else ("left" if dx < 0 else "right"))
        centres.append((bx, by))
        cells.append(a)
    if not centres:
        return ""
    beyond = np.array(centres, dtype=float)
    near = beyond + (np.array([lattice.centre(*cell) for cell in cells], dtype=float) - beyond) * (0.5 - NEAR)
    middles, shown = _middles(lab, beyond, reach, seen)
    boards, _ = _middles(lab, near, max(1, round(NEAR * step / 2)), seen)
    apart = (np.linalg.norm(middles - boards, axis=1) >= COVER)[shown]
    shown_edges = [edge for edge, on in zip(edges, shown, strict=True) if on]
    for edge in ("top", "bottom", "left", "right"):
        mine = [bool(far) for far, at in zip(apart, shown_edges, strict=True) if at == edge]
        if len(mine) >= COVERED_FEWEST and sum(mine) > len(mine) / 2:
            if masks is None or not isinstance(lattice, Lattice) or _runs_on(lattice, *masks, edge):
                return edge
    return ""


def _runs_on(lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray, edge: str) -> bool:
    """Whether most of the lattice's lines across its `edge` (top, bottom, left, right) run on past its line
    there through a strip NEAR of a cell wide, clear of the line itself (`vertical`, `horizontal`: the masks)."""
    height, width = vertical.shape
    left, top, right, bottom = lattice.bounds()
    strip = max(1, round(NEAR * lattice.step))
    at, size, mask, lines = {
        "top": (round(top) - 2 - strip, height, vertical, lattice.xs),
        "bottom": (round(bottom) + 3, height, vertical, lattice.xs),
        "left": (round(left) - 2 - strip, width, horizontal.T, lattice.ys),
        "right": (round(right) + 3, width, horizontal.T, lattice.ys),
    }[edge]
    if at < 0 or at + strip > size:
        return False
    runs = [bool(mask[at : at + strip, max(0, round(x) - 2) : round(x) + 3].any(axis=1).all()) for x in lines]
    return sum(runs) > len(runs) / 2


def _middles(
    lab: np.ndarray, at: np.ndarray, reach: int, seen: tuple[int, int, int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The median Lab colour of a square `reach` pixels to each side of each point (x, y) of `at`, and
    whether the square lies within the picture's own box `seen` (a point's colour is nan where not)."""
    height, width = lab.shape[:2]
    xs, ys = np.round(at).astype(int).T
    shown = (xs - reach >= max(0, seen[0])) & (xs + reach < min(width, seen[2]))
    shown &= (ys - reach >= max(0, seen[1])) & (ys + reach < min(height, seen[3]))
    found = np.full((len(at), 3), np.nan)
    if shown.any():
        span = np.arange(-reach, reach + 1)
        squares = np.asarray(lab[ys[shown, None, None] + span[:, None], xs[shown, None, None] + span], dtype=float)
        found[shown] = median(squares.reshape(int(shown.sum()), -1, 3).swapaxes(0, 1))
    return found, shown


def _faded(lab: np.ndarray, lattice: Grid, sides: Sides, open_sides: list[tuple[Cell, Cell]]) -> dict[Cell, float]:
    """For each hole with sides read as nothing (`open_sides`: toward another hole or the page), the most any
    of them stands out along its middle, as a share of what the board's grid lines stand out (`_contrasts`).
    Bare page stands out by noise only; a grid line too faint to be seen as one (a tiny picture's under a
    darker gamma, or beside a dark frame) stands out as a share of the others, and its holes are unsure.
    Nothing where no grid line between two cells was seen (a hexagonal board's are not read as lines)."""
    lined = [
        (a, b)
        for (a, b), kind in sides.items()
        if kind is Side.LINE and a < b and lattice.inside(a) and lattice.inside(b)
    ]

    if not open_sides or not lined:
        return {}
    holes = {cell for cell, _ in open_sides}
    once = list({frozenset(side): side for side in open_sides}.values())  # a side between two holes once
    contrasts = _contrasts(lab, lattice, lined[:: max(1, len(lined) // LINES_READ)] + once)
    typical = float(median(contrasts[: -len(once)]))
    found: dict[Cell, float] = {}
    for side, contrast in zip(once, contrasts[-len(once) :], strict=True):
        for cell in side:
            if cell in holes:
                found[cell] = max(found.get(cell, 0.0), float(contrast) / typical if typical > 0 else 0.0)
    return found


def _contrasts(lab: np.ndarray, lattice: Grid, between: list[tuple[Cell, Cell]]) -> np.ndarray:
    """How much each side stands out along its middle, in L: its lightest or darkest pixel within one of the
    middle against the pixels a few to either side, the median of points along it, all sides at once."""
    height, width = lab.shape[:2]
    step = lattice.step
    reach = max(3, round(0.1 * step))
    middles, normals = [], []
    for cell, other in between:
        x, y = lattice.centre(*cell)
        if isinstance(lattice, Lattice):  # its centre() takes cells on the lattice only
            dx, dy = float(other[1] - cell[1]), float(other[0] - cell[0])
        else:
            ox, oy = lattice.centre(*other)
            dx, dy = (ox - x) / step, (oy - y) / step
        middles.append((x + dx * step / 2, y + dy * step / 2))
        normals.append((dx, dy))
    middle, normal = np.array(middles), np.array(normals)
    along = np.linspace(-0.3, 0.3, 7) * step  # sides x points x (x, y)
    points = middle[:, None] + along[None, :, None] * np.stack([-normal[:, 1], normal[:, 0]], axis=1)[:, None]
    offsets = np.array([-reach, -1, 0, 1, reach], dtype=float)  # across the side: the page, the line, the page
    at = points[:, :, None] + offsets[None, None, :, None] * normal[:, None, None]
    xs = np.round(at[..., 0]).astype(int).clip(0, width - 1)
    ys = np.round(at[..., 1]).astype(int).clip(0, height - 1)
    light = np.asarray(lab[ys.ravel(), xs.ravel()], dtype=float)[:, 0].reshape(xs.shape)
    beside = (light[..., 0] + light[..., -1]) / 2
    return median(np.abs(light[..., 1:-1] - beside[..., None]).max(axis=-1).T)  # each side's, as np.median(axis=1)


def _open_to_page(lattice: Grid, sides: Sides, dots: set[Cell], bare: set[Cell]) -> set[Cell]:
    """On a hexagonal board drawn without a border (its outline a grid line, as the game draws one),
    the cells without a dot joined to the page by sides where no line is seen, that have OPEN such sides
    at least (a board cell has a line on every side: one may fade, not two), and the bare cells
    beside them with nothing between: the page's art (a streak, a glow) may show through a hole."""
    open_sides: dict[Cell, list[Cell]] = {}
    for (cell, other), kind in sides.items():
        if lattice.inside(cell) and cell not in dots and kind in (Side.NOTHING, Side.CUT):
            open_sides.setdefault(cell, []).append(other)
    strict = {
        cell for cell, others in open_sides.items() if sum(sides[cell, o] is Side.NOTHING for o in others) >= OPEN
    }
    reached = {cell for cell in strict if any(not lattice.inside(other) for other in open_sides[cell])}
    stack = list(reached)
    while stack:
        cell = stack.pop()
        for other in open_sides[cell]:
            if other in strict and other not in reached and sides[cell, other] is Side.NOTHING:
                reached.add(other)
                stack.append(other)
    beside = {o for cell in reached for o in open_sides[cell] if o in bare and sides[cell, o] is Side.NOTHING}
    return reached | beside


def _within(lattice: Grid, sides: Sides, dots: set[Cell]) -> set[Cell]:
    """The cells a board with a border holds: those reached from the dots without crossing a bar
    (the border, or a wall). Beyond the border, a line of the page in step with the board (a row of
    text above it, say) is not the board's, whatever stands in its cells."""
    reached, stack = set(dots), list(dots)
    while stack:
        cell = stack.pop()
        for other in lattice.neighbours(cell):
            if other not in reached and sides.get((cell, other)) is not Side.BAR:
                reached.add(other)
                stack.append(other)
    return reached


def _toward_seen_edge(cell: Cell, other: Cell, lattice: Grid, edges: list[bool]) -> bool:
    """Whether `other` is off the lattice beyond an edge (top, bottom, left, right) whose line is seen."""
    (row, col), (r, c) = cell, other
    if lattice.inside(other):
        return False
    return edges[0 if r < row else 1 if r > row else 2 if c < col else 3]


def _walled_off(cell: Cell, around: list[tuple[Cell, Side]], bare: set[Cell], lattice: Grid) -> bool:
    """Whether a bare cell's sides are a hole's: no grid line of its own, the border of the board
    cells beside it (bars) on half its sides at least, and on the others a bar, nothing toward
    another bare cell or the page, or a tint (a border smudged by a pipe's colour beside it, as a
    JPEG smears colour)."""
    page_ward = [other in bare or not lattice.inside(other) for other, _ in around]
    kinds = [kind for _, kind in around]
    if Side.LINE in kinds or sum(kind is Side.BAR for kind in kinds) < len(kinds) / 2:
        return all(
            kind is Side.BAR or (kind is Side.NOTHING and toward) for kind, toward in zip(kinds, page_ward, strict=True)
        )
    return all(kind is not Side.NOTHING or toward for kind, toward in zip(kinds, page_ward, strict=True))


def _edges_seen(lattice: Lattice, sides: Sides) -> list[bool]:
    """Whether each outer line of the lattice (top, bottom, left, right) is seen along most of its cells."""
    last_row, last_col = lattice.height - 1, lattice.width - 1
    along = [
        [sides[(0, c), (-1, c)] for c in range(lattice.width)],
        [sides[(last_row, c), (last_row + 1, c)] for c in range(lattice.width)],
        [sides[(r, 0), (r, -1)] for r in range(lattice.height)],
        [sides[(r, last_col), (r, last_col + 1)] for r in range(lattice.height)],
    ]
    return [sum(side is not Side.NOTHING for side in line) >= EDGE * len(line) for line in along]


def _bares(lab: np.ndarray, lattice: Grid, cells: list[Cell], outside: np.ndarray) -> dict[Cell, float]:
    """Whether each cell is bare page: its middle the colour of its corners (no dot, no pipe) and of
    the page round the board (`outside`; not a bridge's tile, say). Said as a margin (`dots.margin`):
    above 0 for bare, the narrowest of the two tests passed; below 0 for not, the clearest failed.
    The middles and corners of all the cells are read at once (a middle cut by the picture's edge alone)."""
    height, width = lab.shape[:2]
    reach = max(1, round(0.15 * lattice.step))
    centres = np.array([lattice.centre(*cell) for cell in cells], dtype=float).reshape(len(cells), 2)
    xs, ys = np.round(centres[:, 0]).astype(int), np.round(centres[:, 1]).astype(int)
    inside = (ys >= reach) & (ys + reach < height) & (xs >= reach) & (xs + reach < width)
    span = np.arange(-reach, reach + 1)
    square = lab[ys[inside, None, None] + span[:, None], xs[inside, None, None] + span]  # cells x rows x columns x Lab
    middles = iter(median(square.reshape(len(square), len(span) ** 2, 3).swapaxes(0, 1)))  # down each one's points
    cys, cxs = corners_of(lattice, cells)
    boards = median(lab[cys.clip(0, height - 1), cxs.clip(0, width - 1)].swapaxes(0, 1))
    found = {}
    for k, cell in enumerate(cells):
        if inside[k]:
            colour = next(middles)
        else:
            x, y = xs[k], ys[k]
            middle = lab[max(0, y - reach) : y + reach + 1, max(0, x - reach) : x + reach + 1]
            colour = median(middle.reshape(-1, 3)) if middle.size else boards[k] + 2 * BARE
        found[cell] = _bare(colour, boards[k], outside)
    return found


def _bare(colour: np.ndarray, board: np.ndarray, outside: np.ndarray) -> float:
    """A cell's margin of bare page (`_bares`), its middle's colour and its corners' given."""
    tests = [(distance(colour, board), BARE), (distance(colour, outside), PAGE)]
    failed = [margin(value, most, most) for value, most in tests if value >= most]
    return -max(failed) if failed else max(1e-9, min(margin(value, most, most) for value, most in tests))

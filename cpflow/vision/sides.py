"""What stands on each side of each cell: a thin grid line, a bar, or nothing.

The game outlines every cell with a thin grid line, draws a wall as a bar over the line
between two cells, and frames the board with a thinner bar (its border), left open
where a warp leaves the board. A hole is bare page, with nothing on its sides but the
border of the cells beside it. So a side is read across the line a fifth of the way
from either end (clear of a pipe crossing it in the middle, of the dots, and of a
warp's chevrons): a bar is a run of grey pixels, wider than a grid line and far from
any blend of the grid lines' colour and the pixels on either side; a line is a ridge of the
line masks (`cpflow.vision.ridges.line_masks`); else there is nothing. Where the finger's
highlight tints a bar (or a line: the two cannot be told apart there), the side is tinted;
where a pixel or so stands out like a bar's, it is faint (a bar blurred away in a small
picture): neither is taken for a line, a bar, or nothing. A tinted side between two cells is no
wall, as sure as it is narrow for its cell: one as wide as a wall is (BROAD of a cell) leaves its
cells unsure (`tinted_walls`), not read as open.

From the sides: walls (a bar between two cells of the board) and warps (a side of a board
cell on the lattice's edge with no border, marked just inside the edge by a chevron or a
pipe of a dot's colour running out, paired with the marked side at the other end of its row or
column), each edge cell looked at with the margin of its mark or none.
"""

from __future__ import annotations

from enum import Enum
from functools import reduce

import numpy as np

from cpflow.board.grid import Cell, cell_name
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.board import Lattice, Segment
from cpflow.vision.dots import corners_of, margin
from cpflow.vision.fits import median
from cpflow.vision.hexes import SIDES, Grid, HexLattice
from cpflow.vision.ridges import floats, line_pixels

ENDS = (0.2, 0.8)  # of a side: where it is read across
ACROSS = 0.2  # of a cell, to either side of the line: the profile read
APART = 45.0  # BGR distance of a bar's pixels from any blend of the grid lines' colour and the pixels beside
BROAD = 0.06  # of a cell: a bar of any colour this wide (and WIDE + 1 pixels: a small picture's wall) is a bar
WIDE = 2  # pixels: a bar is at least this wide (in the working image a border can be 3 pixels, its core 2)
PAGE = 0.33  # of a cell: how far beyond the lattice the page is read
PIPED = 25.0  # BGR distance, at most, of a side's middle from both cells' centres where a pipe crosses it
BORDERED, BORDERED_FEWEST = 0.2, 3  # share and number of a board's outer sides with a bar, when it has a border
# Of a cell, in from the edge and along it: points on a chevron's arms (cpflow.pictures.svg.chevron: from
# its tip on the edge to 0.2 in and 0.15 aside).
MARKED = ((0.1, -0.075), (0.1, 0.075), (0.15, -0.1125), (0.15, 0.1125))
MARK = 40.0  # BGR distance of a mark's pixels from the cell's own colour, at least; of a pipe's from a dot's, at most
NEAR = 25.0  # BGR distance from the cell's centre of a pipe's pixels, at most (of a chevron's, at least)
GREY = 30  # a bar's pixels are grey: their channels this close
HEX_ENDS = (-0.25, 0.25)  # of a hexagon's side, from its middle: where it is read across
HEX_ACROSS = 0.12  # of a cell, to either side: there, clear of a dot (a hexagon's side is near its middle)
THIN = 20.0  # BGR distance of a thin line's pixel from the cells beside it, at least
HALFWAY = 0.5  # and that share of the lines' colour's distance from them
LINE_POINTS = 200  # points read for the grid lines' colour, about
SEEN = 0.5  # share of a side's length along which the line masks must run for a line to be there


class Side(Enum):
    LINE = "line"
    BAR = "bar"
    TINTED = "tinted"  # a bar's width of colour far from the lines and the cells: a bar under a tint, or a tinted line
    FAINT = "faint"  # a line with a pixel or so far from the lines and the cells: a bar blurred away, perhaps
    NOTHING = "nothing"
    CUT = "cut"  # nothing seen, but toward beyond the picture's edge: the line may be cut off, nothing is told


Sides = dict[tuple[Cell, Cell], Side]  # (cell, the cell beyond, perhaps off the lattice) -> what is between
Widths = dict[tuple[Cell, Cell], float]  # a tinted side (both ways round) -> its tint's width, of a cell


def read_sides(image: np.ndarray, grid: Grid, vertical: np.ndarray, horizontal: np.ndarray) -> tuple[Sides, Widths]:
    """What stands between each two cells of the lattice and on its edge, both ways round
    (`vertical`, `horizontal`: the line masks, which tell a square board's grid lines), and how wide
    each tinted side's colour far from the lines and the cells is (the narrower of its two points)."""
    picture = floats(image)
    if isinstance(grid, HexLattice):
        return _hex_sides(picture, grid)
    segments = grid.segments(ENDS, outer=True)
    inner = [segment for segment in segments if all(grid.inside(cell) for cell in segment.cells)]
    points = [(x, y, segment.across) for segment in inner or segments for x, y in segment.points]
    lines = median(line_pixels(picture, points[:: max(1, len(points) // LINE_POINTS)]))
    at = np.array([point for segment in segments for point in segment.points])
    normals = np.array([(1.0, 0.0) if segment.across else (0.0, 1.0) for segment in segments]).repeat(len(ENDS), 0)
    profiles = _profiles(picture, at, normals, grid.step)
    grey, far = (counts.reshape(len(segments), len(ENDS)) for counts in _bars(profiles, lines, page(picture, grid)))
    found: Sides = {}
    widths: Widths = {}
    narrowest = far.min(axis=1) / grid.step
    for segment, kind, wide in zip(segments, _kinds(grey, far, BROAD * grid.step), narrowest.tolist(), strict=True):
        if kind is None:
            kind = Side.LINE if _line(vertical if segment.across else horizontal, segment) else Side.NOTHING
        a, b = segment.cells
        found[a, b] = found[b, a] = kind
        if kind is Side.TINTED:
            widths[a, b] = widths[b, a] = wide
    return found, widths


def _hex_sides(picture: np.ndarray, grid: HexLattice) -> tuple[Sides, Widths]:
    """A hexagonal board's sides, each read across at a quarter of its length from either end; a
    line is a pixel or two near the grid lines' colour and apart from the cells beside it. A pipe
    crossing a side covers the points read (a side is short): a grey one is no bar."""
    probes: dict[frozenset[Cell], tuple[Cell, Cell, list[tuple[float, float]], tuple[float, float]]] = {}
    side = grid.step / np.sqrt(3)  # a hexagon's side
    for row in range(grid.height):
        for col in range(grid.width):
            x, y = grid.centre(row, col)
            for ux, uy in SIDES:
                other = grid.beyond((row, col), (ux, uy))
                middle = (x + ux * grid.step / 2, y + uy * grid.step / 2)
                points = [(middle[0] - uy * t * side, middle[1] + ux * t * side) for t in HEX_ENDS]
                probes.setdefault(frozenset(((row, col), other)), ((row, col), other, points, (ux, uy)))
    found: Sides = {}
    widths: Widths = {}
    if not probes:
        return found, widths
    at = np.array([point for *_, points, _ in probes.values() for point in points])
    normals = np.array([normal for *_, normal in probes.values()]).repeat(len(HEX_ENDS), 0)
    profiles = _profiles(picture, at, normals, grid.step, HEX_ACROSS)
    lines = _lines_colour(profiles)
    outside = page(picture, grid)
    grey, far = (counts.reshape(len(probes), len(HEX_ENDS)) for counts in _bars(profiles, lines, outside))
    thin = _thin(profiles, lines).reshape(len(probes), len(HEX_ENDS))
    middles = profiles[:, profiles.shape[1] // 2].reshape(len(probes), len(HEX_ENDS), -1)
    centres = {
        cell: _centre(picture, grid, cell) for cell in {cell for a, b, _, _ in probes.values() for cell in (a, b)}
    }
    for k, ((a, b, _, _), kind) in enumerate(zip(probes.values(), _kinds(grey, far), strict=True)):
        side = kind if kind is not None else Side.LINE if thin[k].all() else Side.NOTHING
        if side is Side.TINTED:
            widths[a, b] = widths[b, a] = float(far[k].min()) / grid.step
        if side is Side.BAR and _piped(middles[k], centres[a], centres[b], outside):
            side = Side.TINTED  # a grey pipe from one cell to the other, not a bar (and no wall, surely)
        found[a, b] = found[b, a] = side
    return found, widths


def _centre(picture: np.ndarray, grid: HexLattice, cell: Cell) -> np.ndarray:
    """The colour at a cell's centre (the page's, off the picture)."""
    height, width = picture.shape[:2]
    x, y = grid.centre(*cell)
    reach = max(1, round(0.06 * grid.step))
    patch = picture[max(0, round(y) - reach) : round(y) + reach + 1, max(0, round(x) - reach) : round(x) + reach + 1]
    return median(patch.reshape(-1, 3)) if patch.size and 0 <= x < width and 0 <= y < height else np.full(3, -999.0)


def _piped(middles: np.ndarray, first: np.ndarray, second: np.ndarray, outside: np.ndarray) -> bool:
    """Whether the side's middles are the colour of both cells' centres, and not the page's: a pipe
    crossing it (on a hexagonal board a pipe covers most of a side, where it is read). Two bare cells
    are the page's colour, and a bar a pixel or two off the lattice's fit leaves the middles so."""
    return bool(
        (np.linalg.norm(middles - outside, axis=1) >= APART).all()
        and (np.linalg.norm(middles - first, axis=1) < APART).all()
        and (np.linalg.norm(middles - second, axis=1) < APART).all()
    )


def _kinds(grey: np.ndarray, far: np.ndarray, broad: float = np.inf) -> list[Side | None]:
    """Each side from its bar widths at its points (`grey`, `far`: sides by points; grey pixels, and pixels
    of any colour, far from the lines and the cells beside), all at once; None where no bar shows, and
    whether a thin line runs there tells a line from nothing. A bar of any colour `broad` pixels wide or
    more is a bar too (a wall drawn in a level pack's colour, light green say)."""
    bar = (grey >= WIDE).all(axis=1) | (far >= max(broad, WIDE + 1)).all(axis=1)
    shown = np.stack([bar, (far >= WIDE).all(axis=1), far.any(axis=1)], axis=1)  # bar, tinted, faint
    return [Side.BAR if b else Side.TINTED if t else Side.FAINT if f else None for b, t, f in shown.tolist()]


def bordered(sides: Sides, grid: Grid, holes: set[Cell]) -> bool:
    """Whether the board has a border: a bar on a fifth at least of its cells' sides toward the
    lattice's edge or a hole (three at least): a board all of whose edges are warps has its border
    round its holes only, and a board drawn without one has none anywhere."""
    outer = [
        side
        for (a, b), side in sides.items()
        if grid.inside(a) and a not in holes and (not grid.inside(b) or b in holes)
    ]
    bars = sum(side is Side.BAR for side in outer)
    return bars >= max(BORDERED_FEWEST, BORDERED * len(outer))


def walls(sides: Sides, grid: Grid, holes: set[Cell]) -> list[tuple[Cell, Cell]]:
    """The walls: a bar between two cells of the board."""
    on = lambda cell: grid.inside(cell) and cell not in holes  # noqa: E731
    return sorted((a, b) for (a, b), side in sides.items() if a < b and side is Side.BAR and on(a) and on(b))


def tinted_walls(widths: Widths, grid: Grid, holes: set[Cell]) -> dict[Cell, float]:
    """Each cell's margin of no wall on its tinted sides toward another cell of the board: how far the
    tint's width (`widths`, of a cell) stands under BROAD, as a share of it. A grid line under the
    finger's highlight is a pixel or two wide, a few hundredths of a cell; a tint as wide as a wall (a
    wall under the highlight, or a level pack's light wall on a small picture, whose colour reads as a
    tint) is not surely no wall."""
    on = lambda cell: grid.inside(cell) and cell not in holes  # noqa: E731
    margins: dict[Cell, float] = {}
    for (a, b), wide in widths.items():
        if on(a) and on(b):
            margins[a] = min(margins.get(a, 1.0), max(0.0, 1.0 - wide / BROAD))
    return margins


def warps(
    picture: np.ndarray, sides: Sides, grid: Lattice, holes: set[Cell], dots: np.ndarray
) -> tuple[list[tuple[Cell, Cell]], dict[Cell, float]]:
    """The warps: each end marked on the board's edge (a chevron, or a pipe running to the edge), not
    under the border, paired with the marked end at the other end of its row or column; and the margin
    of each edge cell whose side was looked at for a mark (`marks`; `dots`: the dots' colours, BGR).
    ScreenshotUnreadable for a mark with no other end."""
    edge = [
        (a, b)
        for (a, b), side in sides.items()
        if grid.inside(a) and not grid.inside(b) and a not in holes and side is not Side.BAR
    ]
    looked = dict(zip(edge, marks(picture, grid, edge, dots), strict=True))
    ends = {key for key, (marked, _) in looked.items() if marked}
    margins: dict[Cell, float] = {}
    for (cell, _), (_, sure) in looked.items():
        margins[cell] = min(margins.get(cell, 1.0), sure)
    last_row, last_col = grid.height - 1, grid.width - 1
    found = []
    for (row, col), beyond in sorted(ends):
        other = {
            (row, -1): ((row, last_col), (row, last_col + 1)),
            (-1, col): ((last_row, col), (last_row + 1, col)),
        }.get(beyond)
        if other in ends:
            found.append(((row, col), other[0]))
            ends -= {((row, col), beyond), other}
    if ends:
        (row, col), _ = min(ends)
        raise ScreenshotUnreadable(f"a warp's end at {cell_name((row, col))} has no other end")
    return found, margins


def marks(
    picture: np.ndarray, grid: Lattice, ends: list[tuple[Cell, Cell]], dots: np.ndarray
) -> list[tuple[bool, float]]:
    """Whether each cell's side toward the cell beyond it (`ends`) shows a mark just inside the edge, and the
    margin of that (0 to 1, as `cpflow.vision.confidence` takes it): colour far from the cell's own (its
    corners) along both arms of a chevron pointing out, halfway and three quarters of the way from its tip
    (a thin grid line on the edge reaches none, nor does the smoothed edge of a board's outline drawn as a
    thick line), and either apart from the cell's centre all along (a chevron) or the centre's colour all
    along where that is a dot's (`dots`, BGR: a pipe running out). A dot's smoothed rim reaching the points
    is neither (part the centre's colour, part not), nor is the page's art running out under a board (a dim
    streak of the centre's colour, no dot's). Every side's pixels are read at once."""
    if not ends:
        return []
    height, width = picture.shape[:2]
    cells = [cell for cell, _ in ends]
    at = np.array([grid.centre(*cell) for cell in cells])  # x, y
    out = np.array([(beyond[1] - cell[1], beyond[0] - cell[0]) for cell, beyond in ends], dtype=float)  # the way out
    inward, aside = (np.array(MARKED).T[k][None, :] for k in (0, 1))
    along = out[:, ::-1] * (-1.0, 1.0)  # along the edge: (-by, bx)
    xs = at[:, :1] + (out[:, :1] * (0.5 - inward) + along[:, :1] * aside) * grid.step
    ys = at[:, 1:] + (out[:, 1:] * (0.5 - inward) + along[:, 1:] * aside) * grid.step
    colours = picture[np.round(ys).astype(int).clip(0, height - 1), np.round(xs).astype(int).clip(0, width - 1)]
    corner_ys, corner_xs = corners_of(grid, cells)
    own = np.median(picture[corner_ys.clip(0, height - 1), corner_xs.clip(0, width - 1)].astype(np.float32), axis=1)
    reach = max(1, round(0.06 * grid.step))
    offsets = np.arange(-reach, reach + 1)
    middle = np.round(at).astype(int)
    patch_ys = (middle[:, 1:, None] + offsets[None, :, None]).clip(0, height - 1)
    patch_xs = (middle[:, :1, None] + offsets[None, None, :]).clip(0, width - 1)
    centre = np.median(picture[patch_ys, patch_xs].reshape(len(ends), -1, 3), axis=1)
    seen = (at[:, 0] >= 0) & (at[:, 0] < width) & (at[:, 1] >= 0) & (at[:, 1] < height)
    centre[~seen] = -999.0  # the page's, off the picture: no colour near it
    colours = colours.astype(np.float32)
    to_own = np.linalg.norm(colours - own[:, None], axis=2).min(axis=1)
    to_centre = np.linalg.norm(colours - centre[:, None], axis=2)
    to_dot = np.linalg.norm(dots.reshape(1, -1, 3) - centre[:, None], axis=2).min(axis=1) if dots.size else None
    found = []
    for k in range(len(ends)):
        nearest = float(to_dot[k]) if to_dot is not None else np.inf
        least, most = float(to_centre[k].min()), float(to_centre[k].max())
        chevron = _test(least >= NEAR, least, NEAR)
        pipe = _all(_test(most < NEAR, most, NEAR), _test(nearest < MARK, nearest, MARK))
        found.append(_all(_test(float(to_own[k]) > MARK, float(to_own[k]), MARK), _any(chevron, pipe)))
    return found


def _test(passed: bool, value: float, threshold: float) -> tuple[bool, float]:
    """A test's outcome and its margin: how far `value` stood from the `threshold` that decided it, in thresholds."""
    return passed, margin(value, threshold, threshold)


def _all(*tests: tuple[bool, float]) -> tuple[bool, float]:
    """Every test passed (the margin of the narrowest), or not (the margin of the clearest failure)."""
    failed = [sure for passed, sure in tests if not passed]
    return (False, max(failed)) if failed else (True, min(sure for _, sure in tests))


def _any(*tests: tuple[bool, float]) -> tuple[bool, float]:
    """Some test passed (the margin of the clearest), or none (the margin of the narrowest failure)."""
    passed = [sure for ok, sure in tests if ok]
    return (True, max(passed)) if passed else (False, min(sure for _, sure in tests))


def page(picture: np.ndarray, grid: Grid) -> np.ndarray:
    """The page's colour round the board (an empty cell's, and a hole's, too): the median of points
    a third of a cell beyond the board's box, one beside each row and column (`picture`: BGR, or Lab)."""
    height, width = picture.shape[:2]
    away = PAGE * grid.step
    left, top, right, bottom = grid.bounds()
    downs = [top + (k + 0.5) * (bottom - top) / grid.height for k in range(grid.height)]
    acrosses = [left + (k + 0.5) * (right - left) / grid.width for k in range(grid.width)]
    points = [(left - away, y) for y in downs] + [(right + away, y) for y in downs]
    points += [(x, top - away) for x in acrosses] + [(x, bottom + away) for x in acrosses]
    xs, ys = np.round(np.array(points)).astype(int).T  # rounded as `round` rounds: half to even
    return median(picture[ys.clip(0, height - 1), xs.clip(0, width - 1)])  # read at once (Lab: one conversion)


def _line(mask: np.ndarray, segment: Segment) -> bool:
    """Whether the line masks run along the segment over most of its length, clear of its ends."""
    (x0, y0), (x1, y1) = segment.points[0], segment.points[-1]
    if segment.across:  # a vertical line: rows y0..y1 about column x0
        at, low, high = x0, y0, y1
        near = slice(max(0, round(at) - 3), round(at) + 4)
        band = mask[max(0, round(low)) : round(high), near]
    else:
        at, low, high = y0, x0, x1
        near = slice(max(0, round(at) - 3), round(at) + 4)
        band = mask[near, max(0, round(low)) : round(high)].T
    return bool(band.size) and int(np.count_nonzero(band.any(axis=1))) / len(band) >= SEEN  # the share, as mean


def _profiles(
    picture: np.ndarray, at: np.ndarray, normals: np.ndarray, step: float, across: float = ACROSS
) -> np.ndarray:
    """The pixels across a line at each point (x, y) along its normal, from `across` of a cell on one
    side to the other: points x profile x channels."""
    height, width = picture.shape[:2]
    reach = max(3, int(round(across * step)))
    offsets = np.arange(-reach, reach + 1)[None, :]
    xs = np.round(at[:, :1] + normals[:, :1] * offsets).astype(int).clip(0, width - 1)
    ys = np.round(at[:, 1:] + normals[:, 1:] * offsets).astype(int).clip(0, height - 1)
    return picture[ys, xs]


def _bars(pixels: np.ndarray, lines: np.ndarray, page: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How many pixels wide a bar across each profile is, of grey pixels and of pixels of any colour:
    pixels far from every blend of two of the grid lines' colour, the page's, and the pixels at
    either end of the profile (the cells, or the page, beside: a thin line's smoothed edge is such a
    blend, and so is the strip of board round a bridge's tile). Worked a channel at a time (points x profile
    each, `_summed`): numpy's own values, in a fraction of the time its sums down three channels take."""
    planes = [np.ascontiguousarray(pixels[:, :, k]) for k in range(3)]
    first, last = [plane[:, :1] for plane in planes], [plane[:, -1:] for plane in planes]
    known = (*([colour[k].reshape(1, 1) for k in range(3)] for colour in (lines, page)), first, last)
    blends = [(a, b) for i, a in enumerate(known) for b in known[i + 1 :]]
    far = np.sqrt(reduce(np.minimum, (_from_blends(planes, a, b) for a, b in blends))) > APART  # the least's root
    grey = pixels.max(axis=2) - pixels.min(axis=2) <= GREY
    return (far & grey).sum(axis=1), far.sum(axis=1)


def _lines_colour(pixels: np.ndarray) -> np.ndarray:
    """The grid lines' colour from profiles across them: in each, of the pixels within a tenth of a
    cell of the middle (the lattice is a fit), the one farthest from the mean of the two ends;
    their median."""
    middle = pixels.shape[1] // 2
    reach = max(1, pixels.shape[1] // 4)
    near = pixels[:, middle - reach : middle + reach + 1]
    side = (pixels[:, :1] + pixels[:, -1:]) / 2
    pick = np.linalg.norm(near - side, axis=2).argmax(axis=1)
    return median(near[np.arange(len(pixels)), pick])


def _thin(pixels: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Whether a thin line crosses each profile near its middle: a pixel nearer the lines' colour
    than the ends' and gone at least half the way from the nearer end toward it (a line of a pixel
    or so, smoothed, keeps no more of its colour)."""
    middle = pixels.shape[1] // 2
    reach = max(1, pixels.shape[1] // 4)  # a tenth of a cell to either side: the lattice is a fit
    near = pixels[:, middle - reach : middle + reach + 1]
    ends = np.stack([pixels[:, :1], pixels[:, -1:]])  # 2 x points x 1 x channels
    to_end = np.linalg.norm(near[None] - ends, axis=3).min(axis=0)
    span = np.linalg.norm(lines - ends, axis=3).min(axis=0)  # points x 1
    to_line = np.linalg.norm(near - lines, axis=2)
    return ((to_line < to_end) & (to_end >= np.maximum(HALFWAY * span, THIN))).any(axis=1)


def _from_blends(planes: list[np.ndarray], a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """Each pixel's squared distance from the nearest blend of colours a and b (the segment between them),
    whose root is np.linalg.norm's; `planes`: points x profile a channel, `a` and `b`: points (or 1) x 1 a
    channel."""
    span = [end - start for start, end in zip(a, b, strict=True)]
    toward = [plane - start for plane, start in zip(planes, a, strict=True)]
    t = np.clip(_summed(toward, span) / np.maximum(_summed(span, span), 1e-9), 0, 1)
    apart = [plane - (start + t * way) for plane, start, way in zip(planes, a, span, strict=True)]
    return _summed(apart, apart)


def _summed(u: list[np.ndarray], v: list[np.ndarray]) -> np.ndarray:
    """The products of three channels added as `(u * v).sum(axis=-1)` adds them, in order (channels apart)."""
    return (u[0] * v[0] + u[1] * v[1]) + u[2] * v[2]

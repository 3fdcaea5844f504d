"""A screenshot of the game in, a puzzle out: decode, find the board, find the dots, pair them.

The picture is read at a working size (the longer side at most WORKING pixels), which
keeps a 1440x2560 phone screenshot fast and changes nothing a board needs: its cells
stay tens of pixels wide.
"""

from __future__ import annotations

import traceback
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from cpflow.board.grid import Cell, Puzzle
from cpflow.errors import CpflowError, NotAnImage, ScreenshotUnreadable
from cpflow.vision.board import Lattice, find_lattice
from cpflow.vision.bridges import find_bridges
from cpflow.vision.colours import name_pairs, pair_dots
from cpflow.vision.confidence import check, confidence, pairing
from cpflow.vision.dimensions import UNREADABLE, check_size
from cpflow.vision.dots import Dot, corners, find_dots, lab_image
from cpflow.vision.fits import median
from cpflow.vision.hexes import Grid, HexLattice, find_hex_lattice
from cpflow.vision.highlight import find_highlight, unblend
from cpflow.vision.holes import covered, find_holes
from cpflow.vision.pipes import Play, read_play
from cpflow.vision.ridges import REACH, THIN, line_masks
from cpflow.vision.sides import PAGE, SEEN, Side, Sides, bordered, marks, page, read_sides, tinted_walls, walls, warps

WORKING = 1280  # pixels, the working image's longer side at most
OVERHANG = 2  # pixels: a lattice may pass the picture's edge by this much (a line on the edge, rounded)
Box = tuple[int, int, int, int]  # left, top, right, bottom: pixels
EXTREME = 5  # percent: the darkest (lightest) cells' corners, not the very darkest pixel, are the page's
GROWN = 3  # times at most the lattice is grown by a line the board runs on into (a shaped board's line of holes)
EDGE = 0.1  # of a cell: a board's box this near the picture's edge (or OVERHANG pixels) is cut there
PACKAGE = Path(__file__).resolve().parents[1]  # where a bug's place is looked for in a traceback


@dataclass(frozen=True)
class Reading:
    """What a screenshot shows: the puzzle (its dots), and the play (the pipes drawn, and the cells
    the reading was unsure of)."""

    puzzle: Puzzle
    play: Play
    confidence: dict[Cell, float] = field(default_factory=dict)  # each cell's (cpflow.vision.confidence)

    def played(self) -> Puzzle:
        """The puzzle with the pipes read drawn in (`Puzzle.drawn`), as `hint` takes a play."""
        return replace(self.puzzle, drawn=dict(self.play.drawn))


def read_screenshot(data: bytes, debug_dir: Path | None = None, name: str = "screenshot") -> Puzzle:
    """The puzzle a screenshot shows (PNG, JPEG, ...); ScreenshotUnreadable, with a one-line
    reason, when no board can be read from it. `debug_dir` receives the intermediate images."""
    return read(data, debug_dir, name).puzzle


def read(data: bytes, debug_dir: Path | None = None, name: str = "screenshot") -> Reading:
    """The puzzle a screenshot shows and the play drawn on it; ScreenshotUnreadable as `read_screenshot`.

    Whatever else goes wrong once the picture is decoded is a bug of the reading, but what the user
    sees is a picture it did not understand: a refusal in one line that names the error and where
    it was raised, so that the bug can still be found. MemoryError and interrupts go on as they are."""
    image = decode(data)
    try:
        return _reading(image, debug_dir, name)
    except (CpflowError, MemoryError):
        raise
    except Exception as error:
        raise ScreenshotUnreadable(f"could not read the board ({_where(error)})") from error


def _where(error: Exception) -> str:
    """The error's kind and the innermost place in cpflow it came through: `IndexError in board.py:118
    line_pixel`."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if Path(frame.filename).resolve().is_relative_to(PACKAGE)] or frames
    kind = type(error)
    named = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return f"{named} in {Path(ours[-1].filename).name}:{ours[-1].lineno} {ours[-1].name}" if ours else named


def _reading(image: np.ndarray, debug_dir: Path | None, name: str, reaches: tuple[int, ...] = REACH) -> Reading:
    """The puzzle and the play the decoded picture shows; ScreenshotUnreadable when no board is read.
    When no grid stands out among lines of every width, or the board read on it is refused (its dots do
    not pair, a warp's end has no other, a cell is unsure, ...), the grid is looked for among thin lines
    (`reaches` THIN): on a board of small cells a pipe is as wide as a wide line, and on a solved one a
    pipe through every cell makes a grid of half cells. When both are refused, the first refusal is said."""
    vertical, horizontal = line_masks(image, reaches)
    if debug_dir is not None:
        from cpflow.vision import debug  # only when asked for (start-up time)

        debug.write_lines(debug_dir, image, vertical, horizontal)
    try:
        lattice: Grid = find_hex_lattice(vertical, horizontal, image) or find_lattice(vertical, horizontal)
    except ScreenshotUnreadable:
        if reaches == THIN:
            raise
        return _reading(image, debug_dir, name, THIN)
    try:
        return _on_lattice(image, lattice, vertical, horizontal, debug_dir, name, reaches)
    except ScreenshotUnreadable:
        if reaches == THIN:
            raise
        with suppress(ScreenshotUnreadable):
            return _reading(image, debug_dir, name, THIN)
        raise


def _on_lattice(
    image: np.ndarray,
    lattice: Grid,
    vertical: np.ndarray,
    horizontal: np.ndarray,
    debug_dir: Path | None,
    name: str,
    reaches: tuple[int, ...],
) -> Reading:
    """The puzzle and the play the decoded picture shows on the lattice found among the lines `reaches`
    tells (`vertical`, `horizontal`: their masks); ScreenshotUnreadable when that reading is refused."""
    image, lattice, seen = _margined(image, lattice)
    if seen is not None:  # the lines on the picture's edge are ridges now
        vertical, horizontal = line_masks(image, reaches)
    shot, shot_lab = image, lab_image(image)  # each pixel converted once, whatever the lattice (cpflow.vision.lab)
    grown = 0  # times the lattice was grown (GROWN at most)
    while True:  # again on a lattice less its edge lines that are not the board's, or with one more
        image, lab, dots, pairs, dotted = _without_highlight(shot, shot_lab, lattice)
        sides, tints = read_sides(image, lattice, vertical, horizontal)
        sides = _cut(sides, lattice, seen)
        holes, bare = find_holes(lab, lattice, sides, {dot.cell for dot in dots})
        changed = _trimmed(lattice, holes, sides, {dot.cell for dot in dots})
        colours = np.array([dot.bgr for dot in dots], dtype=np.float32)  # for a pipe running out through a warp
        if changed is None and isinstance(lattice, Lattice):
            changed, grown = _grown(image, lattice, sides, holes, seen, colours), grown + 1
            if changed is not None and grown > GROWN:
                raise ScreenshotUnreadable("no board found: its outline runs on past every line found")
        if changed is None:
            break
        lattice = changed
    if isinstance(lattice, Lattice):
        _whole(lattice, vertical, horizontal)
    edge = covered(lab, lattice, sides, holes, seen or (0, 0, image.shape[1], image.shape[0]), (vertical, horizontal))
    if edge:
        raise ScreenshotUnreadable(f"no board found: its {edge} edge runs on under something laid over the picture")
    try:
        named = name_pairs(pairs if pairs is not None else pair_dots(dots))
    except ScreenshotUnreadable:
        if debug_dir is not None:
            from cpflow.vision import debug  # only when asked for (start-up time)

            debug.write(debug_dir, image, lattice, dots, holes, None)
        raise
    endpoints = {colour: (a.cell, b.cell) for colour, (a, b) in named.items()}
    joined, marks = warps(image, sides, lattice, holes, colours) if isinstance(lattice, Lattice) else ([], {})
    try:
        puzzle = Puzzle.build(
            lattice.width,
            lattice.height,
            endpoints,
            shape=lattice.shape,
            holes=holes,
            walls=walls(sides, lattice, holes),
            warps=joined,  # none on a hexagonal board
            bridges=find_bridges(lab, lattice, dots, holes) if isinstance(lattice, Lattice) else [],
            name=name,
        )
    except ValueError as error:  # a reading that makes no board (none is known): said, not raised raw
        raise ScreenshotUnreadable(f"no board found: {error}") from None
    unlined, tinted = _unlined(sides, lattice, holes, dots), tinted_walls(tints, lattice, holes)
    sure = confidence(dotted, bare, pairing(named.values(), dots), unlined, tinted, marks)
    play = read_play(lab, lattice, named, puzzle)
    if debug_dir is not None:
        from cpflow.vision import debug  # only when asked for (start-up time)

        debug.write(debug_dir, image, lattice, dots, holes, named, play)
    check(sure)
    return Reading(puzzle, play, sure)


def _margined(image: np.ndarray, lattice: Grid) -> tuple[np.ndarray, Grid, Box | None]:
    """The picture and its lattice with a cell's margin of page added on each side where
    the board's box reaches the picture's edge (a picture cut to the board, as `cpflow render` draws
    one or a hand-cut crop): beyond it the page is taken to be the board's own empty colour (the
    median of its cells' corners), so that its border reads as a bar, and a grid line on the edge
    as a line, as on a screen; and the picture's own box in the picture with the margin (None when
    no margin was added: no side reaches the edge)."""
    height, width = image.shape[:2]
    left, top, right, bottom = lattice.bounds()
    near = max(OVERHANG, EDGE * lattice.step)
    margin = int(np.ceil(lattice.step))
    top_, bottom_ = margin * (top <= near), margin * (bottom >= height - 1 - near)
    left_, right_ = margin * (left <= near), margin * (right >= width - 1 - near)
    if not (top_ or bottom_ or left_ or right_):
        return image, lattice, None
    margined = cv2.copyMakeBorder(image, top_, bottom_, left_, right_, cv2.BORDER_CONSTANT, value=_page(image, lattice))
    return margined, lattice.moved(left_, top_), (left_, top_, left_ + width, top_ + height)


def _cut(sides: Sides, lattice: Grid, seen: Box | None) -> Sides:
    """The sides, those toward a cell beyond the lattice and beyond the picture's own edge (in the
    margin `_margined` added: `seen` is the picture's box) where nothing was seen made CUT: a line
    cut off by the picture's edge is no sign of a hole."""
    if seen is None:
        return sides
    left, top, right, bottom = seen

    def beyond(a: Cell, b: Cell) -> bool:
        if lattice.inside(b):
            return False
        if isinstance(lattice, HexLattice):
            x, y = lattice.centre(*b)
        else:
            (x, y), step = lattice.centre(*a), lattice.step
            x, y = x + (b[1] - a[1]) * step, y + (b[0] - a[0]) * step
        return not (left <= x < right and top <= y < bottom)

    return {(a, b): Side.CUT if side is Side.NOTHING and beyond(a, b) else side for (a, b), side in sides.items()}


def _page(image: np.ndarray, lattice: Grid) -> list[float]:
    """The page's colour (BGR) round a board that reaches the picture's edge: where the page shows
    beyond the board's box (as `sides.page` reads it, but inside the picture only), else, when the
    board fills the picture, the board's own empty colour: of its cells' corners, the darkest on a
    dark board, the lightest on a light one (a played cell's tint is the page blended toward its
    colour: on a solved board every cell is tinted)."""
    height, width = image.shape[:2]
    left, top, right, bottom = lattice.bounds()
    away = PAGE * lattice.step
    downs = [top + (k + 0.5) * (bottom - top) / lattice.height for k in range(lattice.height)]
    acrosses = [left + (k + 0.5) * (right - left) / lattice.width for k in range(lattice.width)]
    points = [(x, y) for x in (left - away, right + away) for y in downs]
    points += [(x, y) for y in (top - away, bottom + away) for x in acrosses]
    seen = [image[round(y), round(x)] for x, y in points if 0 <= round(x) < width and 0 <= round(y) < height]
    if not seen:
        cells = [corners(lattice, row, col) for row in range(lattice.height) for col in range(lattice.width)]
        ys = np.concatenate([ys for ys, _ in cells]).clip(0, height - 1)
        xs = np.concatenate([xs for _, xs in cells]).clip(0, width - 1)
        seen = image[ys, xs].astype(np.float32)
        lightness = seen.mean(axis=1)
        low, middle, high = np.percentile(lightness, [EXTREME, 50, 100 - EXTREME])
        extreme = low if middle < 128 else high
        seen = seen[np.abs(lightness - extreme) <= np.abs(lightness - extreme).min() + 1]
    return [float(v) for v in median(seen)]


def _trimmed(lattice: Grid, holes: set[Cell], sides: Sides, dots: set[Cell]) -> Grid | None:
    """The lattice less its edge rows and columns that are not the board's (a run of lines beyond
    it, in step with its grid): all holes, or with no dot and cut off from the next line in by bars
    (the border; one side may leak, where text touches it); None when it has none."""
    rows = [{(r, c) for c in range(lattice.width)} for r in range(lattice.height)]
    cols = [{(r, c) for r in range(lattice.height)} for c in range(lattice.width)]
    top, bottom = _run(rows, holes, sides, dots), _run(rows[::-1], holes, sides, dots)
    left, right = _run(cols, holes, sides, dots), _run(cols[::-1], holes, sides, dots)
    if top + bottom >= lattice.height or left + right >= lattice.width:
        return None  # nothing of a board left: said later, as no dots pair
    smaller = lattice.trimmed(top, bottom, left, right)
    return smaller if (smaller.width, smaller.height) != (lattice.width, lattice.height) else None


def _grown(
    image: np.ndarray, lattice: Lattice, sides: Sides, holes: set[Cell], seen: Box | None, dots: np.ndarray
) -> Lattice | None:
    """The lattice with one more row or column wherever a board with a border runs on past it: an edge
    cell whose outer side has a grid line, no bar and no warp's mark (`sides.marks`; `dots`: the dots' colours)
    (the lattice can miss a line of the board that is nearly all holes, whose lines run through a cell or
    two only); None if none.
    ScreenshotUnreadable when that runs off the picture: a board cut by its edge. Never into the
    margin `_margined` added beyond the picture's own box (`seen`): the line on a picture cut to the
    board is its outline, and what lies past it the picture does not show."""
    if not bordered(sides, lattice, holes):
        return None
    beyond = [0, 0, 0, 0]  # top, bottom, left, right
    lined = [
        (a, b)
        for (a, b), side in sides.items()
        if lattice.inside(a) and not lattice.inside(b) and a not in holes and side is Side.LINE
    ]
    for (_, b), (marked, _) in zip(lined, marks(image, lattice, lined, dots), strict=True):
        if not marked:
            beyond[0 if b[0] < 0 else 1 if b[0] >= lattice.height else 2 if b[1] < 0 else 3] = 1
    if seen is not None:
        (left, top, right, bottom), step = lattice.bounds(), lattice.step
        shown = (top - step >= seen[1] - OVERHANG, bottom + step <= seen[3] - 1 + OVERHANG) + (
            left - step >= seen[0] - OVERHANG,
            right + step <= seen[2] - 1 + OVERHANG,
        )
        beyond = [way and inside for way, inside in zip(beyond, shown, strict=True)]
    if not any(beyond):
        return None
    grown = lattice.grown(*beyond)
    left, top, right, bottom = grown.bounds()
    height, width = image.shape[:2]
    if min(left, top) < -OVERHANG or right > width - 1 + OVERHANG or bottom > height - 1 + OVERHANG:
        raise ScreenshotUnreadable("no board found: the board runs on past the picture's edge")
    return grown


def _whole(lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray) -> None:
    """ScreenshotUnreadable when the board runs on past the picture's edge less than a cell beyond the
    lattice (a picture cut through its edge cells: that sliver of cells is no line of the lattice, and
    the board read without it would be another): most of the lattice's lines across run on through
    the gap to the edge (`vertical`, `horizontal`: the line masks); the page beside a board shows none."""
    height, width = vertical.shape
    left, top, right, bottom = lattice.bounds()
    near, step = max(OVERHANG, EDGE * lattice.step), lattice.step
    gaps = (  # left, right, top, bottom: the gap's pixels along the lines across, their mask, where they lie, its size
        (slice(0, max(0, round(left) - 2)), horizontal, lattice.ys, left),
        (slice(round(right) + 3, width), horizontal, lattice.ys, width - 1 - right),
        (slice(0, max(0, round(top) - 2)), vertical, lattice.xs, top),
        (slice(round(bottom) + 3, height), vertical, lattice.xs, height - 1 - bottom),
    )
    for gap, mask, lines, apart in gaps:
        if not near < apart <= step or gap.start >= (gap.stop or 0) - 1:
            continue
        across = mask if mask is horizontal else mask.T
        runs = [across[max(0, round(at) - 2) : round(at) + 3, gap].any(axis=0).mean() >= SEEN for at in lines]
        if sum(runs) > len(runs) / 2:
            raise ScreenshotUnreadable("no board found: the board runs on past the picture's edge")


def _unlined(sides: Sides, lattice: Grid, holes: set[Cell], dots: list[Dot]) -> dict[Cell, float]:
    """A margin of 0 for each cell on the lattice's edge, no hole and with no dot, that shows no line of
    its own on any side (no line, bar or tint of one; none cut off by the picture's edge): every cell
    of the board is outlined, so such a cell is no board cell, nor a hole the reading found (a row of
    the page's buttons or text in step with the grid, past a board drawn without a border)."""
    dotted = {dot.cell for dot in dots}
    seen: dict[Cell, set[Side]] = {}
    edge = set()
    for (a, b), side in sides.items():
        if lattice.inside(a) and a not in holes and a not in dotted:
            seen.setdefault(a, set()).add(side)
            if not lattice.inside(b):
                edge.add(a)
    own = {Side.LINE, Side.BAR, Side.TINTED, Side.CUT}
    return {cell: 0.0 for cell in sorted(edge) if not seen[cell] & own}


def _run(lines: list[set[Cell]], holes: set[Cell], sides: Sides, dots: set[Cell]) -> int:
    """How many of the lines (rows or columns, from the edge in) are not the board's."""
    for k, (line, inner) in enumerate(zip(lines, lines[1:], strict=False)):
        toward = [side for (a, b), side in sides.items() if a in line and b in inner]
        barred = sum(side is not Side.BAR for side in toward) <= 1  # a line the border cuts off (one leak at most)
        if not (line <= holes or (barred and not line & dots)):
            return k
    return len(lines)


def _without_highlight(image: np.ndarray, lab: np.ndarray, lattice: Grid):
    """The picture, in Lab too (`lab`: as `lab_image` gives it), its dots, their pairs (None when they do
    not pair) and each cell's margin of dot or none (`dots.find_dots`), with the finger's highlight taken off
    (cpflow.vision.highlight) when the grid lines show one: the first guess of its colour whose
    unblended dots pair up, else the picture as it is."""
    outside = page(lab, lattice)
    dots, margins = find_dots(image, lab, lattice, outside)
    for guess in find_highlight(image, lattice, [np.array(dot.bgr, dtype=np.float32) for dot in dots]):
        clean = unblend(image, guess)
        clean_lab = lab_image(clean)
        clean_dots, clean_margins = find_dots(clean, clean_lab, lattice, outside)
        try:
            return clean, clean_lab, clean_dots, pair_dots(clean_dots), clean_margins
        except ScreenshotUnreadable:
            continue
    return image, lab, dots, None, margins


def decode(data: bytes) -> np.ndarray:
    """The picture as a BGR array at the working size; NotAnImage when it cannot be decoded, or its
    header (read before anything decodes it: cpflow.vision.dimensions) says no size or too large a one."""
    check_size(data)
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # a broken file is said once, below
    raw = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    except cv2.error:  # a decoder failure OpenCV lets through: a damaged file, said as any other
        image = None
    if image is None:
        raise NotAnImage(UNREADABLE)
    height, width = image.shape[:2]
    shrink = WORKING / max(height, width)
    if shrink < 1:
        size = (max(1, round(width * shrink)), max(1, round(height * shrink)))  # a sliver stays a pixel wide
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return image

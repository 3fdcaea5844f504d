"""A screenshot of the game in, a puzzle out: decode, find the board, find the dots, pair them.

The picture is read at a working size (the longer side at most WORKING pixels), which
keeps a 1440x2560 phone screenshot fast and changes nothing a board needs: its cells
stay tens of pixels wide.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from cpflow.board.grid import Cell, Puzzle
from cpflow.errors import CpflowError, NotAnImage, ScreenshotUnreadable
from cpflow.vision import debug
from cpflow.vision.board import Lattice, find_lattice, ridges
from cpflow.vision.bridges import find_bridges
from cpflow.vision.colours import name_pairs, pair_dots
from cpflow.vision.dimensions import UNREADABLE, check_size
from cpflow.vision.dots import find_dots, lab_image
from cpflow.vision.hexes import Grid, find_hex_lattice
from cpflow.vision.highlight import find_highlight, unblend
from cpflow.vision.holes import find_holes
from cpflow.vision.pipes import Play, read_play
from cpflow.vision.sides import Side, Sides, bordered, marked, read_sides, walls, warps

WORKING = 1280  # pixels, the working image's longer side at most
OVERHANG = 2  # pixels: a lattice may pass the picture's edge by this much (a line on the edge, rounded)
PACKAGE = Path(__file__).resolve().parents[1]  # where a bug's place is looked for in a traceback


@dataclass(frozen=True)
class Reading:
    """What a screenshot shows: the puzzle (its dots), and the play (the pipes drawn, and the cells
    the reading was unsure of)."""

    puzzle: Puzzle
    play: Play

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


def _reading(image: np.ndarray, debug_dir: Path | None, name: str) -> Reading:
    """The puzzle and the play the decoded picture shows; ScreenshotUnreadable when no board is read."""
    vertical, horizontal = ridges(image, 0), ridges(image, 1)
    if debug_dir is not None:
        debug.write_lines(debug_dir, image, vertical, horizontal)
    lattice: Grid = find_hex_lattice(vertical, horizontal) or find_lattice(vertical, horizontal)
    shot = image
    grown = False
    while True:  # again on a lattice less its edge lines that are not the board's, or with one more
        image, lab, dots, pairs = _without_highlight(shot, lattice)
        sides = read_sides(image, lattice, vertical, horizontal)
        holes = find_holes(lab, lattice, sides, {dot.cell for dot in dots})
        changed = _trimmed(lattice, holes, sides, {dot.cell for dot in dots})
        if changed is None and not grown and isinstance(lattice, Lattice):
            changed, grown = _grown(image, lattice, sides, holes), True
        if changed is None:
            break
        lattice = changed
    try:
        named = name_pairs(pairs if pairs is not None else pair_dots(dots))
    except ScreenshotUnreadable:
        if debug_dir is not None:
            debug.write(debug_dir, image, lattice, dots, holes, None)
        raise
    endpoints = {colour: (a.cell, b.cell) for colour, (a, b) in named.items()}
    try:
        puzzle = Puzzle.build(
            lattice.width,
            lattice.height,
            endpoints,
            shape=lattice.shape,
            holes=holes,
            walls=walls(sides, lattice, holes),
            warps=warps(image, sides, lattice, holes)
            if isinstance(lattice, Lattice)
            else [],  # none on a hexagonal board
            bridges=find_bridges(lab, lattice, dots, holes) if isinstance(lattice, Lattice) else [],
            name=name,
        )
    except ValueError as error:  # a reading that makes no board (none is known): said, not raised raw
        raise ScreenshotUnreadable(f"no board found: {error}") from None
    play = read_play(lab, lattice, named, puzzle)
    if debug_dir is not None:
        debug.write(debug_dir, image, lattice, dots, holes, named, play)
    return Reading(puzzle, play)


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


def _grown(image: np.ndarray, lattice: Lattice, sides: Sides, holes: set[Cell]) -> Lattice | None:
    """The lattice with one more row or column wherever a board with a border runs on past it: an edge
    cell whose outer side has a grid line, no bar and no warp's mark (the lattice can miss a line of
    the board that is nearly all holes, whose lines run through a cell or two only); None if none.
    ScreenshotUnreadable when that runs off the picture: a board cut by its edge."""
    if not bordered(sides, lattice, holes):
        return None
    beyond = [0, 0, 0, 0]  # top, bottom, left, right
    for (a, b), side in sides.items():
        if lattice.inside(a) and not lattice.inside(b) and a not in holes and side is Side.LINE:
            if not marked(image, lattice, a, b):
                beyond[0 if b[0] < 0 else 1 if b[0] >= lattice.height else 2 if b[1] < 0 else 3] = 1
    if not any(beyond):
        return None
    grown = lattice.grown(*beyond)
    left, top, right, bottom = grown.bounds()
    height, width = image.shape[:2]
    if min(left, top) < -OVERHANG or right > width - 1 + OVERHANG or bottom > height - 1 + OVERHANG:
        raise ScreenshotUnreadable("no board found: the board runs on past the picture's edge")
    return grown


def _run(lines: list[set[Cell]], holes: set[Cell], sides: Sides, dots: set[Cell]) -> int:
    """How many of the lines (rows or columns, from the edge in) are not the board's."""
    for k, (line, inner) in enumerate(zip(lines, lines[1:], strict=False)):
        toward = [side for (a, b), side in sides.items() if a in line and b in inner]
        barred = sum(side is not Side.BAR for side in toward) <= 1  # a line the border cuts off (one leak at most)
        if not (line <= holes or (barred and not line & dots)):
            return k
    return len(lines)


def _without_highlight(image: np.ndarray, lattice: Grid):
    """The picture, in Lab too, its dots and their pairs (None when they do not pair), with the
    finger's highlight taken off (cpflow.vision.highlight) when the grid lines show one: the first
    guess of its colour whose unblended dots pair up, else the picture as it is."""
    lab = lab_image(image)
    dots = find_dots(image, lab, lattice)
    for guess in find_highlight(image, lattice, [np.array(dot.bgr, dtype=np.float32) for dot in dots]):
        clean = unblend(image, guess)
        clean_lab = lab_image(clean)
        clean_dots = find_dots(clean, clean_lab, lattice)
        try:
            return clean, clean_lab, clean_dots, pair_dots(clean_dots)
        except ScreenshotUnreadable:
            continue
    return image, lab, dots, None


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

"""What stands on each side of each cell: a thin grid line, a bar, or nothing.

The game outlines every cell with a thin grid line, draws a wall as a bar over the line
between two cells, and frames the board with a thinner bar (its border), left open
where a warp leaves the board. A hole is bare page, with nothing on its sides but the
border of the cells beside it. So a side is read across the line a fifth of the way
from either end (clear of a pipe crossing it in the middle, of the dots, and of a
warp's chevrons): a bar is a run of grey pixels, wider than a grid line and far from
any blend of the grid lines' colour and the pixels on either side; a line is a ridge of the
line masks (`cpflow.vision.board.ridges`); else there is nothing. Where the finger's
highlight tints a bar (or a line: the two cannot be told apart there), the side is tinted.

From the sides: walls (a bar between two cells of the board) and warps (an opening in
the border: the side of a board cell at the lattice's edge with only the cell's own grid
line or nothing, paired with the opening at the other end of its row or column).
"""

from __future__ import annotations

from enum import Enum

import numpy as np

from cpflow.board.grid import Cell
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.board import Lattice, Segment, line_pixel

ENDS = (0.2, 0.8)  # of a side: where it is read across
ACROSS = 0.2  # of a cell, to either side of the line: the profile read
APART = 45.0  # BGR distance of a bar's pixels from any blend of the grid lines' colour and the pixels beside
WIDE = 2  # pixels: a bar is at least this wide (in the working image a border can be 3 pixels, its core 2)
PAGE = 0.33  # of a cell: how far beyond the lattice the page is read
GREY = 30  # a bar's pixels are grey: their channels this close
SEEN = 0.5  # share of a side's length along which the line masks must run for a line to be there


class Side(Enum):
    LINE = "line"
    BAR = "bar"
    TINTED = "tinted"  # a bar's width of colour far from the lines and the cells: a bar under a tint, or a tinted line
    NOTHING = "nothing"


Sides = dict[tuple[Cell, Cell], Side]  # (cell, the cell beyond, perhaps off the lattice) -> what is between


def read_sides(image: np.ndarray, grid: Lattice, vertical: np.ndarray, horizontal: np.ndarray) -> Sides:
    """What stands between each two cells of the lattice and on its edge, both ways round
    (`vertical`, `horizontal`: the line masks)."""
    picture = image.astype(np.float32)
    segments = grid.segments(ENDS, outer=True)
    inner = [segment for segment in segments if all(grid.inside(cell) for cell in segment.cells)]
    points = [(x, y, segment.across) for segment in inner or segments for x, y in segment.points]
    lines = np.median([line_pixel(picture, *point) for point in points], axis=0)
    page = _page(picture, grid)
    found: Sides = {}
    for segment in segments:
        bars = [_bar(picture, x, y, segment.across, grid.step, lines, page) for x, y in segment.points]
        if all(grey >= WIDE for grey, _ in bars):
            side = Side.BAR
        elif all(far >= WIDE for _, far in bars):
            side = Side.TINTED
        elif _line(vertical if segment.across else horizontal, segment, grid):
            side = Side.LINE
        else:
            side = Side.NOTHING
        a, b = segment.cells
        found[a, b] = found[b, a] = side
    return found


def bordered(sides: Sides, grid: Lattice, holes: set[Cell]) -> bool:
    """Whether the board has a border: a bar on most of its cells' sides toward the lattice's edge."""
    outer = [side for (a, b), side in sides.items() if grid.inside(a) and not grid.inside(b) and a not in holes]
    return sum(side is Side.BAR for side in outer) > 0.5 * len(outer)


def walls(sides: Sides, grid: Lattice, holes: set[Cell]) -> list[tuple[Cell, Cell]]:
    """The walls: a bar between two cells of the board."""
    on = lambda cell: grid.inside(cell) and cell not in holes  # noqa: E731
    return sorted((a, b) for (a, b), side in sides.items() if a < b and side is Side.BAR and on(a) and on(b))


def warps(sides: Sides, grid: Lattice, holes: set[Cell]) -> list[tuple[Cell, Cell]]:
    """The warps: each opening in the border, paired with the opening at the other end of its row
    or column; none when the board has no border. ScreenshotUnreadable for an opening with no other end."""
    if not bordered(sides, grid, holes):
        return []
    openings = {
        (a, b)
        for (a, b), side in sides.items()
        if side in (Side.LINE, Side.NOTHING) and grid.inside(a) and not grid.inside(b) and a not in holes
    }
    last_row, last_col = grid.height - 1, grid.width - 1
    found = []
    for (row, col), beyond in sorted(openings):
        other = {
            (row, -1): ((row, last_col), (row, last_col + 1)),
            (-1, col): ((last_row, col), (last_row + 1, col)),
        }.get(beyond)
        if other in openings:
            found.append(((row, col), other[0]))
            openings -= {((row, col), beyond), other}
    if openings:
        (row, col), _ = min(openings)
        raise ScreenshotUnreadable(
            f"an opening in the board's border at row {row + 1}, column {col + 1} has no other end"
        )
    return found


def _page(picture: np.ndarray, grid: Lattice) -> np.ndarray:
    """The page's colour round the board (an empty cell's, too): the median of points a third of a
    cell beyond the lattice's edges, one beside each row and column."""
    height, width = picture.shape[:2]
    away = PAGE * grid.step
    points = [(grid.xs[0] - away, y) for y in _middles(grid.ys)] + [(grid.xs[-1] + away, y) for y in _middles(grid.ys)]
    points += [(x, grid.ys[0] - away) for x in _middles(grid.xs)] + [(x, grid.ys[-1] + away) for x in _middles(grid.xs)]
    return np.median(
        [picture[min(max(round(y), 0), height - 1), min(max(round(x), 0), width - 1)] for x, y in points], axis=0
    )


def _middles(lines: tuple[float, ...]) -> list[float]:
    return [(a + b) / 2 for a, b in zip(lines, lines[1:], strict=False)]


def _line(mask: np.ndarray, segment: Segment, grid: Lattice) -> bool:
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
    return bool(band.size) and band.any(axis=1).mean() >= SEEN


def _bar(
    picture: np.ndarray, x: float, y: float, across: int, step: float, lines: np.ndarray, page: np.ndarray
) -> tuple[int, int]:
    """How many pixels wide a bar across the line at (x, y) is, of grey pixels and of pixels of any
    colour: pixels far from every blend of two of the grid lines' colour, the page's, and the pixels
    at either end of the profile (the cells, or the page, beside: a thin line's smoothed edge is such
    a blend, and so is the strip of board round a bridge's tile), read from ACROSS of a cell on one
    side of the line to the other."""
    height, width = picture.shape[:2]
    reach = max(2, int(round(ACROSS * step)))
    offsets = np.arange(-reach, reach + 1)
    if across:  # a vertical line: read left to right
        xs, ys = np.round(x + offsets).astype(int), np.full(offsets.shape, int(round(y)))
    else:
        xs, ys = np.full(offsets.shape, int(round(x))), np.round(y + offsets).astype(int)
    pixels = picture[ys.clip(0, height - 1), xs.clip(0, width - 1)]
    known = (lines, page, pixels[0], pixels[-1])
    blends = [(a, b) for i, a in enumerate(known) for b in known[i + 1 :]]
    far = np.min([_from_blends(pixels, a, b) for a, b in blends], axis=0) > APART
    grey = pixels.max(axis=1) - pixels.min(axis=1) <= GREY
    return int((far & grey).sum()), int(far.sum())


def _from_blends(pixels: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each pixel's distance from the nearest blend of colours a and b (the segment between them)."""
    span = b - a
    t = np.clip((pixels - a) @ span / max(float(span @ span), 1e-9), 0, 1)
    return np.linalg.norm(pixels - (a + t[:, None] * span), axis=1)

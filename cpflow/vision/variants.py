"""Kinds of board not read yet, told apart so that they are said, never read as a plainer board.

Walls: the game draws a wall as a thick light bar over the grid line between two cells. Read
across the line a fifth of the way from either end of the segment (clear of a pipe crossing
it in the middle, and of the dots), a wall is a run of grey pixels, a tenth of a cell wide,
lighter than the grid lines and far from their colour and from the cells on either side; a
grid line is a pixel or two, and dark. A segment that is a wall at both places is a wall, and the reading stops: the
puzzle read without it would be another puzzle. Segments beside a hole are not looked at
(there the board's outline meets the page).
"""

from __future__ import annotations

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.board import Lattice, line_pixel

ENDS = (0.2, 0.8)  # of a segment: where it is read across
ACROSS = 0.2  # of a cell, to either side of the line: the profile read
APART = 60.0  # BGR distance from the grid lines' colour, and from the cells beside, of a wall's pixels
THICK = 0.06  # of a cell: a wall's bar is at least this wide (a grid line is a pixel or two)
WIDE = 3  # pixels: and at least this wide, whatever the cell
GREY = 30  # a wall's pixels are grey: their channels this close


def unread_kind(image: np.ndarray, grid: Lattice, holes: set[Cell]) -> str | None:
    """The kind of board the picture shows that is not read yet (`"walls"`), or None."""
    picture = image.astype(np.float32)
    segments = [segment for segment in grid.segments(ENDS) if not set(segment.cells) & holes]
    if not segments:
        return None
    points = [(x, y, segment.across) for segment in segments for x, y in segment.points]
    lines = np.median([line_pixel(picture, *point) for point in points], axis=0)
    wide = max(WIDE, THICK * grid.step)
    for segment in segments:
        if all(_bar(picture, x, y, segment.across, grid.step, lines) >= wide for x, y in segment.points):
            return "walls"
    return None


def _bar(picture: np.ndarray, x: float, y: float, across: int, step: float, lines: np.ndarray) -> int:
    """How many pixels wide a light bar across the line at (x, y) is: grey pixels lighter than the
    grid lines, and far from their colour and from both ends of the profile (the cells beside),
    read from ACROSS of a cell on one side of the line to the other."""
    height, width = picture.shape[:2]
    reach = max(2, int(round(ACROSS * step)))
    offsets = np.arange(-reach, reach + 1)
    if across:  # a vertical line: read left to right
        xs, ys = np.round(x + offsets).astype(int), np.full(offsets.shape, int(round(y)))
    else:
        xs, ys = np.full(offsets.shape, int(round(x))), np.round(y + offsets).astype(int)
    pixels = picture[ys.clip(0, height - 1), xs.clip(0, width - 1)]
    grey = pixels.max(axis=1) - pixels.min(axis=1) <= GREY
    lighter = pixels.mean(axis=1) > lines.mean() + APART
    far = (
        (np.linalg.norm(pixels - lines, axis=1) > APART)
        & (np.linalg.norm(pixels - pixels[0], axis=1) > APART)
        & (np.linalg.norm(pixels - pixels[-1], axis=1) > APART)
    )
    return int((far & grey & lighter).sum())

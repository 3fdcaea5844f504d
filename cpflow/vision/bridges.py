"""Finding the bridges: the game draws each on a grey tile filling most of its cell.

The tile's corners are clear of the two pipes that may cross it (along the cell's middle
lines) and of the gap round the pipe passing over: so a bridge is a cell whose four
corner points (cpflow.vision.dots.corners) are one grey, far from the board's own colour
(the corners of most cells, and the page's, which an empty cell shows) and from the tint
of every colour's cells (a bridge stays
untinted, while a pipe's cells take a little of its colour: a grey colour's tint could be
mistaken for a tile otherwise). Each colour's tint is read where it shows, at the corners of its
dots' cells (a path's cells are tinted from its dot on), not computed from the board's colour: on a
solved board every cell is tinted, and the board's median colour is some colour's tint.
"""

from __future__ import annotations

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.dots import Dot, corners_of
from cpflow.vision.fits import distance, lengths, median
from cpflow.vision.hexes import Grid
from cpflow.vision.sides import page

ALIKE = 8.0  # Lab distance, at most, between a tile's corners and their median
GREY = 8.0  # a tile's chroma (a, b in Lab) at most
APART = 20.0  # Lab distance of a tile from the board's colour and from each colour's tint, at least


def find_bridges(lab: np.ndarray, grid: Grid, dots: list[Dot], holes: set[Cell]) -> set[Cell]:
    """The bridge cells of the board (`dots`: the endpoints, never on a bridge)."""
    height, width = lab.shape[:2]
    cells = [(r, c) for r in range(grid.height) for c in range(grid.width) if (r, c) not in holes]
    if not cells:
        return set()
    ys, xs = corners_of(grid, cells)
    points = lab[ys.clip(0, height - 1), xs.clip(0, width - 1)]  # cells x corners x Lab, read at once
    tiles = median(points.swapaxes(0, 1))  # each cell's median of its corners
    board = median(tiles)
    outside = page(lab, grid)  # an empty cell's colour, where most cells are tinted
    taken = {dot.cell for dot in dots}
    tints = [tile for cell, tile in zip(cells, tiles, strict=True) if cell in taken]
    alike = lengths(points - tiles[:, None]).max(axis=1) <= ALIKE
    found = set()
    for cell, tile, plain in zip(cells, tiles, alike, strict=True):
        if cell in taken or not plain:
            continue
        if np.hypot(tile[1], tile[2]) <= GREY and all(
            distance(tile, other) >= APART for other in (board, outside, *tints)
        ):
            found.add(cell)
    return found

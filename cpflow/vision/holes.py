"""Finding the holes of a shaped board (the game's hourglass, worm and amoeba packs).

The board is drawn cell by cell, each cell outlined, and a hole is left as bare
background: so a hole is a bare cell (neither a dot nor a pipe in it) with a side that
has no line, toward another bare cell or off the board. A hole walled in on all four sides by
board cells cannot be told from an empty cell; the game's shapes have none.
"""

from __future__ import annotations

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.board import Lattice
from cpflow.vision.dots import corners

SIDE = 0.5  # share of a side's length along which a line must be seen for the side to be drawn
EDGE = 0.3  # share of an outer line that must be seen for its gaps to mark holes
BARE = 10.0  # Lab distance, at most, between a bare cell's middle and its corners


def find_holes(lab: np.ndarray, lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray) -> set[Cell]:
    """The cells of the lattice that are not on the board (`vertical`, `horizontal`: the line masks).

    A missing side counts only between two bare cells (a pipe's tint can hide the line
    beside it, but a pipe's cell is never bare), or toward the outside on an edge of the
    lattice whose line is seen along most of it (a faint outer line, half drawn or
    blurred away in a small picture, says nothing).
    """
    cells = [(row, col) for row in range(lattice.height) for col in range(lattice.width)]
    drawn = {cell: _drawn(lattice, vertical, horizontal, *cell) for cell in cells}
    bare = {cell for cell in cells if _bare(lab, lattice, *cell)}
    edges = _edges_seen(lattice, drawn)
    holes = set()
    for row, col in bare:
        beyond = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        for side, (seen, (r, c)) in enumerate(zip(drawn[row, col], beyond, strict=True)):
            outside = not (0 <= r < lattice.height and 0 <= c < lattice.width)
            if not seen and ((outside and edges[side]) or (r, c) in bare):
                holes.add((row, col))
    return holes


def _edges_seen(lattice: Lattice, drawn: dict[Cell, list[bool]]) -> list[bool]:
    """Whether each outer line of the lattice (top, bottom, left, right) is seen along most of its cells."""
    last_row, last_col = lattice.height - 1, lattice.width - 1
    along = [
        [drawn[0, c][0] for c in range(lattice.width)],
        [drawn[last_row, c][1] for c in range(lattice.width)],
        [drawn[r, 0][2] for r in range(lattice.height)],
        [drawn[r, last_col][3] for r in range(lattice.height)],
    ]
    return [sum(sides) >= EDGE * len(sides) for sides in along]


def _drawn(lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray, row: int, col: int) -> list[bool]:
    """Whether each side of the cell (top, bottom, left, right) has its line."""
    top, bottom, left, right = lattice.ys[row], lattice.ys[row + 1], lattice.xs[col], lattice.xs[col + 1]
    return [
        _seen(horizontal, top, left, right, across=True),
        _seen(horizontal, bottom, left, right, across=True),
        _seen(vertical, left, top, bottom, across=False),
        _seen(vertical, right, top, bottom, across=False),
    ]


def _seen(mask: np.ndarray, at: float, start: float, stop: float, across: bool) -> bool:
    """Whether a line runs at `at` (a row when `across`, else a column) over most of start..stop."""
    inset = 0.2 * (stop - start)  # clear of the corners, where the crossing line is
    low, high = round(start + inset), round(stop - inset)
    near = slice(max(0, round(at) - 3), round(at) + 4)  # an outer line is drawn inside the board
    band = mask[near, low:high].T if across else mask[low:high, near]
    return bool(band.size) and band.any(axis=1).mean() >= SIDE


def _bare(lab: np.ndarray, lattice: Lattice, row: int, col: int) -> bool:
    """Whether the cell's middle is the colour of its corners: no dot, no pipe."""
    (x, y), reach = lattice.centre(row, col), max(1, round(0.15 * lattice.step))
    height, width = lab.shape[:2]
    middle = lab[max(0, round(y) - reach) : round(y) + reach + 1, max(0, round(x) - reach) : round(x) + reach + 1]
    ys, xs = corners(lattice, row, col)
    board = np.median(lab[ys.clip(0, height - 1), xs.clip(0, width - 1)], axis=0)
    return bool(middle.size) and float(np.linalg.norm(np.median(middle.reshape(-1, 3), axis=0) - board)) < BARE

"""Finding the holes of a shaped board (the game's hourglass, worm and amoeba packs, and holes
anywhere in a generated board).

Every cell of the board is outlined by a thin grid line, and a hole is bare page: no dot,
no pipe, and no grid line of its own (cpflow.vision.sides). So a bare cell is a hole when
each side of it is the border of the cell beside it (a bar), or nothing toward another
bare cell or the page (a line can vanish into a pipe's tint, but not between two bare
cells). Two bare cells with nothing between them are holes too, whatever their other
sides, and on a board drawn without a border (a bar round it), so is a bare cell with
nothing toward the page, on an edge of the lattice whose line is seen along most of it (a
faint outer line, half drawn or blurred away, says nothing).
"""

from __future__ import annotations

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.board import Lattice
from cpflow.vision.dots import corners
from cpflow.vision.sides import Side, Sides, bordered

EDGE = 0.3  # share of an outer line that must be seen for its gaps to mark holes
BARE = 10.0  # Lab distance, at most, between a bare cell's middle and its corners


def find_holes(lab: np.ndarray, lattice: Lattice, sides: Sides) -> set[Cell]:
    """The cells of the lattice that are not on the board."""
    cells = [(row, col) for row in range(lattice.height) for col in range(lattice.width)]
    bare = {cell for cell in cells if _bare(lab, lattice, *cell)}
    edges = [] if bordered(sides, lattice, set()) else _edges_seen(lattice, sides)
    holes = set()
    for row, col in bare:
        beyond = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        around = [sides[(row, col), other] for other in beyond]
        if all(
            _page(kind, other in bare or not lattice.inside(other)) for kind, other in zip(around, beyond, strict=True)
        ):
            holes.add((row, col))
        for side, (kind, other) in enumerate(zip(around, beyond, strict=True)):
            outside = not lattice.inside(other)
            if kind is Side.NOTHING and (other in bare or (outside and edges and edges[side])):
                holes.add((row, col))
    return holes


def _page(side: Side, toward_bare: bool) -> bool:
    """Whether a side can be a hole's: the border of a board cell beside it (a bar), or, toward
    another bare cell or the page, nothing (a grid line is a board cell's own; and one that vanishes
    into a pipe's tint says nothing of the cell beside that tint)."""
    return side is Side.BAR or (side is Side.NOTHING and toward_bare)


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


def _bare(lab: np.ndarray, lattice: Lattice, row: int, col: int) -> bool:
    """Whether the cell's middle is the colour of its corners: no dot, no pipe."""
    (x, y), reach = lattice.centre(row, col), max(1, round(0.15 * lattice.step))
    height, width = lab.shape[:2]
    middle = lab[max(0, round(y) - reach) : round(y) + reach + 1, max(0, round(x) - reach) : round(x) + reach + 1]
    ys, xs = corners(lattice, row, col)
    board = np.median(lab[ys.clip(0, height - 1), xs.clip(0, width - 1)], axis=0)
    return bool(middle.size) and float(np.linalg.norm(np.median(middle.reshape(-1, 3), axis=0) - board)) < BARE

"""Reading the play: the pipes a player has drawn, cell by cell, and the cells the reading is unsure of.

A pipe is a band about a third of a cell wide through the cell's centre, in its colour's
dot colour; an empty cell's centre shows the board (or, in the game's dark theme, the
faint tint of a cell a pipe has passed). So each cell without a dot is read at its
centre, inside any band, and takes the colour of the pair its centre is closest to, when
that is close and clearly closer than the next colour and than the cell's own corners.
A cell whose centre is near a colour but not clearly one is unsure, and left out.

The game draws a pipe only from a dot: a group of drawn cells of one colour that does not
reach one of that colour's dots (through cells of that colour) was not read right, and
is left out as unsure too. So a play read never contradicts its board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpflow.board.grid import Cell, Colour, lattice
from cpflow.vision.board import Lattice
from cpflow.vision.dots import CONTRAST, Dot, corners

CENTRE = 0.07  # of a cell: the half-width of the patch read at the centre, well inside a pipe's band
CLOSE = 20.0  # Lab distance within which a centre has a pair's colour
CLEAR = 8.0  # Lab distance by which the closest colour must beat the next one, and the corners


@dataclass(frozen=True)
class Play:
    """The cells read as drawn, with their colours, and the cells the reading left out as unsure."""

    drawn: dict[Cell, Colour]
    unsure: tuple[Cell, ...]


def read_play(lab: np.ndarray, grid: Lattice, named: dict[Colour, tuple[Dot, Dot]], holes: set[Cell]) -> Play:
    """The pipes drawn on the board (`named`: each colour's two dots; `holes`: cells off the board)."""
    dots = {dot.cell for pair in named.values() for dot in pair}
    colours = {colour: np.mean([a.lab, b.lab], axis=0) for colour, (a, b) in named.items()}
    drawn: dict[Cell, Colour] = {}
    unsure: set[Cell] = set()
    for row in range(grid.height):
        for col in range(grid.width):
            cell = (row, col)
            if cell in dots or cell in holes:
                continue
            read = _cell(lab, grid, row, col, colours)
            if read == "unsure":
                unsure.add(cell)
            elif read:
                drawn[cell] = read
    kept = _from_dots(drawn, named, grid)
    unsure |= set(drawn) - set(kept)
    return Play(kept, tuple(sorted(unsure)))


def _cell(lab: np.ndarray, grid: Lattice, row: int, col: int, colours: dict[Colour, np.ndarray]) -> Colour | None:
    """The colour of the pipe through the cell, None for none, or "unsure"."""
    height, width = lab.shape[:2]
    (x, y), half = grid.centre(row, col), max(1.0, CENTRE * grid.step)
    top, bottom = int(round(y - half)), int(round(y + half)) + 1
    left, right = int(round(x - half)), int(round(x + half)) + 1
    patch = lab[max(0, top) : min(height, bottom), max(0, left) : min(width, right)].reshape(-1, 3)
    centre = np.median(patch, axis=0)
    cy, cx = corners(grid, row, col)
    board = np.median(lab[cy.clip(0, height - 1), cx.clip(0, width - 1)], axis=0)
    to_board = float(np.linalg.norm(centre - board))
    if to_board < CONTRAST:
        return None  # the centre is the cell's own background: nothing drawn
    ranked = sorted((float(np.linalg.norm(centre - lab_)), colour) for colour, lab_ in colours.items())
    best, colour = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else float("inf")
    if best < CLOSE and best + CLEAR < second and best + CLEAR < to_board:
        return colour
    return "unsure" if best < 2 * CLOSE else None


def _from_dots(drawn: dict[Cell, Colour], named: dict[Colour, tuple[Dot, Dot]], grid: Lattice) -> dict[Cell, Colour]:
    """The drawn cells that reach a dot of their colour through cells of that colour."""
    kept: dict[Cell, Colour] = {}
    for colour, (a, b) in named.items():
        reached, stack = set(), [a.cell, b.cell]
        while stack:
            cell = stack.pop()
            for near in lattice("square", grid.width, grid.height, cell):
                if near not in reached and drawn.get(near) == colour:
                    reached.add(near)
                    stack.append(near)
        kept |= dict.fromkeys(reached, colour)
    return kept

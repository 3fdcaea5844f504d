"""Reading the play: the pipes a player has drawn, cell by cell, and the cells the reading is unsure of.

A pipe is a band about a third of a cell wide through the cell's centre, in its colour's
dot colour; an empty cell's centre shows the board (or, in the game's dark theme, the
faint tint of a cell a pipe has passed). So each cell without a dot is read at its
centre, inside any band, and takes the colour of the pair its centre is closest to, when
that is close and clearly closer than the next colour and than the cell's own corners.
A cell whose centre is near a colour but not clearly one is unsure, and left out. A
bridge is read lane by lane, on the two arms of each: the across lane left and right of
the centre, the down lane above and below it, past the gap round the pipe passing over.

The game draws a pipe only from a dot: a group of drawn cells of one colour that does not
reach one of that colour's dots (through cells of that colour, and the board's warps and
bridges) was not read right, and
is left out as unsure too. So a play read never contradicts its board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpflow.board.grid import ACROSS, DOWN, Cell, Colour, Node, Puzzle, cell_of
from cpflow.vision.dots import CONTRAST, Dot, corners_of
from cpflow.vision.fits import distance, median
from cpflow.vision.hexes import Grid

CENTRE = 0.07  # of a cell: the half-width of the patch read at the centre, well inside a pipe's band
CLOSE = 20.0  # Lab distance within which a centre has a pair's colour
SAME = 4.0  # Lab distance within which a centre is a pair's colour itself
FAINT = 6.0  # Lab distance, at least, of such a centre from the cell's own colour
CLEAR = 8.0  # Lab distance by which the closest colour must beat the next one, and the corners
ARM = 0.35  # of a cell, from a bridge's centre: where a lane is read, past the gap round the pipe over, on the tile
UNSURE = "unsure"


@dataclass(frozen=True)
class Play:
    """The nodes read as drawn (a bridge's two lanes apart), with their colours, and the cells the
    reading left out as unsure."""

    drawn: dict[Node, Colour]
    unsure: tuple[Cell, ...]


def read_play(lab: np.ndarray, grid: Grid, named: dict[Colour, tuple[Dot, Dot]], puzzle: Puzzle) -> Play:
    """The pipes drawn on the board (`named`: each colour's two dots; `puzzle`: the board read)."""
    dots = {dot.cell for pair in named.values() for dot in pair}
    colours = {colour: np.mean([a.lab, b.lab], axis=0) for colour, (a, b) in named.items()}
    bridges = set(puzzle.bridges())
    drawn: dict[Node, Colour] = {}
    unsure: set[Cell] = set()
    cells = [cell for cell in puzzle.cells if cell not in dots]
    for cell, board in zip(cells, _corners(lab, grid, cells), strict=True):
        x, y = grid.centre(*cell)
        if cell in bridges:  # each lane read on its two arms, clear of the gap round the pipe over
            arm = ARM * grid.step
            lanes: dict[Node, list[tuple[float, float]]] = {
                (*cell, ACROSS): [(x - arm, y), (x + arm, y)],
                (*cell, DOWN): [(x, y - arm), (x, y + arm)],
            }
        else:
            lanes = {cell: [(x, y)]}
        for node, points in lanes.items():
            read = _agreed([_read(lab, grid, px, py, board, colours) for px, py in points])
            if read == UNSURE:
                unsure.add(cell)
            elif read:
                drawn[node] = read
    kept = _from_dots(drawn, puzzle)
    unsure |= {cell_of(node) for node in set(drawn) - set(kept)}
    return Play(kept, tuple(sorted(unsure)))


def _agreed(reads: list[str | None]) -> str | None:
    """One reading of a lane from those of its arms: a colour that no arm contradicts."""
    found = {read for read in reads if read}
    return found.pop() if len(found) == 1 else (UNSURE if found else None)


def _corners(lab: np.ndarray, grid: Grid, cells: list[Cell]) -> np.ndarray:
    """Each cell's own colour: the median of its corners, all the cells read at once (`median` down each
    cell's corners: the same values as cell by cell)."""
    height, width = lab.shape[:2]
    ys, xs = corners_of(grid, cells)
    return median(lab[ys.clip(0, height - 1), xs.clip(0, width - 1)].swapaxes(0, 1)) if cells else np.empty((0, 3))


def _read(
    lab: np.ndarray, grid: Grid, x: float, y: float, board: np.ndarray, colours: dict[Colour, np.ndarray]
) -> str | None:
    """The colour of the pipe through (x, y), None for none, or UNSURE (`board`: the cell's own colour)."""
    height, width = lab.shape[:2]
    half = max(1.0, CENTRE * grid.step)
    top, bottom = int(round(y - half)), int(round(y + half)) + 1
    left, right = int(round(x - half)), int(round(x + half)) + 1
    patch = lab[max(0, top) : min(height, bottom), max(0, left) : min(width, right)].reshape(-1, 3)
    centre = median(patch)
    to_board = distance(centre, board)
    ranked = sorted((distance(centre, lab_), colour) for colour, lab_ in colours.items())
    best, colour = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else float("inf")
    # Clearly closer: by CLEAR, or by half of what stands between the two colours when they stand closer
    # (a board of many colours, beyond the game's sixteen, whose hues lie a few units apart).
    apart = distance(colours[colour], colours[ranked[1][1]]) if len(ranked) > 1 else float("inf")
    if best < SAME and best + min(CLEAR, apart / 2) < second and to_board >= max(FAINT, 2 * best):
        return colour  # the pair's own colour, off the cell's (a pale pipe on its pale tint)
    if to_board < CONTRAST:
        return None  # the cell's own background: nothing drawn
    if best < CLOSE and best + CLEAR < second and best + CLEAR < to_board:
        return colour
    return UNSURE if best < 2 * CLOSE else None


def _from_dots(drawn: dict[Node, Colour], puzzle: Puzzle) -> dict[Node, Colour]:
    """The drawn nodes that reach an endpoint of their colour through nodes of that colour (a warp
    and a bridge's lanes included: the board's own passages)."""
    kept: dict[Node, Colour] = {}
    for colour, ends in puzzle.endpoints.items():
        reached, stack = set(), list(ends)
        while stack:
            node = stack.pop()
            for near in puzzle.neighbours[node]:
                if near not in reached and drawn.get(near) == colour:
                    reached.add(near)
                    stack.append(near)
        kept |= dict.fromkeys(reached, colour)
    return kept

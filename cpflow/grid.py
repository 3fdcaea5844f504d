"""The puzzle as a graph: cells, their neighbours, and two endpoints per colour.

Glossary
- cell: a square of the board, written (row, col) from the top left, e.g. (0, 2).
- colour: the name of one pair of endpoints, e.g. 'R' or '12'.
- endpoint: one of the two cells a colour's path must join.
- path: the cells of one colour, in order, from its first endpoint to its second.
- solution: one path per colour, covering every cell exactly once.

Only `Puzzle.rectangle` knows the board is a rectangle; every other module works on
`cells` and `neighbours`, so other boards (holes, walls, warps) only change how the
graph is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Cell = tuple[int, int]  # (row, col), e.g. (0, 2)
Colour = str  # e.g. 'R', or '12' in the header format
Path = tuple[Cell, ...]  # e.g. ((0, 0), (0, 1), (1, 1))


@dataclass(frozen=True)
class Puzzle:
    """A board: its cells, who neighbours whom, and each colour's two endpoints."""

    width: int
    height: int
    endpoints: Mapping[Colour, tuple[Cell, Cell]]  # in reading order of the file
    neighbours: Mapping[Cell, tuple[Cell, ...]]  # every cell of the board is a key
    name: str = field(default="", compare=False)

    @classmethod
    def rectangle(
        cls, width: int, height: int, endpoints: Mapping[Colour, tuple[Cell, Cell]], name: str = ""
    ) -> Puzzle:
        """A width x height board where each cell touches its orthogonal neighbours."""
        neighbours = {
            (r, c): tuple(
                (r + dr, c + dc)
                for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 0 <= r + dr < height and 0 <= c + dc < width
            )
            for r in range(height)
            for c in range(width)
        }
        return cls(width, height, dict(endpoints), neighbours, name)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell, in reading order."""
        return tuple(self.neighbours)

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(self.endpoints)

    def endpoint_colour(self) -> dict[Cell, Colour]:
        """The colour of each endpoint cell."""
        return {cell: colour for colour, pair in self.endpoints.items() for cell in pair}

    def are_neighbours(self, a: Cell, b: Cell) -> bool:
        return b in self.neighbours.get(a, ())


@dataclass(frozen=True)
class Solution:
    """One path per colour, each from the colour's first endpoint to its second."""

    paths: Mapping[Colour, Path]

    def colour_of(self) -> dict[Cell, Colour]:
        """The colour of each covered cell (a cell in two paths keeps the later one)."""
        return {cell: colour for colour, path in self.paths.items() for cell in path}


# Cells round a 2x2, 2x3 and 3x2 block, in ring order, as steps from the block's top-left cell.
RING_SHAPES = (
    ((0, 0), (0, 1), (1, 1), (1, 0)),
    ((0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)),
    ((0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)),
)


def rings(puzzle: Puzzle, shapes=RING_SHAPES) -> list[list[Cell]]:
    """The cells round each block of the given shapes that the board holds, each ring in order."""
    found = []
    for r, c in puzzle.cells:
        for shape in shapes:
            ring = [(r + dr, c + dc) for dr, dc in shape]
            if all(puzzle.are_neighbours(a, b) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)):
                found.append(ring)
    return found

"""Repairing a puzzle with more than one solution: the smallest edit that leaves exactly one.

`fix` proves the puzzle unique or finds two solutions, then tries one edit at a time,
each proven by `uniqueness` (so every solution it sees passed the verifier), and keeps the
first that leaves exactly one solution:

1. a wall (on boards that have walls): across a step one solution takes and the other
   does not, which rules out the other and keeps the one;
2. one endpoint moved: an endpoint of a colour whose paths differ, to a free cell at most
   MOVE_REACH steps away (nearest first);
3. a pair of endpoints added: a path of one of the solutions split in two between cells
   where the solutions differ (the generator's repair, cpflow.workflows.generate.cover.split): that
   path's colour ends at the first new endpoint, and a new colour runs from the second to
   the path's old end, whose dot takes the new colour.

The edits are tried in that order, the nearest to where the solutions differ first, up
to `TRIES` uniqueness proofs.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace

from cpflow.board.grid import Cell, Colour, Node, Puzzle, Solution, cell_of
from cpflow.deduce.sentences import at
from cpflow.workflows.unique import Uniqueness, Verdict, uniqueness

TRIES = 400  # uniqueness proofs before giving up
MOVE_REACH = 2  # steps an endpoint may move


@dataclass(frozen=True)
class Edit:
    """One change to a puzzle: `kind` wall, move or pair; the colour it concerns; the cells
    (a wall: the two it stands between; a move: from, to; a pair: the new end of `colour`,
    then the new colour's first end); for a pair, the new colour and the old end it takes."""

    kind: str
    colour: Colour
    cells: tuple[Cell, Cell]
    new_colour: Colour | None = None
    old_end: Cell | None = None

    def words(self) -> str:
        """The edit in a sentence, cells as r1c1."""
        first, second = (at(cell) for cell in self.cells)
        if self.kind == "wall":
            return f"add a wall between {first} and {second}"
        if self.kind == "move":
            return f"move {self.colour}'s endpoint from {first} to {second}"
        old = at(self.old_end) if self.old_end else "?"
        return (
            f"add a pair of endpoints: {self.colour} now ends at {first}, and a new colour {self.new_colour} "
            f"runs from {second} to {old} (that dot becomes {self.new_colour})"
        )


@dataclass(frozen=True)
class Fixed:
    """What `fix` found: `verdict` (unique: nothing to fix; fixed; not fixed; unsolvable; unknown),
    the puzzle (after the edit, when fixed), its solution when it has exactly one, the edit, the
    uniqueness proofs tried and the seconds taken."""

    verdict: str
    puzzle: Puzzle
    solution: Solution | None
    edit: Edit | None
    tried: int
    seconds: float


def fix(puzzle: Puzzle, time_limit: float | None = None, tries: int = TRIES, total: float | None = None) -> Fixed:
    """The puzzle made unique by the smallest edit found, or why not (`time_limit`: per proof;
    `total`: seconds for all of them, after which the verdict is unknown)."""
    began = time.perf_counter()
    found = _proof(puzzle, time_limit)
    if found.verdict is not Verdict.NOT_UNIQUE:
        verdict = {Verdict.UNIQUE: "unique", Verdict.UNSOLVABLE: "unsolvable"}.get(found.verdict, "unknown")
        solution = found.solutions[0] if found.verdict is Verdict.UNIQUE else None
        return Fixed(verdict, puzzle, solution, None, 1, time.perf_counter() - began)
    tried = 1
    for edit, edited in edits(puzzle, found):
        if tried >= tries:
            break
        left = None if total is None else total - (time.perf_counter() - began)
        if left is not None and left <= 0:
            return Fixed("unknown", puzzle, None, None, tried, time.perf_counter() - began)
        tried += 1
        after = _proof(edited, time_limit if left is None else min(time_limit or left, left))
        if after.verdict is Verdict.UNIQUE:
            return Fixed("fixed", edited, after.solutions[0], edit, tried, time.perf_counter() - began)
    return Fixed("not fixed", puzzle, None, None, tried, time.perf_counter() - began)


def _proof(puzzle: Puzzle, time_limit: float | None) -> Uniqueness:
    return uniqueness(puzzle, time_limit=time_limit, workers=1, random_seed=0)


def edits(puzzle: Puzzle, found: Uniqueness) -> Iterator[tuple[Edit, Puzzle]]:
    """Each edit to try, with the puzzle it makes: walls, then moves, then pairs (module doc)."""
    first, second = found.solutions
    differ = set(found.differences())
    if puzzle.walls():
        yield from _walls(puzzle, found)
    yield from _moves(puzzle, first, second, differ)
    for solution in (first, second):
        yield from _pairs(puzzle, solution, differ)


def _walls(puzzle: Puzzle, found: Uniqueness) -> Iterator[tuple[Edit, Puzzle]]:
    """A wall across each step taken by one solution only, between two plain cells that touch."""
    for a, b in found.different_steps():
        if len(a) != 2 or len(b) != 2 or not puzzle.touches(a, b):
            continue
        neighbours = dict(puzzle.neighbours)
        neighbours[a] = tuple(n for n in neighbours[a] if n != b)
        neighbours[b] = tuple(n for n in neighbours[b] if n != a)
        if neighbours[a] and neighbours[b]:
            yield Edit("wall", "", (a, b)), replace(puzzle, neighbours=neighbours)


def _moves(puzzle: Puzzle, first: Solution, second: Solution, differ: set[Cell]) -> Iterator[tuple[Edit, Puzzle]]:
    """Each endpoint of a colour whose two paths differ, moved to each free plain cell within
    MOVE_REACH steps, the nearest first."""
    taken = set(puzzle.endpoint_colour())
    changed = [c for c in puzzle.colours if first.paths[c] != second.paths[c]]
    for colour in changed:
        for end in range(2):
            start = puzzle.endpoints[colour][end]
            for target in _near(puzzle, start, MOVE_REACH):
                if target in taken or len(target) != 2:
                    continue
                pair = list(puzzle.endpoints[colour])
                pair[end] = target
                endpoints = {**puzzle.endpoints, colour: (pair[0], pair[1])}
                yield Edit("move", colour, (cell_of(start), cell_of(target))), replace(puzzle, endpoints=endpoints)


def _near(puzzle: Puzzle, start: Node, reach: int) -> list[Node]:
    """Nodes within `reach` steps of `start` (not it), nearest first, in reading order within a distance."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if distance[node] < reach:
            for near in puzzle.neighbours[node]:
                if near not in distance:
                    distance[near] = distance[node] + 1
                    queue.append(near)
    return sorted((n for n in distance if n != start), key=lambda n: (distance[n], n))


def _pairs(puzzle: Puzzle, solution: Solution, differ: set[Cell]) -> Iterator[tuple[Edit, Puzzle]]:
    """Each path of the solution split between two cells, one of them where the solutions differ,
    into halves of SHORTEST cells or more; a new colour takes the second half."""
    from cpflow.workflows.generate.order import SHORTEST
    from cpflow.workflows.generate.prove import NAMES

    new = next((name for name in NAMES if name not in puzzle.endpoints), f"{len(puzzle.endpoints) + 1}")
    for colour, path in solution.paths.items():
        start, end = puzzle.endpoints[colour]
        path = path if path[0] == start else path[::-1]
        for i in range(SHORTEST, len(path) - SHORTEST + 1):
            a, b = path[i - 1], path[i]
            if len(a) != 2 or len(b) != 2 or not {cell_of(a), cell_of(b)} & differ:
                continue
            endpoints = {**puzzle.endpoints, colour: (start, a), new: (b, end)}
            edit = Edit("pair", colour, (cell_of(a), cell_of(b)), new, cell_of(end))
            yield edit, replace(puzzle, endpoints=endpoints)

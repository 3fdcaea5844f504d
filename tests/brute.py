"""A brute-force solution counter for tiny boards, independent of every engine.

It tries every simple path for each colour in turn and keeps the combinations that the
verifier accepts, so it shares nothing with the models but the rules in verify.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from cpflow.board.grid import Cell, Puzzle, Solution
from cpflow.board.verify import violations


def brute_count(puzzle: Puzzle) -> int:
    return sum(1 for _ in brute_solutions(puzzle))


def brute_solutions(puzzle: Puzzle) -> Iterator[Solution]:
    colours = list(puzzle.colours)

    def extend(i: int, used: frozenset[Cell], chosen: dict) -> Iterator[Solution]:
        if i == len(colours):
            solution = Solution(dict(chosen))
            if not violations(puzzle, solution):
                yield solution
            return
        start, end = puzzle.endpoints[colours[i]]
        for path in simple_paths(puzzle, start, end, used):
            yield from extend(i + 1, used | set(path), {**chosen, colours[i]: path})

    yield from extend(0, frozenset(), {})


def simple_paths(puzzle: Puzzle, start: Cell, end: Cell, used: frozenset[Cell]) -> Iterator[tuple[Cell, ...]]:
    """Every simple path from start to end through free cells and no other endpoint."""
    endpoints = set(puzzle.endpoint_colour())
    stack = [(start,)]
    while stack:
        path = stack.pop()
        if path[-1] == end:
            yield path
            continue
        for nxt in puzzle.neighbours[path[-1]]:
            if nxt not in path and nxt not in used and (nxt not in endpoints or nxt == end):
                stack.append((*path, nxt))

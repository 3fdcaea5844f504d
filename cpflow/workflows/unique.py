"""Does a puzzle have exactly one solution? And how many has it?

`uniqueness` asks for two solutions in one search where the engine can count (CP-SAT
and its front end), else solves, then solves again excluding the first answer: a
second answer means the puzzle is not unique. `count` enumerates distinct solutions up to a limit
(the pipeline's `count`: one search on CP-SAT, re-solving with exclusions elsewhere).
Both work with every engine of the catalog, and see only verified solutions.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from cpflow.board.grid import Cell, Node, Puzzle, Solution, cell_of, differ
from cpflow.engines import catalog, pipeline
from cpflow.engines.pipeline import solve
from cpflow.results import Status

# The default engine asked for the same answer on every run (generate and fix make the same puzzle from the same
# seed): CP-SAT's seed; the search (the default without OR-Tools) answers the same every run already.
SAME_EACH_RUN: dict[str, Any] = {"random_seed": 0} if catalog.ENGINES[catalog.DEFAULT].family == "CP-SAT" else {}


class Verdict(enum.StrEnum):
    UNIQUE = "unique"
    NOT_UNIQUE = "not-unique"  # one spelling in text, --quiet and JSON
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"  # a time limit came first


@dataclass(frozen=True)
class Uniqueness:
    """The verdict, the solutions found (none, one, or two that differ), and the time taken."""

    verdict: Verdict
    solutions: tuple[Solution, ...]
    seconds: float

    def differences(self) -> list[Cell]:
        """The cells coloured differently in the two solutions ([] unless not unique); where the
        colours agree in every cell (paths that touch themselves), the cells of the steps one
        solution takes and the other does not."""
        if len(self.solutions) != 2:
            return []
        return differ(*self.solutions) or sorted({cell_of(node) for step in self.different_steps() for node in step})

    def different_steps(self) -> list[tuple[Node, Node]]:
        """The steps (pairs of nodes, in order) that one of the two solutions takes and the other does not."""
        if len(self.solutions) != 2:
            return []
        first, second = (steps(solution) for solution in self.solutions)
        return sorted((a, b) for a, b in map(sorted, first ^ second))


@dataclass(frozen=True)
class Count:
    solutions: tuple[Solution, ...]
    exact: bool  # False when the limit or the time limit stopped the count
    seconds: float

    @property
    def number(self) -> int:
        return len(self.solutions)


def steps(solution: Solution) -> set[frozenset[Node]]:
    """The steps of a solution's paths, each an unordered pair of nodes."""
    return {frozenset(pair) for path in solution.paths.values() for pair in pairwise(path)}


def uniqueness(puzzle: Puzzle, engine: str = catalog.DEFAULT, time_limit: float | None = None, **options) -> Uniqueness:
    """Unique, not unique (with two differing solutions), unsolvable, or unknown."""
    catalog.backend(engine)  # imported before the clock starts
    began = time.perf_counter()
    if catalog.entry_of(engine).counts:
        found, status = pipeline.count(puzzle, 2, engine, time_limit=time_limit, **options)
        finished = status is Status.SOLVED or len(found) == 2
        verdict = [Verdict.UNSOLVABLE, Verdict.UNIQUE, Verdict.NOT_UNIQUE][len(found)] if finished else Verdict.UNKNOWN
        return Uniqueness(verdict, tuple(found), time.perf_counter() - began)
    first = solve(puzzle, engine, time_limit=time_limit, **options)
    if first.status is not Status.SOLVED:
        verdict = Verdict.UNSOLVABLE if first.status is Status.UNSOLVABLE else Verdict.UNKNOWN
        return Uniqueness(verdict, (), time.perf_counter() - began)
    left = None if time_limit is None else max(0.0, time_limit - first.seconds)
    second = solve(puzzle, engine, time_limit=left, exclude=[first.solution], **options)
    verdict = {Status.SOLVED: Verdict.NOT_UNIQUE, Status.UNSOLVABLE: Verdict.UNIQUE}.get(second.status, Verdict.UNKNOWN)
    answers = tuple(solution for solution in (first.solution, second.solution) if solution is not None)
    return Uniqueness(verdict, answers, time.perf_counter() - began)


def count(
    puzzle: Puzzle, limit: int = 1000, engine: str = catalog.DEFAULT, time_limit: float | None = None, **options
) -> Count:
    """Distinct solutions up to `limit`; `exact` says whether that is all of them."""
    catalog.backend(engine)
    began = time.perf_counter()
    found, status = pipeline.count(puzzle, limit, engine, time_limit=time_limit, **options)
    return Count(tuple(found), status is Status.SOLVED, time.perf_counter() - began)

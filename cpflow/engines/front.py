"""The front end of every engine that declares it (`Engine.front`): forced moves and a short
search before any model, run by the registry (cpflow.engines.registry).

`settle_first` answers a solve outright when the search (cpflow.deduce.search) finishes
within its budget: a solution that is none of `exclude`, or a proof that there is none.
Otherwise it hands over the settled start, whose fixed edges and colour domains make the
model smaller: each engine's `solve` and `count` take it as `root`; and the search, which
can go on beside the engine (cpflow.engines.race). It imports no solver, so a board it
answers never loads one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from cpflow.board.grid import Puzzle, Solution, differ
from cpflow.deduce.rules import Contradiction, Partial, settles
from cpflow.deduce.search import Exhausted, Search, solutions
from cpflow.engines.deadline import Deadline, OutOfTime
from cpflow.engines.result import SolveResult, Status

WORK = 500_000  # the search's budget, in branches x nodes (models/forced.md)
# nodes: on bigger boards the search seldom answers before CP-SAT, and beside it slows it (models/forced.md)
RACED = 1600


@dataclass
class Handover:
    """What the front end leaves to the model: the settled start, or None (nothing applies), and
    the search where it stopped, to go on beside the model (None when it does not apply)."""

    root: Partial | None
    seconds: float
    search: Search | None = None


def budget(puzzle: Puzzle) -> int:
    """Branches the search may take before the model takes over: 2,551 on a 14x14 board, 312 on
    a 40x40 one; none on a bigger board (the search seldom answers there, and CP-SAT does
    better) or when paths may touch themselves (the search's rules are weaker then)."""
    return WORK // max(1, len(puzzle.nodes)) if searched(puzzle) else 0


def searched(puzzle: Puzzle) -> bool:
    """Whether the search runs before the model, and beside it: boards of up to RACED nodes
    whose paths may not touch themselves."""
    return len(puzzle.nodes) <= RACED and not puzzle.rules.touch


def settle_first(puzzle: Puzzle, exclude: Sequence[Solution], deadline: Deadline) -> SolveResult | Handover:
    """A result when the front end settles the puzzle, else what the model starts from; OutOfTime
    when the deadline passes first."""
    began = time.perf_counter()
    if not settles(puzzle):
        return Handover(None, 0.0)
    try:
        search = Search(puzzle, deadline)
    except Contradiction:
        return answer(Status.UNSOLVABLE, None, began, reason="forced moves leave no way on")
    try:
        solution = first_new(search, exclude, budget(puzzle), deadline)
    except Exhausted:
        return Handover(search.root, time.perf_counter() - began, search if searched(puzzle) else None)
    return answer(Status.SOLVED if solution else Status.UNSOLVABLE, solution, began)


def first_new(search: Search, exclude: Sequence[Solution], branches: int, deadline: Deadline) -> Solution | None:
    """The search's next solution that is none of `exclude`, or None when there is no other;
    Exhausted after `branches` more branches, OutOfTime at the deadline."""
    for solution in search.solutions(branches, deadline):
        if not any(not differ(solution, other) for other in exclude):
            return solution
    return None


def count_first(puzzle: Puzzle, limit: int, deadline: Deadline) -> tuple[list[Solution], Status] | Handover:
    """Up to `limit` solutions and SOLVED (all of them) or UNKNOWN (the limit or the deadline came
    first: those found so far) when the search finishes or runs out of time, else what the model
    starts from."""
    began = time.perf_counter()
    if not settles(puzzle):
        return Handover(None, 0.0)
    found: list[Solution] = []
    try:
        for solution in solutions(puzzle, budget(puzzle), deadline):
            found.append(solution)
            if len(found) >= limit:
                return found, Status.UNKNOWN
    except Contradiction:
        return [], Status.SOLVED
    except Exhausted as out:
        return Handover(out.root, time.perf_counter() - began)
    except OutOfTime:
        return found, Status.UNKNOWN
    return found, Status.SOLVED


def answer(status: Status, solution: Solution | None, began: float, **stats) -> SolveResult:
    """The front end's result, timed from `began`."""
    seconds = time.perf_counter() - began
    return SolveResult(status, solution, seconds, seconds, "front", {"by": "forced moves", **stats})

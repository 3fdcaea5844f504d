"""The front end of every engine that declares it (`Engine.front`): forced moves and a short
search before any model, run by the registry (cpflow.engines.registry).

`settle_first` answers a solve outright when the search (cpflow.deduce.search) finishes
within its budget: a solution that is none of `exclude`, or a proof that there is none.
Otherwise it hands over the settled start, whose fixed edges and colour domains make the
model smaller: each engine's `solve` and `count` take it as `root`. It imports no solver,
so a board it answers never loads one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from cpflow.board.grid import Puzzle, Solution, differ
from cpflow.deduce.rules import Contradiction, Partial, settles
from cpflow.deduce.search import Exhausted, solutions
from cpflow.engines.deadline import Deadline, OutOfTime
from cpflow.engines.result import SolveResult, Status

WORK = 200_000  # the search's budget, in branches x nodes (models/forced.md)
SMALL = 500  # nodes: on bigger boards the search seldom ends within its budget, and CP-SAT does better


@dataclass
class Handover:
    """What the front end leaves to the model: the settled start, or None (nothing applies)."""

    root: Partial | None
    seconds: float


def budget(puzzle: Puzzle) -> int:
    """Branches the search may take before the model takes over: 1,000 on a 14x14 board,
    none on a board of more than SMALL nodes, which the front end only settles."""
    nodes = len(puzzle.nodes)
    return WORK // max(1, nodes) if nodes <= SMALL and not puzzle.rules.touch else 0


def settle_first(puzzle: Puzzle, exclude: Sequence[Solution], deadline: Deadline) -> SolveResult | Handover:
    """A result when the front end settles the puzzle, else what the model starts from; OutOfTime
    when the deadline passes first."""
    began = time.perf_counter()
    if not settles(puzzle):
        return Handover(None, 0.0)
    try:
        for solution in solutions(puzzle, budget(puzzle), deadline):
            if not any(not differ(solution, other) for other in exclude):
                return _answer(Status.SOLVED, solution, began)
        return _answer(Status.UNSOLVABLE, None, began)
    except Contradiction:
        return _answer(Status.UNSOLVABLE, None, began, reason="forced moves leave no way on")
    except Exhausted as out:
        return Handover(out.root, time.perf_counter() - began)


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


def _answer(status: Status, solution: Solution | None, began: float, **stats) -> SolveResult:
    seconds = time.perf_counter() - began
    return SolveResult(status, solution, seconds, seconds, "front", {"by": "forced moves", **stats})

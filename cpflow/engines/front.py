"""The front end of every engine that declares it (`Engine.front`): forced moves and a short
search before any model, run by the pipeline (cpflow.engines.pipeline).

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
from typing import TYPE_CHECKING

from cpflow.board.grid import Puzzle, Solution, differ
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce import compiled
from cpflow.deduce.rules import Contradiction, Exhausted, Partial, settles
from cpflow.deduce.search import solutions, start
from cpflow.results import SolveResult, Status

if TYPE_CHECKING:
    from cpflow.deduce.search import Searching


@dataclass(frozen=True)
class Pace:
    """How long a search may run before the model (`work`: branches x nodes) and on which boards
    it runs at all, before the model and beside it (up to `raced` nodes): on bigger boards it
    seldom answers before CP-SAT, and beside it slows it (models/forced.md)."""

    work: int
    raced: int


PYTHON = Pace(work=500_000, raced=1600)  # about 0.1 s in Python (cpflow.deduce.search.Search)
COMPILED = Pace(work=50_000_000, raced=2600)  # about 0.1 s in C (cpflow.deduce.compiled)


@dataclass
class Handover:
    """What the front end leaves to the model: the settled start, or None (nothing applies), and
    the search where it stopped, to go on beside the model (None when it does not apply)."""

    root: Partial | None
    seconds: float
    search: Searching | None = None


def pace(puzzle: Puzzle) -> Pace:
    """The compiled search's pace when it takes the board, else the Python search's."""
    return COMPILED if compiled.takes(puzzle) else PYTHON


def budget(puzzle: Puzzle) -> int:
    """Branches the search may take before the model takes over, `work // nodes`: in C 255,102 on
    a 14x14 board, 20,000 on a 50x50 one; none on a bigger board (the search seldom answers there,
    and CP-SAT does better) or when paths may touch themselves (the search's rules are weaker then)."""
    return pace(puzzle).work // max(1, len(puzzle.nodes)) if searched(puzzle) else 0


def searched(puzzle: Puzzle) -> bool:
    """Whether the search runs before the model, and beside it: boards of up to `raced` nodes
    whose paths may not touch themselves."""
    return len(puzzle.nodes) <= pace(puzzle).raced and not puzzle.rules.touch


def settle_first(puzzle: Puzzle, exclude: Sequence[Solution], deadline: Deadline) -> SolveResult | Handover:
    """A result when the front end settles the puzzle, else what the model starts from; OutOfTime
    when the deadline passes first."""
    began = time.perf_counter()
    if not settles(puzzle):
        return Handover(None, 0.0)
    try:
        search = start(puzzle, deadline, in_c=searched(puzzle))  # else only the start, for the model, in Python
    except Contradiction:
        return answer(Status.UNSOLVABLE, None, began, reason="forced moves leave no way on")
    try:
        solution = first_new(search, exclude, budget(puzzle), deadline)
    except Exhausted as out:
        return Handover(out.root, time.perf_counter() - began, search if searched(puzzle) else None)
    return answer(Status.SOLVED if solution else Status.UNSOLVABLE, solution, began)


def first_new(search: Searching, exclude: Sequence[Solution], branches: int, deadline: Deadline) -> Solution | None:
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
        for solution in solutions(puzzle, budget(puzzle), deadline, in_c=searched(puzzle)):
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

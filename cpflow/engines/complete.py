"""The search engine: the front end's depth-first search (cpflow.deduce.search) run to its end.

No model and no solver library: the search settles the start (the rules of
models/forced.md), then branches on the first undecided edge, in or out, until it has a
solution that is none of `exclude`, or has looked at every branch (no solution: a
proof, since the two branches of an edge share none and together hold every one), or
the deadline passes (unknown). Counting is one search: its solutions are distinct, each
found once. It runs in C when the compiled core was built and takes the board
(cpflow.deduce.compiled), else in Python (`in_c=False` asks for Python: the engine as it
runs in the browser, under Pyodide, where there is no C core); both give the same
solutions in the same order. It takes boards whose every node is covered (no
--allow-blanks: `rules.settles`); when paths may touch themselves it searches in Python,
with the rules that still hold.

Its memory is the search's stack, a frame per open branch, each of the board's size:
`ROOM` (or half the free memory, if less) bounds the bytes the stack holds, looked at every
`PIECE` seconds; a search whose stack holds more stops with an unknown answer
(`"stopped": "memory"`) rather than growing on a board it cannot finish.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from cpflow.board.grid import Node, Puzzle, Solution
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce.rules import Contradiction, Partial
from cpflow.deduce.search import start
from cpflow.engines import memory
from cpflow.engines.base import Answer
from cpflow.results import Status

if TYPE_CHECKING:
    from cpflow.deduce.search import Searching

ENDLESS = 1 << 62  # branches: the search's budget is the deadline
PIECE = 0.25  # seconds the search runs before the room its stack holds is looked at again
ROOM = 1 << 30  # bytes the stack may hold (a 100x100 board of 909 colours: 650 KB a frame in C)


@dataclass
class Started:
    """The engine's model: the search with its start settled, or None when settling proved there is
    no solution (`refuted`: the rule that found no way on)."""

    puzzle: Puzzle
    search: Searching | None
    refuted: str = ""


def available(in_c: bool = True) -> bool:
    """Nothing to install: the search is cpflow's own, in C or in Python."""
    return True


def build(puzzle: Puzzle, deadline: Deadline, root: Partial | None = None, in_c: bool = True) -> Started:
    """The search with its start settled (in C when `in_c` and the core takes the board); OutOfTime
    when the deadline passes first. `root` is not needed: the search settles its own start."""
    try:
        return Started(puzzle, start(puzzle, deadline, in_c))
    except Contradiction as refuted:
        return Started(puzzle, None, refuted.rule)


def search(
    model: Started, deadline: Deadline, *, exclude: Sequence[Solution] = (), workers: int | None = None
) -> Answer:
    """The search's next solution that is none of `exclude`: SOLVED with it, UNSOLVABLE when the
    search ends without one, UNKNOWN when the deadline passes first."""
    found, status, stats = _run(model, deadline, 1, exclude)
    if found:
        return Answer(Status.SOLVED, found[0], stats)
    return Answer(Status.UNSOLVABLE if status is Status.SOLVED else Status.UNKNOWN, None, stats)  # SOLVED: it ended


def count(
    model: Started, limit: int, deadline: Deadline, *, workers: int | None = None
) -> tuple[list[Solution], Status]:
    """Up to `limit` solutions, each once; SOLVED when the search ended (that is all of them), else
    UNKNOWN (the limit or the deadline came first: those found so far)."""
    found, status, _ = _run(model, deadline, limit)
    return found, status


def _run(
    model: Started, deadline: Deadline, limit: int, exclude: Sequence[Solution] = ()
) -> tuple[list[Solution], Status, dict]:
    """Up to `limit` solutions that are none of `exclude`, with SOLVED when the search ended (none
    left), UNKNOWN when the limit, the deadline or the room stopped it first, and the search's figures."""
    search = model.search
    if search is None:
        return [], Status.SOLVED, {"refuted": model.refuted, "branches": 0}
    found: list[Solution] = []
    room = _room()
    stopped = None
    while stopped is None:
        try:  # a piece at a time: between pieces, the room its stack holds is looked at
            for solution in _new(search.solutions(ENDLESS, deadline.within(PIECE)), exclude):
                found.append(solution)
                if len(found) >= limit:
                    return found, Status.UNKNOWN, _figures(search)
            return found, Status.SOLVED, _figures(search)
        except OutOfTime:
            if deadline.left() == 0:
                stopped = "searching"
            elif search.held > room:
                stopped = "memory"
    return found, Status.UNKNOWN, {**_figures(search), "stopped": stopped}


def _room() -> int:
    """The bytes the search's stack may hold: ROOM, or half the free memory when that is less."""
    free = memory.free_memory()
    return ROOM if free is None else min(ROOM, free // 2)


def _figures(search: Searching) -> dict:
    return {"in_c": search.in_thread, "branches": search.branches, "held": search.held}


def _new(solutions: Iterator[Solution], exclude: Sequence[Solution]) -> Iterator[Solution]:
    """The solutions that are none of `exclude`: that take other steps (where paths may touch
    themselves, two solutions can colour every cell alike and still differ)."""
    excluded = {_steps(other) for other in exclude}
    return (s for s in solutions if _steps(s) not in excluded)


def _steps(solution: Solution) -> frozenset[frozenset[Node]]:
    """The steps of a solution's paths, each an unordered pair of nodes."""
    return frozenset(frozenset(pair) for path in solution.paths.values() for pair in pairwise(path))

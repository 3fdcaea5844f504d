"""The base of every engine: its model built under the time limit, then its search, timed as one.

An engine module supplies only its model (`build`) and its search (`search`, and `count`
where it counts in one search): cpflow.engines.catalog.Backend. Here, and nowhere else,
the time limit becomes a Deadline, building is timed apart from searching, a deadline
that passes while the model is built (OutOfTime) becomes an UNKNOWN answer with
`"stopped": "building"` (`stopped`, which a search that finds no time left returns too),
and the result carries the engine's name in the catalog. The options an engine's `build` names are the model's; the
others go to its search (`workers`, `exclude`, a solver's parameters).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cpflow.board.grid import Puzzle, Solution
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce.rules import Partial
from cpflow.results import SolveResult, Status


@dataclass(frozen=True)
class Answer:
    """What an engine's search found: a solution (not yet verified) or why there is none, and its figures."""

    status: Status
    solution: Solution | None = None
    stats: dict = field(default_factory=dict)


def stopped() -> Answer:
    """The answer when the deadline passed while the model was built (or as it was done)."""
    return Answer(Status.UNKNOWN, None, {"stopped": "building"})


def solve(
    backend,
    puzzle: Puzzle,
    *,
    name: str,
    root: Partial | None = None,
    time_limit: float | None = None,
    exclude: Sequence[Solution] = (),
    workers: int | None = None,
    **options,
) -> SolveResult:
    """The engine's model of the puzzle (on `root` when given) searched for a solution that is none of
    `exclude`, all within `time_limit`; the result under the catalog's `name`, not yet verified."""
    began = time.perf_counter()
    deadline = Deadline(time_limit, began)
    model_options, search_options = split(backend.build, options)
    try:
        model = backend.build(puzzle, deadline=deadline, root=root, **model_options)
    except OutOfTime:
        seconds = time.perf_counter() - began
        return SolveResult(Status.UNKNOWN, None, seconds, seconds, name, stopped().stats)
    built = time.perf_counter()
    answer = backend.search(model, deadline, exclude=exclude, workers=workers, **search_options)
    return SolveResult(answer.status, answer.solution, time.perf_counter() - began, built - began, name, answer.stats)


def count(
    backend, puzzle: Puzzle, limit: int, *, root: Partial | None = None, time_limit: float | None = None, **options
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions by the engine's `count` in one search, and SOLVED when that is
    all of them (UNKNOWN when the limit or the time limit came first); not yet verified."""
    deadline = Deadline(time_limit)
    model_options, search_options = split(backend.build, options)
    try:
        model = backend.build(puzzle, deadline=deadline, root=root, **model_options)
    except OutOfTime:
        return [], Status.UNKNOWN
    return backend.count(model, limit, deadline, **search_options)


def split(build: Callable, options: dict) -> tuple[dict, dict]:
    """The options `build` names (the model's), and the others (the search's)."""
    named = _model_options(build)
    return {k: v for k, v in options.items() if k in named}, {k: v for k, v in options.items() if k not in named}


@functools.cache
def _model_options(build: Callable) -> frozenset[str]:
    return frozenset(inspect.signature(build).parameters) - {"puzzle", "deadline", "root"}

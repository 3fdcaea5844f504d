"""The pipeline every engine runs in: the front end, the race, the engine, and the verifier.

Workflows call `solve`, `count` and `export` here, never an engine's module: an engine
the catalog (cpflow.engines.catalog) does not know, or that is not installed, or that does
not support the puzzle, is refused here in one line; a model that would not fit in free
memory is refused before it is built (cpflow.engines.memory); the front end's forced moves
and short search run first when the entry declares them (cpflow.engines.front), its search
going on beside the engine when the entry races (cpflow.engines.race); the engine builds
and searches under the base (cpflow.engines.base); and every solution passes the verifier
before anyone sees it. An engine that does not count in one search is counted here, by
searching again and again, excluding each answer.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from cpflow import outputs
from cpflow.board.grid import Puzzle, Solution
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce.rules import Partial
from cpflow.engines import base, front, memory
from cpflow.engines.catalog import DEFAULT, ENGINES, Engine, entry_of
from cpflow.engines.race import Rival, beside
from cpflow.errors import CpflowError, EngineUnsupported, InvalidSolution
from cpflow.results import SolveResult, Status


def solve(puzzle: Puzzle, engine: str = DEFAULT, *, forced: bool | None = None, **options) -> SolveResult:
    """Solve with the named engine: the front end first when the entry declares it (or `forced`
    says so), then the engine's model and search with the other options (time_limit, workers,
    exclude, ...).

    The answer has passed the verifier: an invalid solution raises InvalidSolution. A model
    that would not fit in free memory raises ModelTooLarge before it is built.
    """
    entry = _ready(engine, puzzle, options)
    began = time.perf_counter()
    deadline = Deadline(options.pop("time_limit", None), began)
    try:
        settled = front.settle_first(puzzle, options.get("exclude", ()), deadline) if entry.fronted(forced) else None
    except OutOfTime:  # the front end is part of building
        spent = time.perf_counter() - began
        settled = SolveResult(Status.UNKNOWN, None, spent, spent, engine, {"stopped": "building"})
    if isinstance(settled, SolveResult):
        result = settled
    else:
        root = settled.root if settled else None
        search = settled.search if settled and entry.races else None
        rival = Rival(search, options.get("exclude", ()), deadline) if search else None
        with beside(rival):
            result = _engine_solve(entry, puzzle, root, deadline, options)
        if rival and rival.done.is_set() and result.status is Status.UNKNOWN:  # called off by the search's answer
            result = rival.result(began)
        elif settled:
            result = _after_front(result, time.perf_counter() - began - result.seconds)
    if result.solution is not None:
        _verified(puzzle, result.solution, engine)
    return replace(result, engine=engine)


def _engine_solve(
    entry: Engine, puzzle: Puzzle, root: Partial | None, deadline: Deadline, options: dict
) -> SolveResult:
    """The engine's own solve, by the deadline, under its catalog name."""
    return base.solve(
        entry.backend(),
        puzzle,
        name=entry.name,
        root=root,
        time_limit=deadline.left(),
        **entry.options_for(puzzle),
        **options,
    )


def _after_front(result: SolveResult, front_seconds: float) -> SolveResult:
    """The engine's result with the front end's seconds counted in (as building)."""
    return replace(
        result,
        seconds=result.seconds + front_seconds,
        build_seconds=result.build_seconds + front_seconds,
        stats={**result.stats, "front_seconds": round(front_seconds, 4)},
    )


def count(
    puzzle: Puzzle,
    limit: int,
    engine: str = DEFAULT,
    *,
    time_limit: float | None = None,
    forced: bool | None = None,
    **options,
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, each verified, and SOLVED if that is all of them: by the
    front end when the entry declares it (or `forced` says so) and its search finishes, else by
    the engine on what it settled.

    An engine that does not count in one search (`Engine.counts`) is asked again and again,
    excluding each answer.
    """
    entry = _ready(engine, puzzle, options)
    deadline = Deadline(time_limit)
    try:
        settled = front.count_first(puzzle, limit, deadline) if entry.fronted(forced) else None
    except OutOfTime:
        settled = [], Status.UNKNOWN
    if isinstance(settled, tuple):
        found, status = settled
    else:
        root = settled.root if settled else None
        if entry.counts:
            found, status = base.count(
                entry.backend(),
                puzzle,
                limit,
                root=root,
                time_limit=deadline.left(),
                **entry.options_for(puzzle),
                **options,
            )
        else:
            found, status = _count_by_exclusion(entry, puzzle, limit, root, deadline, options)
    for solution in found:
        _verified(puzzle, solution, engine)
    return found, status


def _count_by_exclusion(
    entry: Engine, puzzle: Puzzle, limit: int, root: Partial | None, deadline: Deadline, options: dict
) -> tuple[list[Solution], Status]:
    """Solutions one solve at a time, each excluding those found before."""
    found: list[Solution] = []
    while len(found) < limit:
        result = _engine_solve(entry, puzzle, root, deadline, {**options, "exclude": found})
        if result.solution is None:
            return found, Status.SOLVED if result.status is Status.UNSOLVABLE else Status.UNKNOWN
        found.append(result.solution)
    return found, Status.UNKNOWN


def export(puzzle: Puzzle, path: str | Path, engine: str = DEFAULT) -> None:
    """Write the puzzle's model, as the named engine builds it, for another solver, in the
    format the suffix names (one of the engine's `exports`, else CpflowError)."""
    entry = entry_of(engine)
    name = Path(path).name.lower()
    if not name.endswith(entry.exports):
        known = [(suffix, other) for other, e in ENGINES.items() for suffix in e.exports if name.endswith(suffix)]
        instead = f"; {known[0][0]} files come from engine {' or '.join(o for _, o in known)}" if known else ""
        raise CpflowError(f"engine {engine} writes {', '.join(entry.exports)} files{instead}")
    memory.check_fits(entry, puzzle)
    with outputs.together() as group, outputs.said_of(path):  # whole or not at all; else OutputError
        entry.backend().export(puzzle, group.path(path), **entry.options_for(puzzle))


def _ready(engine: str, puzzle: Puzzle, options: dict) -> Engine:
    """The entry, once the engine is installed, supports the puzzle and the options, and its model fits."""
    entry = entry_of(engine)
    entry.backend()
    entry.check_supports(puzzle)
    if (options.get("workers") or 1) > 1 and not entry.workers:
        raise EngineUnsupported(f"engine {engine} runs one worker; leave out --workers")
    memory.check_fits(entry, puzzle)
    return entry


def _verified(puzzle: Puzzle, solution: Solution, name: str) -> None:
    found = violations(puzzle, solution)
    if found:
        raise InvalidSolution(name, found)

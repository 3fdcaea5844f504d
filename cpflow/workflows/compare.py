"""Running several engines over the same puzzles, for side-by-side timings; never prints.

A contender is an engine of the catalog, by its name (`cpsat`, `ilp-highs`, ...).
`compare` yields one `Run` per (puzzle, contender), each solution verified by the
pipeline; its attempts (one per repeat, an `Attempt` each) run as one batch, here or
on a cluster. `judge` says whether each run's status is right, given what every
contender found.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

from cpflow.board.grid import Puzzle
from cpflow.engines import catalog
from cpflow.engines.pipeline import solve
from cpflow.results import SolveResult, Status
from cpflow.workflows.batch import Failed, Where, each
from cpflow.workflows.inputs import Entry

WARM_UP = Puzzle.build(2, 2, {"R": ((0, 0), (0, 1)), "B": ((1, 0), (1, 1))}, name="warm-up")


@dataclass(frozen=True)
class Run:
    """One contender on one puzzle: the median seconds over its repeats, and the status."""

    file: str
    index: int
    puzzle: str
    width: int
    height: int
    colours: int
    contender: str
    status: str
    build_seconds: float
    solve_seconds: float
    seconds: float
    repeats: int
    correct: bool = True  # False when unknown, or when unsolvable but another contender solved it

    def row(self) -> dict:
        """The run as a flat record, in the order of FIELDS."""
        return asdict(self)


FIELDS = tuple(field.name for field in fields(Run))


def check(names: Sequence[str]) -> None:
    """Raise EngineUnavailable unless every named engine is known and installed."""
    for name in names:
        catalog.backend(name)


@dataclass(frozen=True)
class Attempt:
    """One solve of a comparison: a contender on a puzzle, repeat number `repeat` (from 1); one task of a batch."""

    puzzle: Puzzle
    contender: str
    time_limit: float | None
    repeat: int
    forced: bool | None = None  # the front end first: as the engine's entry declares (None), or not (False)

    @property
    def name(self) -> str:
        return self.puzzle.name


def compare(
    entries: Sequence[Entry],
    names: Sequence[str],
    time_limit: float | None = None,
    repeat: int = 1,
    where: Where | int = 1,
    alone: bool = False,
) -> Iterator[Run | Failed]:
    """Each contender on each puzzle, `repeat` times each, statuses judged per puzzle; the runs of a
    puzzle come once all its attempts are in, puzzle by puzzle. A puzzle whose attempts were refused
    (a board too large for free memory) gives one Failed instead of its runs. `alone`: each engine's
    model without the front end's forced moves (the formulations compared as they are)."""
    check(names)
    forced = False if alone else None
    attempts = [
        Attempt(e.puzzle, name, time_limit, k, forced) for e in entries for name in names for k in range(1, repeat + 1)
    ]
    solved = each(attempt, attempts, where, setup=partial(warm_up, tuple(names)))
    for entry in entries:
        results = {name: [next(solved) for _ in range(repeat)] for name in names}
        refused = [r for rs in results.values() for r in rs if isinstance(r, Failed)]
        if refused:
            yield refused[0]
        else:
            runs = {name: [r for r in rs if not isinstance(r, Failed)] for name, rs in results.items()}
            yield from judge([_run(entry, name, runs[name]) for name in names])


def warm_up(names: Sequence[str]) -> None:
    """The first solve of a process pays one-off set-up costs: not on a real puzzle."""
    for name in names:
        catalog.warm(name)
        solve(WARM_UP, name)


def attempt(one: Attempt) -> SolveResult:
    """One attempt's solve (verified by the pipeline): a task of a comparison's batch."""
    return solve(one.puzzle, one.contender, time_limit=one.time_limit, forced=one.forced)


def _run(entry: Entry, name: str, results: list[SolveResult]) -> Run:
    status = _status(results)
    puzzle = entry.puzzle
    return Run(
        file=entry.source,
        index=entry.index,
        puzzle=Path(entry.source).stem + puzzle.name[len(entry.source) :],  # e.g. regular_5x5_01, or set#2
        width=puzzle.width,
        height=puzzle.height,
        colours=len(puzzle.colours),
        contender=name,
        status=status.value,
        build_seconds=round(statistics.median(r.build_seconds for r in results), 6),
        solve_seconds=round(statistics.median(r.solve_seconds for r in results), 6),
        seconds=round(statistics.median(r.seconds for r in results), 6),
        repeats=len(results),
    )


def _status(results: list[SolveResult]) -> Status:
    """The status of repeated runs: unknown if any repeat ran out of time."""
    statuses = {r.status for r in results}
    return statuses.pop() if len(statuses) == 1 else Status.UNKNOWN


def judge(runs: list[Run]) -> list[Run]:
    """The runs on one puzzle, each marked correct or not.

    A solved run is correct (its solution passed the verifier); an unsolvable one is
    correct unless another contender found a solution; an unknown one is not.
    """
    solved = any(run.status == Status.SOLVED for run in runs)
    return [
        replace(run, correct=run.status == Status.SOLVED or (run.status == Status.UNSOLVABLE and not solved))
        for run in runs
    ]


def summary(runs: Sequence[Run], names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per contender: total, median and worst seconds (with the worst puzzle), and runs solved or proven."""
    found = {}
    for name in names:
        mine = [run for run in runs if run.contender == name]
        worst = max(mine, key=lambda run: run.seconds)
        found[name] = {
            "total": sum(run.seconds for run in mine),
            "build": sum(run.build_seconds for run in mine),
            "median": statistics.median(run.seconds for run in mine),
            "worst": worst.seconds,
            "worst_puzzle": worst.puzzle,
            "correct": sum(run.correct for run in mine),
            "runs": len(mine),
        }
    return found

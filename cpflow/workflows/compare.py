"""Running several engines over the same puzzles, for side-by-side timings; never prints.

A contender is an engine of the registry, by its name (`cpsat`, `ilp-highs`, ...).
`compare` yields one `Run` per (puzzle, contender), each solution verified by the
registry; `judge` says whether each run's status is right, given what every contender
found.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from cpflow.board.grid import Puzzle
from cpflow.engines import registry
from cpflow.engines.registry import solve
from cpflow.engines.result import SolveResult, Status
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
        registry.backend(name)


def compare(
    entries: Sequence[Entry], names: Sequence[str], time_limit: float | None = None, repeat: int = 1
) -> Iterator[Run]:
    """Each contender on each puzzle, puzzle by puzzle, `repeat` times each, statuses judged per puzzle."""
    check(names)
    for name in names:  # the first solve of a process pays one-off set-up costs: not on a real puzzle
        solve(WARM_UP, name)
    for entry in entries:
        runs = [_run(entry, name, time_limit, repeat) for name in names]
        yield from judge(runs)


def _run(entry: Entry, name: str, time_limit: float | None, repeat: int) -> Run:
    results = [solve(entry.puzzle, name, time_limit=time_limit) for _ in range(repeat)]
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
        repeats=repeat,
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


def summary(runs: Sequence[Run], names: Sequence[str]) -> dict[str, dict[str, float | str]]:
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

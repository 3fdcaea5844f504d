"""The CP-SAT engine: one of the formulations, solved by CP-SAT (cpflow.engines.cpsat_solver).

The model is built on `root`, what the front end settled (cpflow.engines.front: fixed
edges, colour domains), when the registry ran it first (the `cpsat` entry), else on
pruning alone.

Formulations (`FORMULATIONS`, see models/):
- label: one circuit through every cell, an integer colour label per cell (the default);
- circuit: the reference model, one circuit per colour.

Each `build(puzzle)` returns `(model, v)` where `v` answers `extract(solver)`,
`same_as(solution)` and `reason` (why pruning alone proves the puzzle unsolvable).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import time
from collections.abc import Sequence
from pathlib import Path

from cpflow.board.grid import Puzzle, Solution
from cpflow.clock import NEVER, Deadline, OutOfTime
from cpflow.deduce.rules import Partial
from cpflow.errors import CpflowError
from cpflow.results import SolveResult, Status

FORMULATIONS = {"label": "cpflow.engines.label", "circuit": "cpflow.engines.circuit"}  # model -> module
DEFAULT = "label"


def available(model: str = DEFAULT) -> bool:
    """Every formulation is available where ortools is installed."""
    return model in FORMULATIONS and importlib.util.find_spec("ortools") is not None


def build(puzzle: Puzzle, formulation: str = DEFAULT, deadline: Deadline = NEVER, root: Partial | None = None):
    """The model of a puzzle in the named formulation (on the front end's settled `root`, if
    given), and its variables container; OutOfTime when the deadline passes first."""
    if formulation not in FORMULATIONS:
        raise CpflowError(f"unknown model {formulation!r}; choose from {', '.join(FORMULATIONS)}")
    from cpflow.engines.cpsat_solver import PARAMS

    model, v = importlib.import_module(FORMULATIONS[formulation]).build(puzzle, deadline, root)
    v.params = PARAMS[formulation]  # the solver parameters this formulation was tuned with
    return model, v


def solve(
    puzzle: Puzzle,
    *,
    model: str = DEFAULT,
    root: Partial | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    exclude: Sequence[Solution] = (),
    **params,
) -> SolveResult:
    """Solve, finding none of the `exclude`d solutions; `params` are extra CpSolver parameters
    (e.g. random_seed=1)."""
    began = time.perf_counter()
    deadline = Deadline(time_limit, began)
    try:
        cp, v = build(puzzle, model, deadline, root)
    except OutOfTime:
        return _out_of_time(began)
    for solution in exclude:
        cp.add_bool_or([~lit for lit in v.same_as(solution)])
    from cpflow.engines.cpsat_solver import solve_model

    return solve_model(puzzle, cp, v, began, workers=workers, **params)


def count(
    puzzle: Puzzle,
    limit: int,
    *,
    model: str = DEFAULT,
    root: Partial | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    **params,
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, and whether the search finished.

    The status is SOLVED when every solution was found (the list is complete),
    UNKNOWN when the limit or the time limit stopped the search first. CP-SAT
    enumerates solutions on one worker only, so `workers` is not used.
    """
    deadline = Deadline(time_limit, time.perf_counter())
    try:
        cp, v = build(puzzle, model, deadline, root)
    except OutOfTime:
        return [], Status.UNKNOWN
    from cpflow.engines.cpsat_solver import count_model

    return count_model(cp, v, limit, v.deadline, **params)


def export(puzzle: Puzzle, path: str | Path, *, model: str = DEFAULT) -> None:
    """Write the puzzle's model as a CP-SAT proto: text when the name ends in `txt`, else binary.
    The whole model is written: the front end's deductions are left to the solver that reads it."""
    cp, _ = build(puzzle, model)
    if not cp.export_to_file(str(path)):
        raise OSError(errno.EIO, "CP-SAT could not write the model", str(path))


def _out_of_time(began: float) -> SolveResult:
    from cpflow.engines.cpsat_solver import out_of_time

    return out_of_time(began)

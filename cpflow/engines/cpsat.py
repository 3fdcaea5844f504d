"""The CP-SAT engine: one of the formulations, solved by CP-SAT (cpflow.engines.cpsat_solver).

The model is built on `root`, what the front end settled (cpflow.engines.front: fixed
edges, colour domains), when the pipeline ran it first (the `cpsat` entry), else on
pruning alone.

Formulations (`FORMULATIONS`, see models/):
- label: one circuit through every cell, an integer colour label per cell (the default);
- circuit: the reference model, one circuit per colour.

Each `build(puzzle)` returns `(model, v)` where `v` answers `extract(solver)`,
`same_as(solution)` and `reason` (why pruning alone proves the puzzle unsolvable).
Timing, the deadline and the engine's name are the base's (cpflow.engines.base).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from cpflow.board.grid import Puzzle, Solution
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Partial
from cpflow.engines.base import Answer
from cpflow.errors import CpflowError
from cpflow.results import Status

FORMULATIONS = {"label": "cpflow.engines.label", "circuit": "cpflow.engines.circuit"}  # model -> module
DEFAULT = "label"


def available(model: str = DEFAULT) -> bool:
    """Every formulation is available where ortools is installed."""
    return model in FORMULATIONS and importlib.util.find_spec("ortools") is not None


def build(puzzle: Puzzle, deadline: Deadline = NEVER, root: Partial | None = None, *, model: str = DEFAULT):
    """The model of a puzzle in the named formulation (on the front end's settled `root`, if
    given), and its variables container; OutOfTime when the deadline passes first."""
    if model not in FORMULATIONS:
        raise CpflowError(f"unknown model {model!r}; choose from {', '.join(FORMULATIONS)}")
    from cpflow.engines.cpsat_solver import PARAMS

    cp, v = importlib.import_module(FORMULATIONS[model]).build(puzzle, deadline, root)
    v.params = PARAMS[model]  # the solver parameters this formulation was tuned with
    return cp, v


def search(
    built, deadline: Deadline, *, exclude: Sequence[Solution] = (), workers: int | None = None, **params
) -> Answer:
    """A solution of the built model that is none of `exclude`; `params` are extra CpSolver parameters
    (e.g. random_seed=1). The search keeps the deadline the model was built under (`v.deadline`)."""
    cp, v = built
    for solution in exclude:
        cp.add_bool_or([~lit for lit in v.same_as(solution)])
    from cpflow.engines.cpsat_solver import solve_model

    return solve_model(cp, v, workers=workers, **params)


def count(
    built, limit: int, deadline: Deadline, *, workers: int | None = None, **params
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, and whether the search finished.

    The status is SOLVED when every solution was found (the list is complete),
    UNKNOWN when the limit or the time limit stopped the search first. CP-SAT
    enumerates solutions on one worker only, so `workers` is not used.
    """
    from cpflow.engines.cpsat_solver import count_model

    cp, v = built
    return count_model(cp, v, limit, v.deadline, **params)


def export(puzzle: Puzzle, path: str | Path, *, model: str = DEFAULT) -> None:
    """Write the puzzle's model as a CP-SAT proto: text when the name ends in `txt`, else binary.
    The whole model is written: the front end's deductions are left to the solver that reads it."""
    cp, _ = build(puzzle, model=model)
    if not cp.export_to_file(str(path)):
        raise OSError(errno.EIO, "CP-SAT could not write the model", str(path))

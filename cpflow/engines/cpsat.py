"""The CP-SAT engine: builds one of the formulations, solves it, returns the result.

Formulations (`FORMULATIONS`, see models/):
- label: one circuit through every cell, an integer colour label per cell (the default);
- circuit: the reference model, one circuit per colour.

Each `build(puzzle)` returns `(model, v)` where `v` answers `extract(solver)`,
`same_as(solution)` and `reason` (why pruning alone proves the puzzle unsolvable).
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, wait
from pathlib import Path

from ortools.sat.python import cp_model

from cpflow.board.errors import CpflowError
from cpflow.board.grid import Puzzle, Solution
from cpflow.engines.deadline import NEVER, Deadline, OutOfTime
from cpflow.engines.result import SolveResult, Status

FORMULATIONS = {"label": "cpflow.engines.label", "circuit": "cpflow.engines.circuit"}  # model -> module
DEFAULT = "label"
STATUS = {
    cp_model.OPTIMAL: Status.SOLVED,
    cp_model.FEASIBLE: Status.SOLVED,
    cp_model.INFEASIBLE: Status.UNSOLVABLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
}
# Measured on the classic set (bench/classic.py, models/label.md): for the tour models,
# presolve, probing, symmetry search, inprocessing and LP relaxations cost more than
# they save, and a second worker slows the first down. The reference circuit model
# keeps CP-SAT's defaults, under which it was measured.
TUNED = {
    "num_workers": 1,
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
    "use_sat_inprocessing": False,
    "linearization_level": 0,
}
PARAMS = {"label": TUNED, "circuit": {}}
TICK = 0.02  # seconds between looks at the deadline and for Ctrl-C while CP-SAT searches
# CP-SAT's default portfolio lost to one tuned worker on every board measured; with
# more workers asked for, they run these single-worker strategies side by side.
TUNED_PORTFOLIO = ("no_lp", "quick_restart_no_lp")


def available(model: str = DEFAULT) -> bool:
    """CP-SAT comes with ortools, which this module imports: every formulation is available."""
    return model in FORMULATIONS


def build(puzzle: Puzzle, formulation: str = DEFAULT, deadline: Deadline = NEVER):
    """The model of a puzzle in the named formulation, and its variables container; OutOfTime
    when the deadline passes first."""
    if formulation not in FORMULATIONS:
        raise CpflowError(f"unknown model {formulation!r}; choose from {', '.join(FORMULATIONS)}")
    model, v = importlib.import_module(FORMULATIONS[formulation]).build(puzzle, deadline)
    v.params = PARAMS[formulation]  # the solver parameters this formulation was tuned with
    return model, v


def solve(
    puzzle: Puzzle,
    *,
    model: str = DEFAULT,
    time_limit: float | None = None,
    workers: int | None = None,
    exclude: Sequence[Solution] = (),
    **params,
) -> SolveResult:
    """Solve with CP-SAT, finding none of the `exclude`d solutions; `params` are extra
    CpSolver parameters (e.g. random_seed=1)."""
    began = time.perf_counter()
    try:
        cp, v = build(puzzle, model, Deadline(time_limit, began))
    except OutOfTime:
        return _out_of_time(began)
    for solution in exclude:
        cp.add_bool_or([~lit for lit in v.same_as(solution)])
    return solve_model(puzzle, cp, v, began, time_limit=time_limit, workers=workers, **params)


def export(puzzle: Puzzle, path: str | Path, *, model: str = DEFAULT) -> None:
    """Write the puzzle's model as a CP-SAT proto: text when the name ends in `txt`, else binary."""
    cp, _ = build(puzzle, model)
    if not cp.export_to_file(str(path)):
        raise CpflowError(f"CP-SAT could not write {path}")


def count(
    puzzle: Puzzle,
    limit: int,
    *,
    model: str = DEFAULT,
    time_limit: float | None = None,
    workers: int | None = None,
    **params,
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, and whether the search finished.

    The status is SOLVED when every solution was found (the list is complete),
    UNKNOWN when the limit or the time limit stopped the search first. CP-SAT
    enumerates solutions on one worker only, so `workers` is not used.
    """
    began = time.perf_counter()
    deadline = Deadline(time_limit, began)
    try:
        cp, v = build(puzzle, model, deadline)
    except OutOfTime:
        return [], Status.UNKNOWN
    if deadline.left() == 0:
        return [], Status.UNKNOWN
    solver = _solver(deadline.left(), 1, {**v.params, **params, "enumerate_all_solutions": True})
    collector = _Collector(v, limit)
    native = _run(solver, cp, deadline, collector)
    finished = native in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not collector.stopped
    return collector.solutions, Status.SOLVED if finished else Status.UNKNOWN


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps each new solution, and stops the search at the limit."""

    def __init__(self, v, limit: int):
        super().__init__()
        self.v, self.limit = v, limit
        self.solutions: list[Solution] = []
        self.seen: set = set()
        self.stopped = False

    def on_solution_callback(self) -> None:
        solution = self.v.extract(self)
        key = frozenset(solution.paths.items())
        if key in self.seen:
            return  # auxiliary variables may give one board several assignments
        self.seen.add(key)
        self.solutions.append(solution)
        if len(self.solutions) >= self.limit:
            self.stopped = True
            self.stop_search()


def solve_model(
    puzzle: Puzzle,
    model: cp_model.CpModel,
    v,
    began: float,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    **params,
) -> SolveResult:
    """Solve a built model (perhaps with constraints added since) into a result.

    `began` is the perf_counter reading when building started, so that `seconds`
    covers building and solving. `params` are CpSolver parameters, on top of the
    formulation's own (`PARAMS`).
    """
    built = time.perf_counter()
    left = Deadline(time_limit, began).left()
    if left == 0:  # building took it all: CP-SAT would still spend long loading a big model
        return _out_of_time(began)
    solver = _solver(left, workers, {**v.params, **params})
    if v.params is TUNED and solver.parameters.num_workers > 1:
        solver.parameters.merge_text_format(" ".join(f'subsolvers: "{name}"' for name in TUNED_PORTFOLIO))
    native = _run(solver, model, Deadline(time_limit, began))
    status = STATUS.get(native)
    if status is None:
        raise CpflowError(f"CP-SAT returned {native.name} on {puzzle.name}: {model.validate()}")
    solution = v.extract(solver) if status is Status.SOLVED else None
    stats = {"conflicts": solver.num_conflicts, "branches": solver.num_branches, "solver_seconds": solver.wall_time}
    if v.reason:
        stats["reason"] = v.reason
    return SolveResult(status, solution, time.perf_counter() - began, built - began, "cpsat", stats)


def _run(
    solver: cp_model.CpSolver, model: cp_model.CpModel, deadline: Deadline, callback=None
) -> cp_model.CpSolverStatus:
    """`solver.solve`, in a thread, so that Ctrl-C stops the search and raises KeyboardInterrupt,
    and the deadline holds even where CP-SAT's own clock has not started (loading a big model).

    Left to itself CP-SAT takes SIGINT for its own and returns UNKNOWN, as if out of time,
    and the caller would go on to the next puzzle. Here the main thread waits, where Python
    sees the interrupt; it stops the search, waits for the solver to let go, and re-raises.
    """
    answer: Future[cp_model.CpSolverStatus] = Future()

    def search() -> None:
        try:
            answer.set_result(solver.solve(model, callback))
        except BaseException as error:  # handed to the waiting thread
            answer.set_exception(error)

    threading.Thread(target=search, name="cp-sat", daemon=True).start()
    try:
        while not answer.done():
            wait([answer], timeout=TICK)
            if deadline.left() == 0:
                solver.stop_search()  # CP-SAT's limit counts from its own start; this one from ours
    except KeyboardInterrupt:
        solver.stop_search()
        wait([answer])
        raise
    return answer.result()


def _out_of_time(began: float) -> SolveResult:
    """The answer when the time limit passed before the search could start."""
    seconds = time.perf_counter() - began
    return SolveResult(Status.UNKNOWN, None, seconds, seconds, "cpsat", {"stopped": "building"})


def _solver(time_limit: float | None, workers: int | None, params: dict) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is the caller's; see _run
    for name, value in params.items():
        setattr(solver.parameters, name, value)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    if workers is not None:
        solver.parameters.num_workers = workers
    return solver

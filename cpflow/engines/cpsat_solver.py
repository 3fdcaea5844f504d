"""Running CP-SAT on a built model: parameters, the solving thread, statuses, counting.

Imported by cpflow.engines.cpsat only when a model is to be solved, so that a board the
front end answers never loads OR-Tools.
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait

from cpflow.board.grid import Solution
from cpflow.clock import Deadline
from cpflow.engines.base import Answer, stopped
from cpflow.engines.cp_model import cp_model
from cpflow.engines.race import spend
from cpflow.errors import SolverFailed
from cpflow.results import Status

STATUS = {
    cp_model.OPTIMAL: Status.SOLVED,
    cp_model.FEASIBLE: Status.SOLVED,
    cp_model.INFEASIBLE: Status.UNSOLVABLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
}
# Measured on the classic set (bench/classic.py, models/label.md): for the tour models,
# presolve, probing, symmetry search, inprocessing and LP relaxations cost more than
# they save, and a second worker slows the first down. The reference circuit model too
# is 3.6x faster so on the classic set than under CP-SAT's defaults (models/circuit.md).
TUNED = {
    "num_workers": 1,
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
    "use_sat_inprocessing": False,
    "linearization_level": 0,
    "search_branching": cp_model.PARTIAL_FIXED_SEARCH,  # the label model's search order first
}
PARAMS = {"label": TUNED, "circuit": TUNED}
TICK = 0.02  # seconds between looks at the deadline and for Ctrl-C while CP-SAT searches
# CP-SAT's default portfolio lost to one tuned worker on every board measured; with
# more workers asked for, they run these single-worker strategies side by side.
TUNED_PORTFOLIO = ("no_lp", "quick_restart_no_lp")


def count_model(model: cp_model.CpModel, v, limit: int, deadline: Deadline, **params) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions of a built model in one search, and SOLVED when that is
    all of them (UNKNOWN when the limit or the deadline came first)."""
    if deadline.left() == 0:
        return [], Status.UNKNOWN
    solver = _solver(deadline.left(), 1, {**v.params, **params, "enumerate_all_solutions": True})
    collector = _Collector(v, limit)
    native = _run(solver, model, deadline, collector)
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


def solve_model(model: cp_model.CpModel, v, *, workers: int | None = None, **params) -> Answer:
    """Solve a built model (perhaps with constraints added since) by the deadline it was built under
    (`v.deadline`). `params` are CpSolver parameters, on top of the formulation's own (`PARAMS`)."""
    left = v.deadline.left()
    if left == 0:  # building took it all (v.deadline may be sooner than the base's)
        return stopped()
    if workers and workers > 1 and hasattr(v, "order"):
        runs = [(_solver(left, 1, {**v.params, **params}), _ordered(model, v, k)) for k in range(workers)]
    else:
        runs = [(_solver(left, workers, {**v.params, **params}), model)]
        if v.params is TUNED and runs[0][0].parameters.num_workers > 1:
            runs[0][0].parameters.merge_text_format(" ".join(f'subsolvers: "{name}"' for name in TUNED_PORTFOLIO))
    solver, native = _race(runs, v.deadline)
    status = STATUS.get(native)
    if status is None:
        raise SolverFailed(f"CP-SAT returned {native.name} on {v.puzzle.name}: {model.validate()}")
    solution = v.extract(solver) if status is Status.SOLVED else None
    stats = {"conflicts": solver.num_conflicts, "branches": solver.num_branches, "solver_seconds": solver.wall_time}
    if v.reason:
        stats["reason"] = v.reason
    return Answer(status, solution, stats)


def run(model: cp_model.CpModel, deadline: Deadline, params: dict) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
    """CP-SAT on a model by the deadline, with these parameters: the solver (to read values) and its status."""
    solver = _solver(deadline.left(), None, params)
    return solver, _run(solver, model, deadline)


def _ordered(model: cp_model.CpModel, v, k: int) -> cp_model.CpModel:
    """The model deciding in its k-th search order (`v.order(k)`; the first is its own): a copy for k > 0."""
    if k == 0:
        return model
    copy = model.clone()
    copy.proto.search_strategy.clear()
    copy.add_decision_strategy(v.order(k), cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return copy


def _run(
    solver: cp_model.CpSolver, model: cp_model.CpModel, deadline: Deadline, callback=None
) -> cp_model.CpSolverStatus:
    """`solver.solve` on the model, as `_race` runs it."""
    return _race([(solver, model)], deadline, callback)[1]


def _race(
    runs: list[tuple[cp_model.CpSolver, cp_model.CpModel]], deadline: Deadline, callback=None
) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
    """Each solver on its model, in threads side by side; the first to decide wins and the others
    are stopped. Ctrl-C stops them all and raises KeyboardInterrupt, and the deadline holds even
    where CP-SAT's own clock has not started (loading a big model).

    Left to itself CP-SAT takes SIGINT for its own and returns UNKNOWN, as if out of time,
    and the caller would go on to the next puzzle. Here the main thread waits, where Python
    sees the interrupt; it stops the search, waits for the solvers to let go, and re-raises.
    """
    answers: list[Future[cp_model.CpSolverStatus]] = [Future() for _ in runs]

    def search(solver: cp_model.CpSolver, model: cp_model.CpModel, answer: Future) -> None:
        try:
            answer.set_result(solver.solve(model, callback))
        except BaseException as error:  # handed to the waiting thread
            answer.set_exception(error)

    for (solver, model), answer in zip(runs, answers, strict=True):
        threading.Thread(target=search, args=(solver, model, answer), name="cp-sat", daemon=True).start()

    def stop_all() -> None:
        for solver, _ in runs:
            solver.stop_search()
        wait(answers)

    try:
        while True:
            if not spend(TICK):  # the front end's search beside this solve, if it races (cpflow.engines.race)
                wait(answers, timeout=TICK, return_when=FIRST_COMPLETED)
            for (solver, _), answer in zip(runs, answers, strict=True):
                if answer.done() and (answer.exception() or answer.result() != cp_model.UNKNOWN):
                    stop_all()
                    return solver, answer.result()
            if all(answer.done() for answer in answers):
                return runs[0][0], answers[0].result()
            if deadline.left() == 0:
                stop_all()  # CP-SAT's limit counts from its own start; this one from ours
    except KeyboardInterrupt:
        stop_all()
        raise


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

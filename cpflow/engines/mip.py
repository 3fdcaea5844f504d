"""Running a PuLP model on CBC or HiGHS so that the deadline holds in every phase and nothing is left behind.

PuLP alone keeps neither: it hands CBC its limit, which CBC looks at only after its
root node (6-9 s under a 1 s limit on the large boards), and it writes the model file and
fills HiGHS's model in Python, seconds on a big board, with no look at the time. Here:
- CBC: the model is written to a private scratch folder by `write_mps`, which looks at
  the deadline row by row, and CBC runs as a child process killed at the deadline
  (cpflow.engines.children), its files removed with the folder;
- HiGHS (in-process, through highspy): its model is filled in bulk, looking at the
  deadline row by row, and its solve is cancelled at the deadline.
Past the deadline while writing or filling, OutOfTime is raised; once a solver is
stopped, the model's status says 'not solved'.
"""

from __future__ import annotations

from pathlib import Path

# ortools before pulp, for HiGHS's sake: see cpflow.engines.ilp.
import ortools.sat.python.cp_model_helper  # noqa: F401, I001
import pulp
from pulp import mps_lp

from cpflow.engines import children
from cpflow.engines.deadline import Deadline

TICK = 0.02  # seconds between looks at the deadline while HiGHS runs
# HiGHS looks at a request to stop only between steps of its presolve and root node, which
# took up to 0.5 s on the large boards: it is asked to stop this much (at most a quarter of
# its time) before the deadline, so that it stops about as much after it at worst.
EARLY = 0.25


def solver(name: str, deadline: Deadline, folder: Path, workers: int | None, params: dict) -> pulp.LpSolver:
    """The PuLP solver object for one solve ("cbc" or "highs"), keeping `deadline`; CBC's files go
    in `folder`. `params` are the PuLP solver's own keyword arguments."""
    if name == "cbc":
        return CbcByDeadline(deadline, folder, threads=workers, **params)
    if workers is not None:  # HiGHS keeps the thread pool of its first solve; another size fails unless reset
        import highspy

        highspy.Highs.resetGlobalScheduler(True)
    return HighsByDeadline(deadline, threads=workers, **params)


class CbcByDeadline(pulp.PULP_CBC_CMD):
    """PuLP's bundled CBC, its model written under the deadline and the process killed at it."""

    def __init__(self, deadline: Deadline, folder: Path, **params):
        super().__init__(msg=False, **params)
        self.deadline, self.folder = deadline, folder

    def solve_CBC(self, lp: pulp.LpProblem, use_mps: bool = True) -> int:
        """PuLP's `solve_CBC` with an MPS file, but CBC stops at the deadline whatever it is doing."""
        model, answer = self.folder / "model.mps", self.folder / "model.sol"
        answer.unlink(missing_ok=True)  # a round's answer is never read for the next's
        names = write_mps(lp, model, self.deadline)
        if children.run(self.command(lp, model, answer), self.deadline) is None:
            lp.assignStatus(pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound)
            return lp.status
        if not answer.exists():
            raise pulp.PulpSolverError(f"CBC ({self.path}) ended without writing an answer")
        status, values, _, _, _, sol_status = self.readsol_MPS(str(answer), lp, *names)
        lp.assignVarsVals(values)
        lp.assignStatus(status, sol_status)
        return status

    def command(self, lp: pulp.LpProblem, model: Path, answer: Path) -> list[str]:
        """CBC's command line: its own time limit as well (it stops more tidily when it looks), and the options."""
        args, left = [self.path, str(model)], self.deadline.left()
        if lp.sense == pulp.LpMaximize:  # an MPS file does not say
            args.append("-max")
        if left is not None:
            args += ["-sec", f"{left:.3f}"]
        for flag in ("presolve", "cuts"):
            if self.optionsDict.get(flag) is not None:
                args += [f"-{flag}", "on" if self.optionsDict[flag] else "off"]
        for option in self.options + self.getOptions():
            args += f"-{option}".split()
        return [*args, "-solve", "-printingOptions", "all", "-solution", str(answer)]


def write_mps(prob: pulp.LpProblem, path: Path, deadline: Deadline) -> tuple[list, dict, dict]:
    """PuLP's `writeMPS(prob, path, rename=True)`, looking at the deadline row by row and column by
    column; returns the variables, and the file's names of variables and constraints, as it does."""
    rows, columns, objective = prob.normalisedNames()
    variables = prob._variables  # in the order normalisedNames numbered them
    cost = prob.objective or pulp.LpAffineExpression()
    coefs: dict[str, dict[str, float]] = {columns[v.name]: {} for v in variables}
    with path.open("w") as f:
        f.write(f"*SENSE:{pulp.LpSenses[prob.sense]}\nNAME          MODEL\nROWS\n N  {objective}\n")
        for key, constraint in prob._constraints.items():
            deadline.check()
            f.write(f" {pulp.constants.LpConstraintTypeToMps[constraint.sense]}  {rows[key]}\n")
            for var, value in constraint.items():
                coefs[columns[var.name]][rows[key]] = value
        f.write("COLUMNS\n")
        for var in variables:
            deadline.check()
            name = columns[var.name]
            f.writelines(mps_lp.writeMPSColumnLines(coefs[name], var, True, name, cost, objective))
        f.write("RHS\n")
        for key, constraint in prob._constraints.items():
            f.write(f"    RHS       {rows[key]:<8}  {-constraint.constant if constraint.constant else 0: .12e}\n")
        f.write("BOUNDS\n")
        for var in variables:
            f.writelines(mps_lp.writeMPSBoundLines(columns[var.name], var, True))
        f.write("ENDATA\n")
    return variables, columns, rows


class HighsByDeadline(pulp.HiGHS):
    """PuLP's HiGHS, its model filled under the deadline and its solve cancelled at it.

    (pulp.HiGHS has these methods only when highspy imports; the engine uses this class only then.)
    """

    def __init__(self, deadline: Deadline, **params):
        super().__init__(msg=False, **params)
        self.deadline = deadline

    def buildSolverModel(self, lp: pulp.LpProblem) -> None:
        """The model handed to HiGHS in two calls, columns then rows, as PuLP numbers them."""
        import highspy
        import numpy as np

        highs, inf = lp.solverModel, highspy.kHighsInf
        variables = lp.variables()
        sign = -1 if lp.sense == pulp.LpMaximize else 1
        for i, var in enumerate(variables):
            var.index = i
        lower = [-inf if v.lowBound is None else v.lowBound for v in variables]
        upper = [inf if v.upBound is None else v.upBound for v in variables]
        cost = [sign * lp.objective.get(v, 0.0) for v in variables]
        highs.addCols(len(variables), cost, lower, upper, 0, [], [], [])
        integer = [v.index for v in variables if v.cat == pulp.LpInteger and self.mip]
        kinds = np.full(len(integer), highspy.HighsVarType.kInteger.value, dtype=np.uint8)
        highs.changeColsIntegrality(len(integer), np.array(integer, dtype=np.int32), kinds)
        starts, indices, values, row_lower, row_upper = [], [], [], [], []
        for i, constraint in enumerate(lp._constraints.values()):
            self.deadline.check()
            constraint.index = i
            starts.append(len(indices))
            for var, value in constraint.items():
                if value:
                    indices.append(var.index)
                    values.append(value)
            row_lower.append(-inf if (lb := constraint.getLb()) is None else lb)
            row_upper.append(inf if (ub := constraint.getUb()) is None else ub)
        highs.addRows(len(starts), row_lower, row_upper, len(indices), starts, indices, values)

    def actualSolve(self, lp: pulp.LpProblem) -> int:
        """PuLP's, without marking every variable and constraint unmodified afterwards (0.1 s on a
        big board; only a re-solve, which PuLP's HiGHS does not offer, would look)."""
        self.createAndConfigureSolver(lp)
        self.buildSolverModel(lp)
        self.callSolver(lp)
        lp.assignStatus(*self.findSolutionValues(lp))
        return lp.status

    def findSolutionValues(self, lp: pulp.LpProblem) -> tuple[int, int]:
        """PuLP's status pair, and the values when there are any. PuLP reads a HiGHS stopped before
        it found a solution as a solution, all zeros: here it is 'not solved', and nothing is read."""
        import highspy

        highs = lp.solverModel
        stopped = highs.getModelStatus() in (highspy.HighsModelStatus.kInterrupt, highspy.HighsModelStatus.kTimeLimit)
        if stopped and highs.getInfo().primal_solution_status != highspy.kSolutionStatusFeasible:
            return pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound
        return super().findSolutionValues(lp)

    def callSolver(self, lp: pulp.LpProblem) -> None:
        """HiGHS in its own thread, cancelled a little before the deadline (EARLY) or on an
        interrupt (this thread is where Python sees Ctrl-C): its own limit is not looked at in
        every phase (measured: 14 s under a 5 s limit).

        Its feasibility jump heuristic looks at neither (0.4 s late on a 32x16 board), and
        it finds no puzzle's answer sooner (7 classic boards, 1.9 s with it, 1.7 s without):
        under a deadline it is left out.
        """
        highs, left = lp.solverModel, self.deadline.left()
        stop = self.deadline.earlier(0 if left is None else min(EARLY, left / 4))
        if left is not None:
            highs.setOptionValue("time_limit", max(stop.left(), 0.001))
            highs.setOptionValue("mip_heuristic_run_feasibility_jump", False)
        highs.HandleUserInterrupt = True
        running = highs.startSolve()
        try:
            while running.is_alive():
                running.join(TICK)
                if stop.left() == 0:
                    highs.cancelSolve()
        except BaseException:  # Ctrl-C, SIGTERM: HiGHS stops before the interrupt goes on
            highs.cancelSolve()
            running.join()
            raise

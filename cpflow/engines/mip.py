"""Running a PuLP model on CBC or HiGHS so that the deadline holds in every phase and nothing is left behind.

PuLP alone keeps neither: it hands CBC its limit, which CBC looks at only after its
root node (6-9 s under a 1 s limit on the large boards), it writes the model file and
fills HiGHS's model in Python, seconds on a big board, with no look at the time, and
HiGHS itself does not look at its limit inside some steps. Here each solver runs in a
child process killed at the deadline (cpflow.engines.children), on a model made looking
at the deadline row by row:
- CBC: the model is written by `write_mps` to a scratch folder of its own, removed with it;
- HiGHS: the model is made in memory (`highs_model`) and solved in a forked child.
Past the deadline while making the model, OutOfTime is raised; a solver killed at the
deadline leaves the model's status 'not solved'.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, cast

# ortools before pulp, for HiGHS's sake: see cpflow.engines.ilp.
import ortools.sat.python.cp_model_helper  # noqa: F401, I001
import pulp
from pulp import mps_lp

from cpflow.clock import Deadline
from cpflow.engines import children

# HiGHS's model statuses as PuLP's HiGHS maps them; any other is a stop (a limit, an interrupt),
# with a solution or without one (PuLP would read one of zeros).
HIGHS_STATUS = {
    "kOptimal": (pulp.LpStatusOptimal, pulp.LpSolutionOptimal),
    "kInfeasible": (pulp.LpStatusInfeasible, pulp.LpSolutionInfeasible),
    "kUnboundedOrInfeasible": (pulp.LpStatusInfeasible, pulp.LpSolutionInfeasible),
    "kUnbounded": (pulp.LpStatusUnbounded, pulp.LpSolutionUnbounded),
}
STOPPED_WITH = (pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible)
STOPPED_WITHOUT = (pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound)


def solver(name: str, deadline: Deadline, workers: int | None, params: dict) -> pulp.LpSolver:
    """The PuLP solver object for one solve ("cbc" or "highs"), keeping `deadline`; `params` are
    the PuLP solver's own keyword arguments."""
    if name == "cbc":
        return CbcByDeadline(deadline, threads=workers, **params)
    return HighsByDeadline(deadline, threads=workers, **params)


class CbcByDeadline(pulp.PULP_CBC_CMD):
    """PuLP's bundled CBC, its model written under the deadline and the process killed at it."""

    def __init__(self, deadline: Deadline, **params):
        super().__init__(msg=False, **params)
        self.deadline = deadline

    def solve_CBC(self, lp: pulp.LpProblem, use_mps: bool = True) -> int:
        """PuLP's `solve_CBC` with an MPS file in a scratch folder of its own, but CBC stops at the
        deadline whatever it is doing."""
        with children.scratch() as folder:
            model, answer = folder / "model.mps", folder / "model.sol"
            names = write_mps(lp, model, self.deadline)
            if children.run(self.command(lp, model, answer), self.deadline) is None:
                lp.assignStatus(*STOPPED_WITHOUT)
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
    variables, objective = columns(prob, deadline), "OBJ"
    rows = {key: f"C{i:07d}" for i, key in enumerate(prob._constraints)}  # as PuLP's normalisedNames
    names = {var.name: f"X{i:07d}" for i, var in enumerate(variables)}
    cost = prob.objective or pulp.LpAffineExpression()
    coefs: dict[str, dict[str, float]] = {names[var.name]: {} for var in variables}
    with path.open("w") as f:
        f.write(f"*SENSE:{pulp.LpSenses[prob.sense]}\nNAME          MODEL\nROWS\n N  {objective}\n")
        for key, constraint in prob._constraints.items():
            deadline.check()
            f.write(f" {pulp.constants.LpConstraintTypeToMps[constraint.sense]}  {rows[key]}\n")
            for var, value in constraint.items():
                coefs[names[var.name]][rows[key]] = value
        f.write("COLUMNS\n")
        for var in variables:
            deadline.check()
            name = names[var.name]
            f.writelines(mps_lp.writeMPSColumnLines(coefs[name], var, True, name, cost, objective))
        f.write("RHS\n")
        for key, constraint in prob._constraints.items():
            f.write(f"    RHS       {rows[key]:<8}  {-constraint.constant if constraint.constant else 0: .12e}\n")
        f.write("BOUNDS\n")
        for var in variables:
            f.writelines(mps_lp.writeMPSBoundLines(names[var.name], var, True))
        f.write("ENDATA\n")
    return variables, names, rows


def columns(prob: pulp.LpProblem, deadline: Deadline) -> list[pulp.LpVariable]:
    """PuLP's `prob.variables()` (every variable the model uses, by name), looking at the deadline
    constraint by constraint: it reads the whole model, 0.4 s on a 36x36 board."""
    if prob.objective:
        prob._add_variables(prob.objective.keys())
    for constraint in prob._constraints.values():
        deadline.check()
        prob._add_variables(constraint.keys())
    prob._variables.sort(key=lambda var: var.name)
    return prob._variables


class HighsByDeadline(pulp.HiGHS):
    """PuLP's HiGHS, in a child process killed at the deadline (children.fork), its model made
    under the deadline.

    HiGHS looks at a request to stop, or at its own limit, only between steps of its presolve
    and root node, and a step took up to 2 s on the large boards (a round of cuts at the root
    of ahle-gen_40x20_004; its feasibility jump heuristic ignores both too). A forked child
    starts with the model in its memory and sends back only the status and the values.
    (pulp.HiGHS offers its options only when highspy imports; the engine uses it only then.)
    """

    def __init__(self, deadline: Deadline, **params):
        super().__init__(msg=False, **params)
        self.deadline = deadline

    def actualSolve(self, lp: pulp.LpProblem) -> int:
        variables = columns(lp, self.deadline)
        model = highs_model(lp, variables, self.deadline, self.mip)
        answer = children.fork(partial(_run_highs, model, self.highs_options()), self.deadline)
        status, sol_status, values = cast(tuple[int, int, Sequence[float] | None], answer or (*STOPPED_WITHOUT, None))
        for var, value in zip(variables, () if values is None else values, strict=False):
            var.varValue = float(value)
        lp.assignStatus(status, sol_status)
        return status

    def highs_options(self) -> dict:
        """HiGHS's options, as PuLP's HiGHS sets them, and what is left of the time as its own limit."""
        found = {"threads": self.threads, "mip_rel_gap": self.gapRel, "mip_abs_gap": self.gapAbs}
        found |= {"time_limit": self.deadline.left(), **self.optionsDict}
        return {"output_flag": False} | {name: value for name, value in found.items() if value is not None}


def highs_model(lp: pulp.LpProblem, variables: list, deadline: Deadline, mip: bool = True):
    """The model as a highspy.HighsLp, rows in PuLP's order and columns in `variables`' order,
    looking at the deadline row by row (PuLP's one call per row took 1.8 s on adc2015_20x36_Q34)."""
    import highspy
    import numpy as np

    inf, model = highspy.kHighsInf, highspy.HighsLp()
    index = {var.name: i for i, var in enumerate(variables)}
    cost = lp.objective or pulp.LpAffineExpression()
    model.num_col_, model.num_row_ = len(variables), len(lp._constraints)
    model.sense_ = highspy.ObjSense.kMaximize if lp.sense == pulp.LpMaximize else highspy.ObjSense.kMinimize
    model.col_cost_ = np.array([cost.get(var, 0.0) for var in variables], dtype=float)
    model.col_lower_ = np.array([-inf if var.lowBound is None else var.lowBound for var in variables], dtype=float)
    model.col_upper_ = np.array([inf if var.upBound is None else var.upBound for var in variables], dtype=float)
    integer, continuous = highspy.HighsVarType.kInteger, highspy.HighsVarType.kContinuous
    model.integrality_ = [integer if mip and var.cat == pulp.LpInteger else continuous for var in variables]
    starts: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    lower: list[float] = []
    upper: list[float] = []
    for constraint in lp._constraints.values():
        deadline.check()
        starts.append(len(indices))
        for var, value in constraint.items():
            if value:
                indices.append(index[var.name])
                values.append(value)
        lower.append(-inf if (lb := constraint.getLb()) is None else lb)
        upper.append(inf if (ub := constraint.getUb()) is None else ub)
    model.row_lower_, model.row_upper_ = np.array(lower, dtype=float), np.array(upper, dtype=float)
    model.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    model.a_matrix_.start_ = np.array([*starts, len(indices)], dtype=np.int32)
    model.a_matrix_.index_ = np.array(indices, dtype=np.int32)
    model.a_matrix_.value_ = np.array(values, dtype=float)
    return model


def _run_highs(model, options: dict) -> tuple[int, int, Any]:
    """In the child: HiGHS on the model; PuLP's status pair, and the values when there is a solution."""
    import highspy
    import numpy as np

    highs = highspy.Highs()
    for name, value in options.items():
        highs.setOptionValue(name, value)
    if highs.passModel(model) == highspy.HighsStatus.kError:
        raise pulp.PulpSolverError("HiGHS refused the model")
    highs.run()
    found = highs.getInfo().primal_solution_status == highspy.kSolutionStatusFeasible
    status = HIGHS_STATUS.get(highs.getModelStatus().name) or (STOPPED_WITH if found else STOPPED_WITHOUT)
    return (*status, np.array(highs.getSolution().col_value) if found else None)

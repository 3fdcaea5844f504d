"""The SAT engine: the puzzle's clauses (cpflow.engines.cnf) solved by a SAT solver of
python-sat (CaDiCaL 1.9.5 by default), with lazy loop cuts.

Every `sat` entry runs the front end first (the pipeline does, as for `cpsat`); what it
settled (`root`) becomes unit clauses. The solver answers, an answer with a loop gets a
clause that cuts that loop and the solver answers again, incrementally, until an answer
has none. Counting adds a clause excluding each solution found.

CaDiCaL cannot be interrupted through python-sat, so the whole search runs in a forked
child (`children.fork`), killed at the deadline or on Ctrl-C; between rounds the child
looks at the deadline itself and sends what it has found.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from cpflow.board.grid import Puzzle, Solution
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Partial
from cpflow.engines import children
from cpflow.engines.base import Answer
from cpflow.results import Status

DEFAULT = "cadical195"
GRACE = 0.25  # seconds past the deadline before the child is killed: time to send what it found


def available(solver: str = DEFAULT) -> bool:
    """Whether python-sat is installed with this solver."""
    if importlib.util.find_spec("pysat") is None:
        return False
    from pysat.solvers import SolverNames

    return hasattr(SolverNames, solver)


def build(puzzle: Puzzle, deadline: Deadline = NEVER, root: Partial | None = None):
    """The puzzle's clauses (cpflow.engines.cnf), from `root` (the front end's settled start) when given."""
    from cpflow.engines.cnf import build

    return build(puzzle, deadline, root)


def search(
    v, deadline: Deadline, *, solver: str = DEFAULT, exclude: Sequence[Solution] = (), workers: int | None = None
) -> Answer:
    """One solution of the clauses that is none of `exclude`, or why there is none, or UNKNOWN at the
    deadline."""
    found, finished, stats = _search_by(v, solver, 1, exclude, deadline)
    status = Status.SOLVED if found else Status.UNSOLVABLE if finished else Status.UNKNOWN
    if v.reason:
        stats["reason"] = v.reason
    return Answer(status, found[0] if found else None, stats)


def count(
    v, limit: int, deadline: Deadline, *, solver: str = DEFAULT, workers: int | None = None
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, and SOLVED when that is all of them (UNKNOWN when the
    limit or the time limit came first)."""
    found, finished, _ = _search_by(v, solver, limit, (), deadline)
    return found, Status.SOLVED if finished else Status.UNKNOWN


def _search_by(v, solver: str, limit: int, exclude: Sequence[Solution], deadline: Deadline):
    """`solutions` in a child killed at the deadline: (solutions, whether that is all, stats)."""
    if deadline.left() == 0:  # building took it all: no child
        return [], False, {"solver": solver, "stopped": "building"}
    answer = children.fork(partial(solutions, v, solver, limit, exclude, deadline), deadline.earlier(-GRACE))
    if answer is None:
        return [], False, {"solver": solver, "stopped": "searching"}
    return answer


def solutions(v, solver: str, limit: int, exclude: Sequence[Solution], deadline: Deadline):
    """Up to `limit` solutions of the clauses, none of `exclude`, cutting each loop an answer has
    and solving again: (solutions, whether that is all of them, stats). Stops between rounds at
    the deadline."""
    from pysat.solvers import Solver

    stats = {"solver": solver, "variables": v.pool.top, "clauses": len(v.clauses), "rounds": 0, "cuts": 0}
    found: list[Solution] = []
    with Solver(name=solver, bootstrap_with=v.clauses) as sat:
        for solution in exclude:
            sat.add_clause(v.excluding(solution))
        while len(found) < limit:
            if stats["rounds"] and deadline.left() == 0:
                return found, False, stats
            stats["rounds"] += 1
            if not sat.solve():
                return found, True, stats
            steps = v.on(sat.get_model())
            loops = v.loops(steps)
            for loop in loops:
                sat.add_clause(v.cut(loop))
            stats["cuts"] += len(loops)
            if not loops:
                found.append(v.extract(steps))
                sat.add_clause(v.excluding(found[-1]))
    return found, False, stats


def export(puzzle: Puzzle, path: str | Path, *, solver: str = DEFAULT) -> None:
    """Write the puzzle's clauses as a DIMACS CNF file, each variable named in a comment line
    (`c 12 joined_0_0_0_1`). The whole model is written, without the front end's deductions and
    without loop cuts: a model of the file may hold a loop, which cpflow would cut and solve again."""
    from pysat.formula import CNF

    v = build(puzzle)
    names = [f"{var} {name}" for name, var in v.pool.obj2id.items()]
    comments = [f"c cpflow {puzzle.name or 'puzzle'}: {puzzle.width}x{puzzle.height}, {len(puzzle.colours)} colours"]
    comments += ["c loops are not ruled out here: cpflow cuts each one an answer has and solves again"]
    CNF(from_clauses=v.clauses).to_file(str(path), comments=comments + [f"c {line}" for line in names])

"""The relaxed model of why a puzzle has no solution as clauses, solved incrementally: the whole board.

The requirements are cpflow.engines.relaxed's (models/why.md): `connect[k]` (colour k draws its
path; relaxed, it draws none and its endpoints stay empty, entered by no path) and `cover[u]` (some
path covers u; relaxed, u may stay empty). The clauses are cpflow.engines.cnf's on the board with
blanks allowed (a node has at most one colour, a turn exactly when it has one; a step carries its
colour; no touching; the ring limits), with an assumption literal per requirement: an endpoint of
colour k takes one step when `connect[k]` holds and none otherwise, a node takes colour k only
under `connect[k]`, and `cover[u]` asks for a colour at u. Loops are cut lazily, as the SAT engine
does (cpflow.engines.sat): a cut ("one of these steps is not taken") holds under any assumptions,
so it stays. One solver answers every call: what it learnt stays too, which is how MUS extractors
shrink a set. A core (`get_core`) is a proof; an answer with no loop is a witness.
"""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import replace

from cpflow.board.grid import Puzzle, Rules, Solution, tag
from cpflow.clock import NEVER, Deadline, OutOfTime
from cpflow.engines.prune import domains
from cpflow.engines.relaxed import Requirement, size

SOLVER = "glucose42"  # interruptible (a timer stops it at the deadline), and kept incremental
SHARE = 0.5  # of a solve's time, what the clauses get before the label model (ProvenFirst)
LARGE = 50  # the smallest first core the clauses are built for: below it, witnesses are the cost, not proofs
HEAVY = 40_000  # the most nodes x colours the clauses are built for: 1.5 to 2 s of a 5 s why at 60,000
BUILD = 0.3  # of the time left, the most building the clauses may take
CONFLICTS = 2_000  # a solver that cannot be interrupted (CaDiCaL) runs in budgets of this many conflicts


class RelaxedCnf:
    """The clauses with every requirement of the puzzle as an assumption literal, in one solver."""

    opened = False  # the whole board: its solutions are witnesses

    def __init__(self, puzzle: Puzzle, deadline: Deadline = NEVER, solver: str = SOLVER, reach=None):
        """The clauses, loaded into the solver; OutOfTime when the deadline passes while they are built.
        `reach`: the nodes each colour may reach, when known (the label model's)."""
        from pysat.solvers import Solver

        from cpflow.engines import cnf

        self.puzzle, self.solver = puzzle, solver
        board = replace(puzzle, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
        reach = reach or {c: nodes or frozenset(puzzle.endpoints[c]) for c, nodes in domains(board, deadline).items()}
        self.reach = reach  # the nodes each colour may reach: the open windows' labels (cpflow.engines.relaxed_open)
        v = self.v = cnf.CnfVars(board, reach, deadline)
        self.connect = {c: v.pool.id(f"connect_{c}") for c in puzzle.colours}
        owner = puzzle.endpoint_colour()
        coverable = () if puzzle.rules.blanks else [n for n in puzzle.nodes if n not in owner]
        self.cover = {n: v.pool.id(f"cover_{tag(n)}") for n in coverable}
        cnf.add_one_colour(v)
        cnf.add_degrees(v, {node: -self.connect[colour] for node, colour in owner.items()})
        cnf.add_colour_flow(v)
        cnf.add_no_self_touch(v)
        cnf.add_ring_limits(v)
        v.clauses += [[-paint, self.connect[k]] for (node, k), paint in v.paint.items() if node not in owner]
        v.clauses += [[-lit, *(v.paint[node, k] for k in v.colours[node])] for node, lit in self.cover.items()]
        deadline.check()
        self.sat = Solver(name=solver, bootstrap_with=v.clauses)
        v.clauses = []  # in the solver now
        self.cuts = 0

    def requirements(self) -> list[Requirement]:
        """Every requirement: each colour connects, each node that is no endpoint is covered."""
        return [("connect", c) for c in self.connect] + [("cover", n) for n in self.cover]

    def literal(self, requirement: Requirement) -> int | None:
        """The requirement's literal, None when the model has none (a cell under `--allow-blanks`)."""
        _, what = requirement
        return self.connect.get(what) if isinstance(what, str) else self.cover.get(what)

    def solve(self, wanted: list[Requirement], deadline: Deadline) -> tuple[str, Solution | None, list[Requirement]]:
        """(status, solution or None, core) for the requirements `wanted`; status one of
        'solvable', 'infeasible', 'unknown'. Each answer with a loop gets its cuts and is asked again."""
        literals = [self.literal(r) for r in wanted]
        assumptions = [lit for lit in literals if lit is not None]
        while True:
            answer = self._limited(assumptions, deadline)
            if answer is None:
                return "unknown", None, []
            if answer is False:
                core = set(self.sat.get_core() or ())
                return "infeasible", None, [r for r, lit in zip(wanted, literals, strict=True) if lit in core]
            model = self.sat.get_model() or []
            steps = self.v.on(model)
            loops = self.v.loops(steps)
            if not loops:
                true = {lit for lit in model if lit > 0}
                paths = self.v.extract(steps).paths
                return "solvable", Solution({c: paths[c] for c, lit in self.connect.items() if lit in true}), []
            for loop in loops:
                self.sat.add_clause(self.v.cut(loop))
            self.cuts += len(loops)

    def _limited(self, assumptions: list[int], deadline: Deadline) -> bool | None:
        """The solver's answer under `assumptions`, None when the deadline comes first."""
        left = deadline.left()
        if left is None:
            return self.sat.solve(assumptions=assumptions)
        if left == 0:
            return None
        if self.solver.startswith("cadical"):  # python-sat cannot interrupt it: budgets of conflicts
            while deadline.left() != 0:
                self.sat.conf_budget(CONFLICTS)
                answer = self.sat.solve_limited(assumptions=assumptions)
                if answer is not None:
                    return answer
            return None
        timer = threading.Timer(left, self.sat.interrupt)
        timer.start()
        try:
            return self.sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            self.sat.clear_interrupt()

    def close(self) -> None:
        """Free the solver."""
        self.sat.delete()


class ProvenFirst:
    """A whole-board model whose solves ask the clauses first, for `SHARE` of the time (their proofs come
    in milliseconds, where a CP-SAT solve of the board takes 0.1 to 0.5 s), then `model` (the label
    model: its witnesses come no slower)."""

    opened = False

    def __init__(self, clauses: RelaxedCnf, model):
        self.clauses, self.model, self.reach = clauses, model, model.reach

    def solve(self, wanted: list[Requirement], deadline: Deadline) -> tuple[str, Solution | None, list[Requirement]]:
        left = deadline.left()
        answer = self.clauses.solve(wanted, deadline if left is None else deadline.within(left * SHARE))
        return answer if answer[0] != "unknown" else self.model.solve(wanted, deadline)


def proving(puzzle: Puzzle, model, core: list[Requirement], deadline: Deadline):
    """`model` with the clauses asked first (`ProvenFirst`) when the first `core` holds `LARGE` requirements or
    more, the board is at most `HEAVY` nodes x colours, python-sat is installed and the clauses are built
    within `BUILD` of the time left; else `model` alone."""
    if len(core) < LARGE or size(puzzle) > HEAVY or importlib.util.find_spec("pysat") is None:
        return model
    left = deadline.left()
    try:
        clauses = RelaxedCnf(puzzle, deadline if left is None else deadline.within(left * BUILD), reach=model.reach)
        return ProvenFirst(clauses, model)
    except OutOfTime:
        return model

"""The relaxed model of why a puzzle has no solution in the label formulation: the whole board, any size.

The requirements are cpflow.engines.relaxed's (models/why.md): `connect[k]` (colour k draws its
path; relaxed, it draws none and its endpoints stay empty, entered by no path) and `cover[u]` (some
path covers u; relaxed, u may stay empty). The model is the label model of cpflow.engines.label
(one tour through every node on a path, a colour label per node) with every node optional
(`visited`): an endpoint lies on the tour exactly when its colour connects, and the tour closes
through virtual junctions, `J[k] -> start(k) ... end(k) -> J[k+1]` when colour k connects,
`J[k] -> J[k+1]` when it does not, and `J[n] -> J[n+1] -> J[0]` always (so the ring never
vanishes: a loop of cells alone is never the tour). Its size grows with the nodes and edges, not with the colours,
so a 50x50 board builds in about a second; and its redundant constraints (degrees, short rings) and
the search order of the label model let CP-SAT prove the boards the front end's search refutes
where the per-colour circuits of cpflow.engines.relaxed do not. Its solutions are witnesses.
"""

from __future__ import annotations

from dataclasses import replace

from cpflow.board.grid import Node, Puzzle, Rules, Solution, tag
from cpflow.clock import NEVER, Deadline
from cpflow.engines.cp_model import cp_model
from cpflow.engines.label import LabelVars, add_colour_flow, add_no_self_touch, add_ring_limits, add_search_order
from cpflow.engines.prune import domains
from cpflow.engines.relaxed import Requirement

SLICE = 0.2  # seconds of the first search in each order; each next turn of both takes twice as long
# CP-SAT's own choice of search (its order given, no presolve): on the sets a minimal why is shrunk from
# (the swapped boards of bench/why.py) it settled more of them within a second than the label model's
# fixed order, both proofs and witnesses
BRANCHING = cp_model.AUTOMATIC_SEARCH


class RelaxedLabel:
    """The label model with every requirement of the puzzle as an assumption literal."""

    opened = False  # the whole board: its solutions are witnesses

    def __init__(self, puzzle: Puzzle, deadline: Deadline = NEVER):
        """The model; OutOfTime when the deadline passes while it is built."""
        self.puzzle = puzzle
        board = replace(puzzle, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
        reach = {c: nodes or frozenset(puzzle.endpoints[c]) for c, nodes in domains(board, deadline).items()}
        self.reach = reach  # the nodes each colour may reach: the open windows' labels (cpflow.engines.relaxed_open)
        model = self.model = cp_model.CpModel()
        v = self.v = LabelVars(model, board, reach, deadline)
        self.connect = {c: model.new_bool_var(f"connect_{c}") for c in puzzle.colours}
        for colour, (start, end) in puzzle.endpoints.items():
            v.visited[start] = v.visited[end] = self.connect[colour]
        owner = puzzle.endpoint_colour()
        coverable = () if puzzle.rules.blanks else [n for n in puzzle.nodes if n not in owner]
        self.cover = {n: model.new_bool_var(f"cover_{tag(n)}") for n in coverable}
        for node, lit in self.cover.items():
            model.add_implication(lit, v.visited[node])
        v.make_joined(model)
        self._tour(deadline)
        add_colour_flow(model, v)
        add_no_self_touch(model, v)
        self._degrees(deadline)
        add_ring_limits(model, v)
        empty = model.clone()  # searching in the label model's order, its proofs come fast; a witness comes
        add_search_order(model, v)  # fast when every cell is left empty it may be first, then in that order
        blanks = [v.visited[n] for n in self.cover]
        empty.add_decision_strategy(blanks, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
        empty.add_decision_strategy(v.order(0), cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
        self.models, self.first = (model, empty), 0
        self.hint: list[int] = []

    def _tour(self, deadline: Deadline) -> None:
        """One circuit through every node on a path and every junction; a node off the paths loops on itself."""
        v, model = self.v, self.model
        nodes: list = list(self.puzzle.nodes)
        colours = list(self.puzzle.endpoints)
        junctions = [("junction", k) for k in range(len(colours) + 2)]  # the last two close the ring: it is never empty
        index = {n: i for i, n in enumerate(nodes + junctions)}
        arcs: list[cp_model.ArcT] = [(index[a], index[b], lit) for (a, b), lit in v.arc.items()]
        arcs += [(index[n], index[n], ~visited) for n, visited in v.visited.items()]
        true = model.new_constant(1)
        arcs += [(index[junctions[-2]], index[junctions[-1]], true), (index[junctions[-1]], index[junctions[0]], true)]
        for k, colour in enumerate(colours):
            deadline.check()
            start, end = self.puzzle.endpoints[colour]
            here, after = index[junctions[k]], index[junctions[k + 1]]
            connect = self.connect[colour]
            arcs += [(here, index[start], connect), (index[end], after, connect), (here, after, ~connect)]
        model.add_circuit(arcs)

    def _degrees(self, deadline: Deadline) -> None:
        """Redundant: an endpoint on the tour is joined to one neighbour, any other node on it to two."""
        v, owner = self.v, self.puzzle.endpoint_colour()
        touching: dict[Node, list] = {}
        for (u, w), joined in v.joined.items():
            touching.setdefault(u, []).append(joined)
            touching.setdefault(w, []).append(joined)
        for node in self.puzzle.nodes:
            deadline.check()
            degree = v.visited[node] if node in owner else 2 * v.visited[node]
            self.model.add(sum(touching.get(node, [])) == degree)

    def requirements(self) -> list[Requirement]:
        """Every requirement: each colour connects, each node that is no endpoint is covered."""
        return [("connect", c) for c in self.connect] + [("cover", n) for n in self.cover]

    def literal(self, requirement: Requirement):
        """The requirement's literal, None when the model has none (a cell under `--allow-blanks`)."""
        _, what = requirement
        return self.connect.get(what) if isinstance(what, str) else self.cover.get(what)

    def solve(self, wanted: list[Requirement], deadline: Deadline) -> tuple[str, Solution | None, list[Requirement]]:
        """(status, solution or None, core) for the requirements `wanted`; status one of
        'solvable', 'infeasible', 'unknown'."""
        from cpflow.engines.cpsat_solver import TUNED, run

        literals = [self.literal(r) for r in wanted]
        for model in self.models:
            model.clear_assumptions()
            model.add_assumptions(literals)
            if self.hint:  # the last solution found: the next witness is often a small change of it
                model.clear_hints()
                model.proto.solution_hint.vars.extend(range(len(self.hint)))
                model.proto.solution_hint.values.extend(self.hint)
        native, turn, params = cp_model.UNKNOWN, 0, (TUNED, {**TUNED, "search_branching": BRANCHING})
        while native == cp_model.UNKNOWN and deadline.left() != 0:  # each search order in turn, twice as long each time
            which = (self.first + turn) % len(self.models)
            solver, native = run(self.models[which], deadline.within(SLICE * 2 ** (turn // 2)), params[which])
            turn += 1
        if native != cp_model.UNKNOWN:
            self.first = (self.first + turn - 1) % len(self.models)  # the order that answered goes first next time
        if native == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return "infeasible", None, [r for r, lit in zip(wanted, literals, strict=True) if lit.index in core]
        if native in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self.hint = list(solver.response_proto.solution)
            paths = self.v.extract(solver).paths
            connected = [c for c, lit in self.connect.items() if solver.boolean_value(lit)]
            return "solvable", Solution({c: paths[c] for c in connected}), []
        return "unknown", None, []

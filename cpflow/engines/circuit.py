"""The reference CP-SAT formulation: one circuit per colour (see models/circuit.md).

Each colour k gets a boolean `on[k, node]` per node it may use and an arc boolean
`arc[k, u, v]` per directed step between neighbouring nodes; one `add_circuit` per
colour makes its arcs a single path from start to end, closed into a circuit by a
fixed arc end -> start.
"""

from __future__ import annotations

from cpflow.board.grid import Colour, Node, Puzzle, Solution, tag
from cpflow.board.paths import walk
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Partial
from cpflow.engines.cp_model import cp_model
from cpflow.engines.prune import domains, impossibility

# Freeing the model and the search once they are stopped takes up to about this long per
# literal (0.3-0.5 s for the 400,000 of a 50x50 board, measured): building and solving
# stop that much sooner.
FREEING = 1.5e-6


class CircuitVars:
    """The model's literals, with the questions the constraints and the reader ask of them."""

    def __init__(
        self,
        model: cp_model.CpModel,
        puzzle: Puzzle,
        colour_domains: dict[Colour, frozenset[Node]],
        deadline: Deadline = NEVER,
    ):
        self.puzzle, self.domains, self.deadline = puzzle, colour_domains, deadline
        self.reason: str | None = None  # why the puzzle is unsolvable, when pruning alone shows it
        self.true = model.new_bool_var("true")
        model.add_bool_or([self.true])
        self.on: dict[tuple[Colour, Node], cp_model.IntVar] = {}
        self.arcs: dict[tuple[Colour, Node, Node], cp_model.IntVar] = {}
        self.arcs_of: dict[Colour, list[tuple[Node, Node, cp_model.IntVar]]] = {}  # the same, by colour
        for colour, nodes in colour_domains.items():
            arcs_of = self.arcs_of[colour] = []
            start, end = puzzle.endpoints[colour]
            for u in sorted(nodes):
                deadline.check()
                if u not in (start, end):
                    self.on[colour, u] = model.new_bool_var(f"on_{colour}_{tag(u)}")
                for v in puzzle.neighbours[u]:
                    if v in nodes and u != end and v != start:
                        lit = self.arcs[colour, u, v] = model.new_bool_var(f"arc_{colour}_{tag(u)}_{tag(v)}")
                        arcs_of.append((u, v, lit))

    def covers(self, colour: Colour, node: Node) -> cp_model.IntVar:
        """The literal 'node has this colour' (the constant true for the colour's endpoints)."""
        return self.on.get((colour, node), self.true)

    def steps(self, colour: Colour, u: Node, v: Node) -> list[cp_model.IntVar]:
        """The arc literals between u and v in either direction that the model has."""
        return [self.arcs[key] for key in ((colour, u, v), (colour, v, u)) if key in self.arcs]

    def same_as(self, solution: Solution) -> list[cp_model.IntVar]:
        """Literals all true exactly when every path takes the steps it takes in `solution`,
        so that `add_bool_or([~lit for lit in same_as(s)])` excludes exactly the solution s."""
        found = []
        for k, path in solution.paths.items():
            forward = path if path[0] == self.puzzle.endpoints[k][0] else path[::-1]
            found += [self.arcs[k, u, w] for u, w in zip(forward, forward[1:], strict=False)]
        return found

    def extract(self, solver: cp_model.CpSolver) -> Solution:
        """The paths, read by following the true arcs from each colour's start."""
        paths = {}
        for colour in self.puzzle.colours:
            succ = {u: (v,) for u, v, lit in self.arcs_of.get(colour, ()) if solver.boolean_value(lit)}
            paths[colour] = walk(self.puzzle, succ).paths[colour]
        return Solution(paths)


def add_colour_circuits(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Each colour's cells form one path from its start to its end (no loops, no branches)."""
    for colour, nodes in v.domains.items():
        v.deadline.check()
        index = {node: i for i, node in enumerate(sorted(nodes))}
        start, end = v.puzzle.endpoints[colour]
        arcs: list[cp_model.ArcT] = [(index[a], index[b], lit) for a, b, lit in v.arcs_of[colour]]
        arcs += [(index[n], index[n], ~v.on[colour, n]) for n in nodes if n not in (start, end)]
        arcs.append((index[end], index[start], v.true))
        model.add_circuit(arcs)


def add_one_colour_per_cell(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Every node is covered by exactly one path (at most one, where blanks are allowed)."""
    owner = v.puzzle.endpoint_colour()
    add = model.add_at_most_one if v.puzzle.rules.blanks else model.add_exactly_one
    for node in v.puzzle.nodes:
        v.deadline.check()
        if node not in owner:
            add(v.on[k, node] for k, nodes in v.domains.items() if node in nodes)


def add_play(model: cp_model.CpModel, v: CircuitVars) -> None:
    """A drawn node (the play's) keeps its colour."""
    for node, colour in v.puzzle.drawn.items():
        model.add_bool_or([v.covers(colour, node)])


def add_no_self_touch(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Two neighbouring nodes of one colour are consecutive on its path (unless paths may touch)."""
    if v.puzzle.rules.touch:
        return
    for colour, nodes in v.domains.items():
        for a in nodes:
            v.deadline.check()
            for b in v.puzzle.neighbours[a]:
                if b in nodes and a < b:
                    model.add_bool_or([~v.covers(colour, a), ~v.covers(colour, b), *v.steps(colour, a, b)])


def literals(puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Node]]) -> float:
    """About how many literals the model has: per colour, one per node and one per arc."""
    degree = sum(len(puzzle.neighbours[node]) for node in puzzle.nodes) / max(1, len(puzzle.nodes))
    return (1 + degree) * sum(len(nodes) for nodes in colour_domains.values())


def build(
    puzzle: Puzzle, deadline: Deadline = NEVER, root: Partial | None = None
) -> tuple[cp_model.CpModel, CircuitVars]:
    """The reference model of a puzzle, on the colour domains the front end settled (`root`)
    or pruning found; infeasible at once if pruning shows no solution exists. OutOfTime when
    the deadline passes first (`v.deadline`, which the search keeps too, is sooner by the time
    the model takes to free)."""
    model = cp_model.CpModel()
    colour_domains = root.decided()[1] if root else domains(puzzle, deadline)
    v = CircuitVars(model, puzzle, colour_domains, deadline.earlier(FREEING * literals(puzzle, colour_domains)))
    v.reason = impossibility(puzzle, colour_domains)
    if v.reason:
        model.add_bool_or([])  # the empty clause: proven unsolvable without search
        return model, v
    add_colour_circuits(model, v)
    add_one_colour_per_cell(model, v)
    add_no_self_touch(model, v)
    add_play(model, v)
    return model, v

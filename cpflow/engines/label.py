"""The label formulation: one circuit through every node, an integer colour label per node.

See models/label.md. Arcs `arc[u, w]` between neighbours and fixed closing arcs from
each colour's end to the next colour's start form one tour through every node, so no
path can close a loop of its own. Each node has one integer `label[u]`, the index of
its colour; an arc copies the label, and two neighbours joined by no arc must differ.
The model grows with the number of nodes and edges only, not with nodes x colours.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cpflow.board.grid import Colour, Node, Puzzle, Solution, rings, tag
from cpflow.board.paths import walk
from cpflow.engines.prune import domains, impossibility


class LabelVars:
    """The tour's arcs and the cells' colour labels."""

    def __init__(self, model: cp_model.CpModel, puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Node]]):
        self.puzzle = puzzle
        self.reason: str | None = impossibility(puzzle, colour_domains)
        self.label: dict[Node, cp_model.IntVar] = {}
        self.arc: dict[tuple[Node, Node], cp_model.IntVar] = {}
        if self.reason:
            return  # some cell may have no colour left: build nothing
        number = {colour: i for i, colour in enumerate(puzzle.colours)}
        owner = puzzle.endpoint_colour()
        self.colours = {
            node: {number[k] for k, nodes in colour_domains.items() if node in nodes} for node in puzzle.nodes
        }
        for node, colour in owner.items():
            self.colours[node] = {number[colour]}
        self.label = {
            node: model.new_int_var_from_domain(cp_model.Domain.from_values(sorted(values)), f"label_{tag(node)}")
            for node, values in self.colours.items()
        }
        starts = {pair[0] for pair in puzzle.endpoints.values()}
        ends = {pair[1] for pair in puzzle.endpoints.values()}
        for u, values in self.colours.items():
            for w in puzzle.neighbours[u]:
                if u not in ends and w not in starts and not values.isdisjoint(self.colours[w]):
                    self.arc[u, w] = model.new_bool_var(f"arc_{tag(u)}_{tag(w)}")

    def make_joined(self, model: cp_model.CpModel) -> None:
        """`joined[u, w]` (u < w): a path steps between u and w, in either direction."""
        self.joined: dict[tuple[Node, Node], cp_model.IntVar] = {}
        for u, w in self.arc:
            if u < w or (w, u) not in self.arc:
                key = (u, w) if u < w else (w, u)
                joined = model.new_bool_var(f"joined_{tag(key[0])}_{tag(key[1])}")
                model.add(sum(self.steps(*key)) == joined)
                self.joined[key] = joined

    def steps(self, u: Node, w: Node) -> list[cp_model.IntVar]:
        """The arcs between u and w, in either direction, that the model has."""
        return [self.arc[key] for key in ((u, w), (w, u)) if key in self.arc]

    def same_as(self, solution: Solution) -> list[cp_model.IntVar]:
        """Literals all true exactly when the tour uses every step of `solution`'s paths."""
        return [self.arc[step] for path in solution.paths.values() for step in zip(path, path[1:], strict=False)]

    def extract(self, solver: cp_model.CpSolver) -> Solution:
        """The paths, read by following the true arcs from each colour's start."""
        return walk(self.puzzle, {u: (w,) for (u, w), lit in self.arc.items() if solver.boolean_value(lit)})


def add_tour(model: cp_model.CpModel, v: LabelVars) -> None:
    """Every node lies on one path; paths close into one tour, so no path can loop."""
    index = {node: i for i, node in enumerate(v.puzzle.nodes)}
    arcs = [(index[a], index[b], lit) for (a, b), lit in v.arc.items()]
    pairs = list(v.puzzle.endpoints.values())
    true = model.new_constant(1)
    arcs += [(index[end], index[pairs[(i + 1) % len(pairs)][0]], true) for i, (_, end) in enumerate(pairs)]
    model.add_circuit(arcs)


def add_colour_flow(model: cp_model.CpModel, v: LabelVars) -> None:
    """A path keeps its colour: an arc u -> w carries u's label to w."""
    for (u, w), arc in v.arc.items():
        model.add(v.label[u] == v.label[w]).only_enforce_if(arc)


def add_no_self_touch(model: cp_model.CpModel, v: LabelVars) -> None:
    """Neighbours joined by no step of a path have different colours."""
    for (u, w), joined in v.joined.items():
        model.add(v.label[u] != v.label[w]).only_enforce_if(~joined)
    for u, values in v.colours.items():
        for w in v.puzzle.neighbours[u]:
            if u < w and (u, w) not in v.joined and not values.isdisjoint(v.colours[w]):
                model.add(v.label[u] != v.label[w])


def add_degrees(model: cp_model.CpModel, v: LabelVars) -> None:
    """Redundant: an endpoint is joined to one neighbour, any other cell to two."""
    owner = v.puzzle.endpoint_colour()
    touching: dict[Node, list] = {}
    for (u, w), joined in v.joined.items():
        touching.setdefault(u, []).append(joined)
        touching.setdefault(w, []).append(joined)
    for node in v.puzzle.nodes:
        model.add(sum(touching.get(node, [])) == (1 if node in owner else 2))


def add_ring_limits(model: cp_model.CpModel, v: LabelVars) -> None:
    """Redundant: a path takes at most all but two sides of a short cycle (`rings`).

    Taking all but one side would leave the ring's two ends neighbours of one colour
    that are not consecutive: a path touching itself.
    """
    for ring in rings(v.puzzle):
        sides = [(a, b) if a < b else (b, a) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
        model.add(sum(v.joined[side] for side in sides if side in v.joined) <= len(ring) - 2)


def build(puzzle: Puzzle) -> tuple[cp_model.CpModel, LabelVars]:
    """The label model of a puzzle; infeasible at once if pruning shows no solution exists."""
    model = cp_model.CpModel()
    v = LabelVars(model, puzzle, domains(puzzle))
    if v.reason:
        model.add_bool_or([])  # the empty clause: proven unsolvable without search
        return model, v
    v.make_joined(model)
    add_tour(model, v)
    add_colour_flow(model, v)
    add_no_self_touch(model, v)
    add_degrees(model, v)
    add_ring_limits(model, v)
    return model, v

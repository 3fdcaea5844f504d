"""The label formulation: one circuit through every node, an integer colour label per node.

See models/label.md. Arcs `arc[u, w]` between neighbours and fixed closing arcs from
each colour's end to the next colour's start form one tour through every node, so no
path can close a loop of its own. Each node has one integer `label[u]`, the index of
its colour; an arc copies the label, and two neighbours joined by no arc must differ.
The model grows with the number of nodes and edges only, not with nodes x colours.
Under `rules.blanks` a node may be left out of the tour (`visited[u]` false); under
`rules.touch` neighbours of one colour need not be consecutive.
"""

from __future__ import annotations

from cpflow.board.grid import Colour, Node, Puzzle, Solution, rings, tag
from cpflow.board.paths import walk
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Partial, applies, dead_turns
from cpflow.engines.cp_model import cp_model
from cpflow.engines.prune import domains, impossibility


class LabelVars:
    """The tour's arcs and the cells' colour labels."""

    def __init__(
        self,
        model: cp_model.CpModel,
        puzzle: Puzzle,
        colour_domains: dict[Colour, frozenset[Node]],
        deadline: Deadline = NEVER,
        fixed: dict[tuple[Node, Node], bool] | None = None,
    ):
        self.puzzle, self.deadline = puzzle, deadline
        self.fixed = fixed or {}  # decided edges (u < w): on a path or not
        self.reason: str | None = impossibility(puzzle, colour_domains)
        self.label: dict[Node, cp_model.IntVar] = {}
        self.arc: dict[tuple[Node, Node], cp_model.IntVar] = {}
        self.visited: dict[Node, cp_model.IntVar] = {}  # under rules.blanks: the node lies on a path
        if self.reason:
            return  # some cell may have no colour left: build nothing
        self.number = number = {colour: i for i, colour in enumerate(puzzle.colours)}
        owner = puzzle.endpoint_colour()
        self.colours = {
            node: {number[k] for k, nodes in colour_domains.items() if node in nodes} for node in puzzle.nodes
        }
        for node, colour in owner.items():
            self.colours[node] = {number[colour]}
        dead = [node for node, values in self.colours.items() if not values]  # only under rules.blanks
        for node in dead:
            self.colours[node] = {-1}  # no colour: the node stays empty
        if puzzle.rules.blanks:
            true = model.new_constant(1)
            self.visited = {
                node: true if node in owner else model.new_bool_var(f"visited_{tag(node)}") for node in puzzle.nodes
            }
            for node in dead:
                model.add(self.visited[node] == 0)
        self.label = {
            node: model.new_int_var_from_domain(cp_model.Domain.from_values(sorted(values)), f"label_{tag(node)}")
            for node, values in self.colours.items()
        }
        starts = {pair[0] for pair in puzzle.endpoints.values()}
        ends = {pair[1] for pair in puzzle.endpoints.values()}
        for u, values in self.colours.items():
            deadline.check()
            for w in puzzle.neighbours[u]:
                if self.fixed.get((u, w) if u < w else (w, u)) is False:
                    continue
                if u not in ends and w not in starts and not values.isdisjoint(self.colours[w]):
                    self.arc[u, w] = model.new_bool_var(f"arc_{tag(u)}_{tag(w)}")

    def make_joined(self, model: cp_model.CpModel) -> None:
        """`joined[u, w]` (u < w): a path steps between u and w, in either direction."""
        self.joined: dict[tuple[Node, Node], cp_model.IntVar] = {}
        true = model.new_constant(1)
        for u, w in self.arc:
            self.deadline.check()
            if u < w or (w, u) not in self.arc:
                key = (u, w) if u < w else (w, u)
                joined = true if self.fixed.get(key) else model.new_bool_var(f"joined_{tag(key[0])}_{tag(key[1])}")
                model.add(sum(self.steps(*key)) == joined)
                self.joined[key] = joined

    def on_path(self, *nodes: Node) -> list[cp_model.IntVar]:
        """Literals true when every one of `nodes` lies on a path (none, unless blanks are allowed)."""
        return [self.visited[node] for node in nodes if self.visited]

    def steps(self, u: Node, w: Node) -> list[cp_model.IntVar]:
        """The arcs between u and w, in either direction, that the model has."""
        return [self.arc[key] for key in ((u, w), (w, u)) if key in self.arc]

    def same_as(self, solution: Solution) -> list[cp_model.IntVar]:
        """Literals all true exactly when the tour uses every step of `solution`'s paths."""
        return [self.arc[step] for path in solution.paths.values() for step in zip(path, path[1:], strict=False)]

    def order(self, k: int) -> list[cp_model.IntVar]:
        """The `joined` literals along the board's diagonals from corner k of `CORNERS` (k mod 4)."""
        flip_rows, flip_cols = CORNERS[k % len(CORNERS)]
        height = 1 + max(node[0] for node in self.puzzle.nodes)
        width = 1 + max(node[1] for node in self.puzzle.nodes)

        def place(node: Node) -> tuple[int, int]:
            row = height - 1 - node[0] if flip_rows else node[0]
            col = width - 1 - node[1] if flip_cols else node[1]
            return row + col, row

        keys = sorted(self.joined, key=lambda key: (place(key[0]), key[0], place(key[1]), key[1]))
        return [self.joined[key] for key in keys]

    def extract(self, solver: cp_model.CpSolver) -> Solution:
        """The paths, read by following the true arcs from each colour's start."""
        return walk(self.puzzle, {u: (w,) for (u, w), lit in self.arc.items() if solver.boolean_value(lit)})


def add_tour(model: cp_model.CpModel, v: LabelVars) -> None:
    """Every node lies on one path; paths close into one tour, so no path can loop."""
    index = {node: i for i, node in enumerate(v.puzzle.nodes)}
    arcs: list[cp_model.ArcT] = [(index[a], index[b], lit) for (a, b), lit in v.arc.items()]
    pairs = list(v.puzzle.endpoints.values())
    true = model.new_constant(1)
    arcs += [(index[end], index[pairs[(i + 1) % len(pairs)][0]], true) for i, (_, end) in enumerate(pairs)]
    arcs += [(index[u], index[u], ~visited) for u, visited in v.visited.items() if u not in v.puzzle.endpoint_colour()]
    model.add_circuit(arcs)


def add_colour_flow(model: cp_model.CpModel, v: LabelVars) -> None:
    """A path keeps its colour: an arc u -> w carries u's label to w."""
    for (u, w), arc in v.arc.items():
        v.deadline.check()
        model.add(v.label[u] == v.label[w]).only_enforce_if(arc)


def add_no_self_touch(model: cp_model.CpModel, v: LabelVars) -> None:
    """Neighbours joined by no step of a path have different colours (when both lie on paths)."""
    if v.puzzle.rules.touch:
        return
    label, on_path = v.label, v.on_path if v.visited else (lambda *nodes: [])
    for (u, w), joined in v.joined.items():
        v.deadline.check()
        model.add(label[u] != label[w]).only_enforce_if(~joined, *on_path(u, w))
    for u, values in v.colours.items():
        v.deadline.check()
        for w in v.puzzle.neighbours[u]:
            if u < w and (u, w) not in v.joined and not values.isdisjoint(v.colours[w]):
                model.add(label[u] != label[w]).only_enforce_if(*on_path(u, w))


def add_degrees(model: cp_model.CpModel, v: LabelVars) -> None:
    """Redundant: an endpoint is joined to one neighbour, any other node on a path to two."""
    owner = v.puzzle.endpoint_colour()
    touching: dict[Node, list] = {}
    for (u, w), joined in v.joined.items():
        touching.setdefault(u, []).append(joined)
        touching.setdefault(w, []).append(joined)
    for node in v.puzzle.nodes:
        v.deadline.check()
        degree = 1 if node in owner else 2 * v.visited[node] if v.visited else 2
        model.add(sum(touching.get(node, [])) == degree)


def add_ring_limits(model: cp_model.CpModel, v: LabelVars) -> None:
    """Redundant: a path takes at most all but two sides of a short cycle (`rings`).

    Taking all but one side would leave the ring's two ends neighbours of one colour
    that are not consecutive: a path touching itself. Where paths may touch, only the
    whole ring (a loop) is ruled out.
    """
    spare = 1 if v.puzzle.rules.touch else 2
    for ring in rings(v.puzzle):
        v.deadline.check()
        sides = [(a, b) if a < b else (b, a) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
        model.add(sum(v.joined[side] for side in sides if side in v.joined) <= len(ring) - spare)


def add_dead_turns(model: cp_model.CpModel, v: LabelVars, dead: list[tuple[Node, Node, Node]]) -> None:
    """Redundant: no path turns at p through a and b where `forced.dead_turns` shows it would
    force a chain of turns that ends where no turn is possible (models/forced.md)."""
    for p, a, b in dead:
        v.deadline.check()
        first, second = (v.joined.get((p, w) if p < w else (w, p)) for w in (a, b))
        if first is not None and second is not None:
            model.add_bool_or([~first, ~second])


def add_play(model: cp_model.CpModel, v: LabelVars) -> None:
    """A drawn node (the play's) keeps its colour (and lies on a path)."""
    for node, colour in v.puzzle.drawn.items():
        model.add(v.label[node] == v.number[colour])
        model.add_bool_and(v.on_path(node))


def add_quiet_blanks(model: cp_model.CpModel, v: LabelVars) -> None:
    """An empty node takes its lowest label, so that one board is one assignment (for counting)."""
    for node, visited in v.visited.items():
        if node not in v.puzzle.endpoint_colour():
            model.add(v.label[node] == min(v.colours[node])).only_enforce_if(~visited)


def build(
    puzzle: Puzzle, deadline: Deadline = NEVER, root: Partial | None = None
) -> tuple[cp_model.CpModel, LabelVars]:
    """The label model of a puzzle, on what the front end settled (`root`: fixed edges and
    colour domains) or else on pruning's domains; infeasible at once if pruning shows no
    solution exists. OutOfTime when the deadline passes first."""
    model = cp_model.CpModel()
    fixed, colour_domains = root.decided() if root else ({}, domains(puzzle, deadline))
    v = LabelVars(model, puzzle, colour_domains, deadline, fixed)
    dead = root.g.dead(deadline) if root else dead_turns(puzzle, deadline) if applies(puzzle) else []
    if v.reason:
        model.add_bool_or([])  # the empty clause: proven unsolvable without search
        return model, v
    v.make_joined(model)
    add_tour(model, v)
    add_colour_flow(model, v)
    add_no_self_touch(model, v)
    add_degrees(model, v)
    add_ring_limits(model, v)
    add_dead_turns(model, v, dead)
    add_play(model, v)
    add_quiet_blanks(model, v)
    add_search_order(model, v)
    return model, v


def add_search_order(model: cp_model.CpModel, v: LabelVars) -> None:
    """Search order: decide steps along the board's diagonals from a corner, taking each first,
    as the fast backtracking searches do (CP-SAT follows it under PARTIAL_FIXED_SEARCH, then
    searches as it would; models/label.md). The model gets the order from the first corner;
    racing workers ask `v.order(k)` for the others."""
    model.add_decision_strategy(v.order(0), cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)


CORNERS = ((False, False), (True, False), (True, True), (False, True))  # top left, bottom left, bottom right, top right

"""The ILP engine: the puzzle as a 0-1 integer program in PuLP, solved by CBC or HiGHS.

See models/ilp.md. Each colour k has a binary `x[k, u]` per node it may use and a
binary `edge[k, a, b]` per pair of neighbouring nodes it may join; degree constraints
make each colour a path from its start to its end plus, perhaps, loops of its own.
Loops are ruled out either by a single-commodity flow from the starts (`"flow"`,
complete on its own) or by cuts added after each solve that found some (`"lazy"`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

# ortools bundles HiGHS as libhighs.so.1, the soname of highspy's own copy: whichever
# loads first serves both, and each breaks on another HiGHS version. Loading ortools
# before pulp (which imports highspy) keeps the CP-SAT engine working in this process;
# highspy then loads only if its HiGHS is the one ortools bundles (1.12 for ortools 9.15).
import ortools.sat.python.cp_model_helper  # noqa: F401, I001
import pulp

from cpflow.board.grid import Colour, Node, Puzzle, Solution, rings, tag
from cpflow.board.paths import reach, walk
from cpflow.clock import NEVER, Deadline, OutOfTime
from cpflow.deduce.rules import Partial
from cpflow.engines import mip
from cpflow.engines.base import Answer
from cpflow.engines.prune import domains, impossibility
from cpflow.errors import CpflowError, EngineUnavailable, SolverFailed
from cpflow.results import Status

Value = Callable[[pulp.LpVariable], float]  # the value a solved model gives a variable
MIP_SOLVERS = ("cbc", "highs")
CONNECTIVITY = ("flow", "lazy")
DEFAULT_CONNECTIVITY = "lazy"  # measured faster with both solvers (models/ilp.md)
# pulp's (status, sol_status) pairs; (Optimal, IntegerFeasible) is a solution found
# before a time limit, which is all a puzzle asks. Anything else (unbounded,
# undefined) is a bug in the model or the backend.
STATUS = {
    (pulp.LpStatusOptimal, pulp.LpSolutionOptimal): Status.SOLVED,
    (pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible): Status.SOLVED,
    (pulp.LpStatusInfeasible, pulp.LpSolutionInfeasible): Status.UNSOLVABLE,
    (pulp.LpStatusInfeasible, pulp.LpSolutionNoSolutionFound): Status.UNSOLVABLE,  # CBC: "Integer infeasible"
    (pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound): Status.UNKNOWN,
}


class IlpVars:
    """The model's binaries, named by colour index and node so that LP and MPS files accept them."""

    def __init__(
        self,
        prob: pulp.LpProblem,
        puzzle: Puzzle,
        colour_domains: dict[Colour, frozenset[Node]],
        deadline: Deadline = NEVER,
    ):
        self.puzzle, self.domains, self.deadline = puzzle, colour_domains, deadline
        self.connectivity = DEFAULT_CONNECTIVITY  # how `build` rules loops out
        self.reason: str | None = impossibility(puzzle, colour_domains)
        self.x: dict[tuple[Colour, Node], pulp.LpVariable] = {}
        self.edge: dict[tuple[Colour, Node, Node], pulp.LpVariable] = {}
        self.flow: dict[tuple[Node, Node], pulp.LpVariable] = {}
        for i, (colour, nodes) in enumerate(colour_domains.items()):
            for a in sorted(nodes):
                deadline.check()
                if a not in puzzle.endpoints[colour]:
                    self.x[colour, a] = prob.add_variable(f"x_{i}_{tag(a)}", cat=pulp.LpBinary)
                for b in puzzle.neighbours[a]:
                    if b in nodes and a < b:
                        name = f"edge_{i}_{tag(a)}_{tag(b)}"
                        self.edge[colour, a, b] = prob.add_variable(name, cat=pulp.LpBinary)

    def covers(self, colour: Colour, node: Node) -> pulp.LpVariable | int:
        """'node has this colour': a binary, or the constant 1 at the colour's own endpoints."""
        return self.x.get((colour, node), 1)

    def edges_at(self, colour: Colour, node: Node) -> list[pulp.LpVariable]:
        return [
            self.edge[key] for b in self.puzzle.neighbours[node] if (key := _edge_key(colour, node, b)) in self.edge
        ]

    def joined(self, a: Node, b: Node) -> list[tuple[Colour, pulp.LpVariable]]:
        """The edge binaries of every colour between neighbours a and b."""
        found = ((k, _edge_key(k, a, b)) for k in self.domains)
        return [(k, self.edge[key]) for k, key in found if key in self.edge]

    def same_as(self, solution: Solution) -> list[pulp.LpVariable]:
        """Binaries all 1 exactly when every path takes the steps it takes in `solution`, so that
        `lpSum(same_as(s)) <= len(same_as(s)) - 1` excludes exactly the solution s."""
        return [self.edge[_edge_key(k, a, b)] for k, path in solution.paths.items() for a, b in pairwise(path)]

    def steps(self, value: Value) -> dict[Node, list[Node]]:
        """Each node's neighbours joined to it in the answer, whatever the colour."""
        nxt: dict[Node, list[Node]] = {node: [] for node in self.puzzle.nodes}
        for (_, a, b), var in self.edge.items():
            if value(var) > 0.5:
                nxt[a].append(b)
                nxt[b].append(a)
        return nxt

    def extract(self, value: Value) -> Solution:
        """The paths, read by walking the joined edges from each colour's start."""
        return walk(self.puzzle, self.steps(value))

    def joined_edges(self, value: Value) -> dict[Colour, list[tuple[Node, Node]]]:
        """Each colour's joined edges in the answer."""
        found: dict[Colour, list[tuple[Node, Node]]] = {colour: [] for colour in self.puzzle.colours}
        for (colour, a, b), var in self.edge.items():
            if value(var) > 0.5:
                found[colour].append((a, b))
        return found

    def loops(self, value: Value) -> list[frozenset[Node]]:
        """The nodes of each loop in the answer: joined nodes that no path from an endpoint reaches."""
        nxt = self.steps(value)
        seen = reach(self.puzzle.endpoint_colour(), nxt)
        found = []
        for node in self.puzzle.nodes:
            if node not in seen and nxt[node]:
                loop = reach([node], nxt)
                seen |= loop
                found.append(frozenset(loop))
        return found


def _edge_key(colour: Colour, a: Node, b: Node) -> tuple[Colour, Node, Node]:
    return (colour, a, b) if a < b else (colour, b, a)


def add_one_colour_per_cell(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Every node is covered by exactly one path, at most one where blanks are allowed
    (an endpoint's colour is fixed: it has no binary)."""
    owner = v.puzzle.endpoint_colour()
    for node in v.puzzle.nodes:
        v.deadline.check()
        colours = [v.x[k, node] for k in v.domains if (k, node) in v.x]
        if node in owner or not colours:
            continue
        if v.puzzle.rules.blanks:
            prob += pulp.lpSum(colours) <= 1, f"colour_{tag(node)}"
        else:
            prob += pulp.lpSum(colours) == 1, f"colour_{tag(node)}"


def add_play(prob: pulp.LpProblem, v: IlpVars) -> None:
    """A drawn node (the play's) keeps its colour."""
    for node, colour in v.puzzle.drawn.items():
        if (colour, node) in v.x:
            prob += v.x[colour, node] == 1, f"drawn_{tag(node)}"


def add_degrees(prob: pulp.LpProblem, v: IlpVars) -> None:
    """A path leaves its endpoints once and passes through its other cells: degree 1 and 2."""
    for i, (colour, nodes) in enumerate(v.domains.items()):
        for node in sorted(nodes):
            v.deadline.check()
            degree = 1 if node in v.puzzle.endpoints[colour] else 2 * v.covers(colour, node)
            prob += pulp.lpSum(v.edges_at(colour, node)) == degree, f"degree_{i}_{tag(node)}"


def add_no_self_touch(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Two neighbouring nodes of one colour are consecutive on its path (unless paths may touch)."""
    if v.puzzle.rules.touch:
        return
    for (colour, a, b), edge in v.edge.items():
        v.deadline.check()
        prob += v.covers(colour, a) + v.covers(colour, b) - 1 <= edge, f"touch_{edge.name}"


def add_ring_limits(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Round a triangle or a 2x2 block at most all but 2 sides are joined (redundant, but it tightens the LP a lot).

    One side fewer would leave the ends neighbours of one colour that are not
    consecutive, which no-self-touch forbids; every side would be a loop (all that
    is left to forbid where paths may touch).
    """
    spare = 1 if v.puzzle.rules.touch else 2
    for i, ring in enumerate(rings(v.puzzle, longest=4)):
        v.deadline.check()
        sides = [e for a, b in zip(ring, ring[1:] + ring[:1], strict=True) for _, e in v.joined(a, b)]
        prob += pulp.lpSum(sides) <= len(ring) - spare, f"ring_{i}"


def add_fixed(prob: pulp.LpProblem, v: IlpVars, fixed: dict[tuple[Node, Node], bool]) -> None:
    """What the front end settled: a step every solution takes is taken by one colour, a step none
    takes by no colour (as bounds, which the solver's presolve removes at once)."""
    for (a, b), taken in fixed.items():
        edges = [e for _, e in v.joined(a, b)]
        if not taken:
            for edge in edges:
                edge.upBound = 0
        elif len(edges) == 1:
            edges[0].lowBound = 1
        else:  # more colours may take it (or none: the front end would have said unsolvable)
            prob += pulp.lpSum(edges) == 1, f"fixed_{tag(a)}_{tag(b)}"


def add_flow(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Every cell of a path is fed one unit from its start, so a loop (with no start) cannot exist.

    `flow[a, b]` may run only along a joined edge, at most the colour's cell count minus 1.
    Summed round a loop, inflow minus outflow would be 0, yet each of its cells takes 1.
    """
    starts = {pair[0] for pair in v.puzzle.endpoints.values()}
    ends = {pair[1] for pair in v.puzzle.endpoints.values()}
    for a in v.puzzle.nodes:
        v.deadline.check()
        for b in v.puzzle.neighbours[a]:
            edges = v.joined(a, b)
            if edges and b not in starts and a not in ends:
                var = v.flow[a, b] = prob.add_variable(f"flow_{tag(a)}_{tag(b)}", lowBound=0)
                prob += var <= pulp.lpSum((len(v.domains[k]) - 1) * e for k, e in edges), f"carry_{var.name}"
    net: dict[Node, list] = {node: [] for node in v.puzzle.nodes}
    for (a, b), var in v.flow.items():
        net[b].append(var)
        net[a].append(-var)
    for node, terms in net.items():
        covered = [v.x[k, node] for k in v.domains if (k, node) in v.x] if v.puzzle.rules.blanks else [1]
        if node not in starts and (terms or covered):
            prob += pulp.lpSum(terms) == (1 if node in ends else pulp.lpSum(covered)), f"feed_{tag(node)}"


def add_loop_cuts(prob: pulp.LpProblem, v: IlpVars, loops: list[frozenset[Node]], first: int = 0) -> None:
    """The nodes of a loop found in an answer are never again joined into a loop.

    Paths form a forest, so any set S of nodes has at most |S| - 1 joined edges inside
    it, whatever their colours; a loop on S has |S|. Cuts are numbered from `first`:
    two loops may share their first node and length, never their number.
    """
    for n, loop in enumerate(loops, first):
        inside = [e for a in loop for b in v.puzzle.neighbours[a] if b in loop and a < b for _, e in v.joined(a, b)]
        prob += pulp.lpSum(inside) <= len(loop) - 1, f"loop_{n}"  # a cut loop never returns


def add_exclusions(prob: pulp.LpProblem, v: IlpVars, exclude: Sequence[Solution]) -> None:
    """None of the excluded solutions may be returned: some path takes another step."""
    for n, solution in enumerate(exclude):
        same = v.same_as(solution)
        prob += pulp.lpSum(same) <= len(same) - 1, f"exclude_{n}"


def add_false(prob: pulp.LpProblem, why: str) -> None:
    """A constraint no assignment meets: the model says 'unsolvable' to any solver that reads it."""
    prob += prob.add_variable(f"{why}_var", 0, 0) >= 1, why


def build(
    puzzle: Puzzle, connectivity: str = DEFAULT_CONNECTIVITY, deadline: Deadline = NEVER, root: Partial | None = None
) -> tuple[pulp.LpProblem, IlpVars]:
    """The model of a puzzle, on what the front end settled (`root`) or else on pruning's domains;
    with "lazy" connectivity it lacks loop cuts until `solve` adds them. OutOfTime when the
    deadline passes first."""
    if connectivity not in CONNECTIVITY:
        raise CpflowError(f"unknown connectivity {connectivity!r}; choose from {', '.join(CONNECTIVITY)}")
    prob = pulp.LpProblem("cpflow", pulp.LpMinimize)  # no objective: any solution will do
    fixed, colour_domains = root.decided() if root else ({}, domains(puzzle, deadline))
    v = IlpVars(prob, puzzle, colour_domains, deadline)
    v.connectivity = connectivity
    if v.reason:
        add_false(prob, "proven_unsolvable")
        return prob, v
    add_one_colour_per_cell(prob, v)
    add_degrees(prob, v)
    add_no_self_touch(prob, v)
    add_ring_limits(prob, v)
    add_play(prob, v)
    add_fixed(prob, v, fixed)
    if connectivity == "flow":
        add_flow(prob, v)
    return prob, v


def available(mip_solver: str = "cbc") -> bool:
    """Whether PuLP can run the MIP solver here."""
    return mip_solver in available_mip_solvers()


def available_mip_solvers() -> tuple[str, ...]:
    """The MIP solvers PuLP can run here: CBC (bundled with PuLP), HiGHS (when highspy imports)."""
    found = {"cbc": pulp.PULP_CBC_CMD(msg=False).available(), "highs": pulp.HiGHS(msg=False).available()}
    return tuple(name for name in MIP_SOLVERS if found[name])


def search(
    built: tuple[pulp.LpProblem, IlpVars],
    deadline: Deadline,
    *,
    exclude: Sequence[Solution] = (),
    workers: int | None = None,
    mip_solver: str = "cbc",
    on_round: Callable[[dict[Colour, list[tuple[Node, Node]]]], None] | None = None,
    **params,
) -> Answer:
    """Solve with a MIP solver ("cbc" or "highs"), finding none of the `exclude`d solutions.

    `params` go to the PuLP solver (e.g. gapRel=0.1 for CBC, or any HiGHS option by name).
    `on_round` sees each round's answer, loops and all, as each colour's joined edges (for
    pictures of the cuts at work).
    """
    if mip_solver not in available_mip_solvers():
        known = f"available: {', '.join(available_mip_solvers())}"
        if mip_solver == "highs":
            known += " (HiGHS needs highspy built on the HiGHS version that ortools bundles)"
        raise EngineUnavailable(f"MIP solver {mip_solver!r} is not available to the ilp engine; {known}")
    prob, v = built
    stats: dict = {"mip_solver": mip_solver, "connectivity": v.connectivity, "rounds": 0, "cuts": 0}
    add_exclusions(prob, v, exclude)
    if v.reason:
        status, stats["reason"] = Status.UNSOLVABLE, v.reason
    else:
        solver = lambda: mip.solver(mip_solver, deadline, workers, params)  # noqa: E731
        status = _solve_rounds(prob, v, stats, solver, deadline, on_round)
    return Answer(status, v.extract(_value) if status is Status.SOLVED else None, stats)


def _solve_rounds(
    prob: pulp.LpProblem,
    v: IlpVars,
    stats: dict,
    solver: Callable[[], pulp.LpSolver],
    deadline: Deadline,
    on_round,
) -> Status:
    """Solves until an answer has no loop (at once with flow connectivity), cutting off each loop
    found; UNKNOWN when the deadline passes first, also while the model is handed to the solver."""
    while True:
        left = deadline.left()
        if left == 0:
            return Status.UNKNOWN
        try:
            prob.solve(solver())
        except OutOfTime:
            return Status.UNKNOWN
        stats["rounds"] += 1
        status = status_of(prob, timed=left is not None)
        if on_round and status is Status.SOLVED:
            on_round(v.joined_edges(_value))
        loops = v.loops(_value) if status is Status.SOLVED else []
        if not loops:
            return status
        add_loop_cuts(prob, v, loops, first=stats["cuts"])
        stats["cuts"] += len(loops)


def _value(var: pulp.LpVariable) -> float:
    return var.varValue or 0.0


def status_of(prob: pulp.LpProblem, timed: bool) -> Status:
    """Our Status for pulp's; a stop without an answer is UNKNOWN only when a time limit was set."""
    status = STATUS.get((prob.status, prob.sol_status))
    if status is None or (status is Status.UNKNOWN and not timed):
        native = f"{pulp.LpStatus.get(prob.status)} / {pulp.LpSolution.get(prob.sol_status)}"
        raise SolverFailed(f"the MIP solver returned {native}")
    return status


def export(puzzle: Puzzle, path: str | Path, mip_solver: str = "cbc") -> None:
    """Writes the model as an .mps file, or else an .lp file (the pipeline checks the suffix),
    the same for every `mip_solver`.

    The file holds the flow formulation, which is complete on its own: the lazy one would
    lack the loop cuts that only its re-solve loop adds. Variables are named by colour
    index (`x_K_ROW_COL`, `edge_K_ROW_COL_ROW_COL`, `flow_ROW_COL_ROW_COL`), in the
    order of `puzzle.colours`; `read_solution` maps a solver's values back to paths.
    """
    prob, _ = build(puzzle, "flow")
    write = pulp.LpProblem.writeMPS if Path(path).suffix.lower() == ".mps" else pulp.LpProblem.writeLP
    write(prob, str(path))


def read_solution(puzzle: Puzzle, values: dict[str, float]) -> Solution:
    """The paths that variable values (by name, as in an exported file) describe; not verified."""
    v = IlpVars(pulp.LpProblem(), puzzle, domains(puzzle))
    return v.extract(lambda var: values.get(var.name, 0.0))

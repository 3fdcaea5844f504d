"""The ILP engine: the puzzle as a 0-1 integer program in PuLP, solved by CBC or HiGHS.

See models/ilp.md. Each colour k has a binary `x[k, u]` per cell it may use and a
binary `edge[k, a, b]` per pair of neighbouring cells it may join; degree constraints
make each colour a path from its start to its end plus, perhaps, loops of its own.
Loops are ruled out either by a single-commodity flow from the starts (`"flow"`,
complete on its own) or by cuts added after each solve that found some (`"lazy"`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

# ortools bundles HiGHS as libhighs.so.1, the soname of highspy's own copy: whichever
# loads first serves both, and each breaks on another HiGHS version. Loading ortools
# before pulp (which imports highspy) keeps the CP-SAT engine working in this process;
# highspy then loads only if its HiGHS is the one ortools bundles (1.12 for ortools 9.15).
import ortools.sat.python.cp_model_helper  # noqa: F401, I001
import pulp

from cpflow.errors import CpflowError, EngineUnavailable
from cpflow.grid import RING_SHAPES, Cell, Colour, Puzzle, Solution, rings
from cpflow.prune import domains, impossibility
from cpflow.result import SolveResult, Status, checked

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
    """The model's binaries, named by colour index and cell so that LP and MPS files accept them."""

    def __init__(self, prob: pulp.LpProblem, puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Cell]]):
        self.puzzle, self.domains = puzzle, colour_domains
        self.reason: str | None = impossibility(puzzle, colour_domains)
        self.x: dict[tuple[Colour, Cell], pulp.LpVariable] = {}
        self.edge: dict[tuple[Colour, Cell, Cell], pulp.LpVariable] = {}
        self.flow: dict[tuple[Cell, Cell], pulp.LpVariable] = {}
        for i, (colour, cells) in enumerate(colour_domains.items()):
            for a in sorted(cells):
                if a not in puzzle.endpoints[colour]:
                    self.x[colour, a] = prob.add_variable(f"x_{i}_{_name(a)}", cat=pulp.LpBinary)
                for b in puzzle.neighbours[a]:
                    if b in cells and a < b:
                        name = f"edge_{i}_{_name(a)}_{_name(b)}"
                        self.edge[colour, a, b] = prob.add_variable(name, cat=pulp.LpBinary)

    def covers(self, colour: Colour, cell: Cell) -> pulp.LpVariable | int:
        """'cell has this colour': a binary, or the constant 1 at the colour's own endpoints."""
        return self.x.get((colour, cell), 1)

    def edges_at(self, colour: Colour, cell: Cell) -> list[pulp.LpVariable]:
        return [
            self.edge[key] for b in self.puzzle.neighbours[cell] if (key := _edge_key(colour, cell, b)) in self.edge
        ]

    def joined(self, a: Cell, b: Cell) -> list[tuple[Colour, pulp.LpVariable]]:
        """The edge binaries of every colour between neighbours a and b."""
        found = ((k, _edge_key(k, a, b)) for k in self.domains)
        return [(k, self.edge[key]) for k, key in found if key in self.edge]

    def same_as(self, solution: Solution) -> list[pulp.LpVariable]:
        """Binaries all 1 exactly when each non-endpoint cell has its colour in `solution`.

        The colouring fixes the paths (a path cannot touch itself), so
        `lpSum(same_as(s)) <= len(same_as(s)) - 1` excludes exactly the solution s.
        """
        return [self.x[k, cell] for k, path in solution.paths.items() for cell in path[1:-1]]

    def steps(self, value: Value) -> dict[Cell, list[Cell]]:
        """Each cell's neighbours joined to it in the answer, whatever the colour."""
        nxt: dict[Cell, list[Cell]] = {cell: [] for cell in self.puzzle.cells}
        for (_, a, b), var in self.edge.items():
            if value(var) > 0.5:
                nxt[a].append(b)
                nxt[b].append(a)
        return nxt

    def extract(self, value: Value) -> Solution:
        """The paths, read by walking the joined edges from each colour's start."""
        nxt = self.steps(value)
        paths = {}
        for colour, (start, end) in self.puzzle.endpoints.items():
            path = [start]
            while path[-1] != end and len(path) <= len(self.puzzle.cells):
                ahead = [c for c in nxt[path[-1]] if len(path) < 2 or c != path[-2]]
                if not ahead:
                    break  # a broken answer: the verifier will say what is wrong
                path.append(ahead[0])
            paths[colour] = tuple(path)
        return Solution(paths)

    def loops(self, value: Value) -> list[frozenset[Cell]]:
        """The cells of each loop in the answer: joined cells that no path from an endpoint reaches."""
        nxt = self.steps(value)
        seen = set(self.puzzle.endpoint_colour())
        _reach(nxt, list(seen), seen)
        found = []
        for cell in self.puzzle.cells:
            if cell not in seen and nxt[cell]:
                loop = {cell}
                _reach(nxt, [cell], loop)
                seen |= loop
                found.append(frozenset(loop))
        return found


def _name(cell: Cell) -> str:
    return f"{cell[0]}_{cell[1]}"


def _edge_key(colour: Colour, a: Cell, b: Cell) -> tuple[Colour, Cell, Cell]:
    return (colour, a, b) if a < b else (colour, b, a)


def _reach(nxt: dict[Cell, list[Cell]], stack: list[Cell], seen: set[Cell]) -> None:
    """Adds to `seen` every cell joined, step by step, to a cell on the stack."""
    while stack:
        for b in nxt[stack.pop()]:
            if b not in seen:
                seen.add(b)
                stack.append(b)


def add_one_colour_per_cell(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Every cell is covered by exactly one path (an endpoint's colour is fixed: it has no binary)."""
    owner = v.puzzle.endpoint_colour()
    for cell in v.puzzle.cells:
        if cell not in owner:
            prob += pulp.lpSum(v.x[k, cell] for k in v.domains if (k, cell) in v.x) == 1, f"colour_{_name(cell)}"


def add_degrees(prob: pulp.LpProblem, v: IlpVars) -> None:
    """A path leaves its endpoints once and passes through its other cells: degree 1 and 2."""
    for i, (colour, cells) in enumerate(v.domains.items()):
        for cell in sorted(cells):
            degree = 1 if cell in v.puzzle.endpoints[colour] else 2 * v.covers(colour, cell)
            prob += pulp.lpSum(v.edges_at(colour, cell)) == degree, f"degree_{i}_{_name(cell)}"


def add_no_self_touch(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Two neighbouring cells of one colour are consecutive on its path."""
    for (colour, a, b), edge in v.edge.items():
        prob += v.covers(colour, a) + v.covers(colour, b) - 1 <= edge, f"touch_{edge.name}"


def add_ring_limits(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Round a 2x2 block of cells at most 2 sides are joined (redundant, but it tightens the LP a lot).

    3 joined sides would leave the cells of the fourth side neighbours of one colour that
    are not consecutive, which no-self-touch forbids; 4 would be a loop.
    """
    for ring in rings(v.puzzle, RING_SHAPES[:1]):
        sides = [e for a, b in zip(ring, ring[1:] + ring[:1], strict=True) for _, e in v.joined(a, b)]
        prob += pulp.lpSum(sides) <= 2, f"ring_{_name(ring[0])}"


def add_flow(prob: pulp.LpProblem, v: IlpVars) -> None:
    """Every cell of a path is fed one unit from its start, so a loop (with no start) cannot exist.

    `flow[a, b]` may run only along a joined edge, at most the colour's cell count minus 1.
    Summed round a loop, inflow minus outflow would be 0, yet each of its cells takes 1.
    """
    starts = {pair[0] for pair in v.puzzle.endpoints.values()}
    ends = {pair[1] for pair in v.puzzle.endpoints.values()}
    for a in v.puzzle.cells:
        for b in v.puzzle.neighbours[a]:
            edges = v.joined(a, b)
            if edges and b not in starts and a not in ends:
                var = v.flow[a, b] = prob.add_variable(f"flow_{_name(a)}_{_name(b)}", lowBound=0)
                prob += var <= pulp.lpSum((len(v.domains[k]) - 1) * e for k, e in edges), f"carry_{var.name}"
    net: dict[Cell, list] = {cell: [] for cell in v.puzzle.cells}
    for (a, b), var in v.flow.items():
        net[b].append(var)
        net[a].append(-var)
    for cell, terms in net.items():
        if cell not in starts:
            prob += pulp.lpSum(terms) == 1, f"feed_{_name(cell)}"


def add_loop_cuts(prob: pulp.LpProblem, v: IlpVars, loops: list[frozenset[Cell]]) -> None:
    """The cells of a loop found in an answer are never again joined into a loop.

    Paths form a forest, so any set S of cells has at most |S| - 1 joined edges inside
    it, whatever their colours; a loop on S has |S|.
    """
    for loop in loops:
        inside = [e for a in loop for b in v.puzzle.neighbours[a] if b in loop and a < b for _, e in v.joined(a, b)]
        prob += pulp.lpSum(inside) <= len(loop) - 1, f"loop_{_name(min(loop))}_{len(loop)}"  # a cut loop never returns


def add_exclusions(prob: pulp.LpProblem, v: IlpVars, exclude: Sequence[Solution]) -> None:
    """None of the excluded solutions may be returned: some cell takes another colour."""
    for n, solution in enumerate(exclude):
        same = v.same_as(solution)
        prob += pulp.lpSum(same) <= len(same) - 1, f"exclude_{n}"


def add_false(prob: pulp.LpProblem, why: str) -> None:
    """A constraint no assignment meets: the model says 'unsolvable' to any solver that reads it."""
    prob += prob.add_variable(f"{why}_var", 0, 0) >= 1, why


def build(puzzle: Puzzle, connectivity: str = DEFAULT_CONNECTIVITY) -> tuple[pulp.LpProblem, IlpVars]:
    """The model of a puzzle; with "lazy" connectivity it lacks loop cuts until `solve` adds them."""
    if connectivity not in CONNECTIVITY:
        raise CpflowError(f"unknown connectivity {connectivity!r}; choose from {', '.join(CONNECTIVITY)}")
    prob = pulp.LpProblem("cpflow", pulp.LpMinimize)  # no objective: any solution will do
    v = IlpVars(prob, puzzle, domains(puzzle))
    if v.reason:
        add_false(prob, "proven_unsolvable")
        return prob, v
    add_one_colour_per_cell(prob, v)
    add_degrees(prob, v)
    add_no_self_touch(prob, v)
    add_ring_limits(prob, v)
    if connectivity == "flow":
        add_flow(prob, v)
    return prob, v


def available_mip_solvers() -> tuple[str, ...]:
    """The MIP solvers PuLP can run here: CBC (bundled with PuLP), HiGHS (when highspy imports)."""
    found = {"cbc": pulp.PULP_CBC_CMD(msg=False).available(), "highs": pulp.HiGHS(msg=False).available()}
    return tuple(name for name in MIP_SOLVERS if found[name])


def _mip(name: str, time_limit: float | None, workers: int | None, params: dict) -> pulp.LpSolver:
    """The PuLP solver object for one solve; `params` are its own keyword arguments."""
    if name == "cbc":
        return pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, threads=workers, **params)
    if workers is not None:  # HiGHS keeps the thread pool of its first solve; another size fails unless reset
        import highspy

        highspy.Highs.resetGlobalScheduler(True)
    return pulp.HiGHS(msg=False, timeLimit=time_limit, threads=workers, **params)


def solve(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    exclude: Sequence[Solution] = (),
    mip_solver: str = "cbc",
    connectivity: str = DEFAULT_CONNECTIVITY,
    **params,
) -> SolveResult:
    """Solve with a MIP solver ("cbc" or "highs"), finding none of the `exclude`d solutions.

    `time_limit` covers building and every solve round; `params` go to the PuLP solver
    (e.g. gapRel=0.1 for CBC, or any HiGHS option by name).
    """
    if mip_solver not in available_mip_solvers():
        known = f"available: {', '.join(available_mip_solvers())}"
        if mip_solver == "highs":
            known += " (HiGHS needs highspy built on the HiGHS version that ortools bundles)"
        raise EngineUnavailable(f"MIP solver {mip_solver!r} is not available to the ilp engine; {known}")
    began = time.perf_counter()
    prob, v = build(puzzle, connectivity)
    add_exclusions(prob, v, exclude)
    built = time.perf_counter()
    stats: dict = {"mip_solver": mip_solver, "connectivity": connectivity, "rounds": 0, "cuts": 0}
    if v.reason:
        status, stats["reason"] = Status.UNSOLVABLE, v.reason
    else:
        deadline = None if time_limit is None else began + time_limit
        status = _solve_rounds(prob, v, stats, lambda left: _mip(mip_solver, left, workers, params), deadline)
    solution = v.extract(_value) if status is Status.SOLVED else None
    result = SolveResult(status, solution, time.perf_counter() - began, built - began, "ilp", stats)
    return checked(puzzle, result)


def _solve_rounds(
    prob: pulp.LpProblem, v: IlpVars, stats: dict, mip: Callable[[float | None], pulp.LpSolver], deadline
) -> Status:
    """Solves until an answer has no loop (at once with flow connectivity), cutting off each loop found."""
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return Status.UNKNOWN
        prob.solve(mip(left))
        stats["rounds"] += 1
        status = status_of(prob, timed=left is not None)
        loops = v.loops(_value) if status is Status.SOLVED else []
        if not loops:
            return status
        add_loop_cuts(prob, v, loops)
        stats["cuts"] += len(loops)


def _value(var: pulp.LpVariable) -> float:
    return var.varValue or 0.0


def status_of(prob: pulp.LpProblem, timed: bool) -> Status:
    """Our Status for pulp's; a stop without an answer is UNKNOWN only when a time limit was set."""
    status = STATUS.get((prob.status, prob.sol_status))
    if status is None or (status is Status.UNKNOWN and not timed):
        native = f"{pulp.LpStatus.get(prob.status)} / {pulp.LpSolution.get(prob.sol_status)}"
        raise CpflowError(f"the MIP solver returned {native}")
    return status


def export(puzzle: Puzzle, path: str | Path) -> None:
    """Writes the model as an .lp or .mps file, chosen by the suffix.

    The file holds the flow formulation, which is complete on its own: the lazy one would
    lack the loop cuts that only its re-solve loop adds. Variables are named by colour
    index (`x_K_ROW_COL`, `edge_K_ROW_COL_ROW_COL`, `flow_ROW_COL_ROW_COL`), in the
    order of `puzzle.colours`; `read_solution` maps a solver's values back to paths.
    """
    writers = {".lp": pulp.LpProblem.writeLP, ".mps": pulp.LpProblem.writeMPS}
    suffix = Path(path).suffix.lower()
    if suffix not in writers:
        raise CpflowError(f"cannot export to {str(path)!r}: the suffix must be .lp or .mps")
    prob, _ = build(puzzle, "flow")
    writers[suffix](prob, str(path))


def read_solution(puzzle: Puzzle, values: dict[str, float]) -> Solution:
    """The paths that variable values (by name, as in an exported file) describe; not verified."""
    v = IlpVars(pulp.LpProblem(), puzzle, domains(puzzle))
    return v.extract(lambda var: values.get(var.name, 0.0))

"""The reference CP-SAT formulation: one circuit per colour (see models/cpsat.md).

Each colour k gets a boolean `on[k, cell]` per cell it may use and an arc boolean
`arc[k, u, v]` per directed step between neighbouring cells; one `add_circuit` per
colour makes its arcs a single path from start to end, closed into a circuit by a
fixed arc end -> start.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cpflow.grid import Cell, Colour, Puzzle, Solution
from cpflow.prune import domains, impossibility


class CircuitVars:
    """The model's literals, with the questions the constraints and the reader ask of them."""

    def __init__(self, model: cp_model.CpModel, puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Cell]]):
        self.puzzle, self.domains = puzzle, colour_domains
        self.reason: str | None = None  # why the puzzle is unsolvable, when pruning alone shows it
        self.true = model.new_bool_var("true")
        model.add_bool_or([self.true])
        self.on: dict[tuple[Colour, Cell], cp_model.IntVar] = {}
        self.arcs: dict[tuple[Colour, Cell, Cell], cp_model.IntVar] = {}
        for colour, cells in colour_domains.items():
            start, end = puzzle.endpoints[colour]
            for u in sorted(cells):
                if u not in (start, end):
                    self.on[colour, u] = model.new_bool_var(f"on_{colour}_{u[0]}_{u[1]}")
                for v in puzzle.neighbours[u]:
                    if v in cells and u != end and v != start:
                        self.arcs[colour, u, v] = model.new_bool_var(f"arc_{colour}_{u[0]}_{u[1]}_{v[0]}_{v[1]}")

    def covers(self, colour: Colour, cell: Cell) -> cp_model.IntVar:
        """The literal 'cell has this colour' (the constant true for the colour's endpoints)."""
        return self.on.get((colour, cell), self.true)

    def steps(self, colour: Colour, u: Cell, v: Cell) -> list[cp_model.IntVar]:
        """The arc literals between u and v in either direction that the model has."""
        return [self.arcs[key] for key in ((colour, u, v), (colour, v, u)) if key in self.arcs]

    def same_as(self, solution: Solution) -> list[cp_model.IntVar]:
        """Literals all true exactly when each non-endpoint cell has its colour in `solution`.

        The colouring fixes the paths (a path cannot touch itself), so the clause
        `add_bool_or([~lit for lit in same_as(s)])` excludes exactly the solution s.
        """
        return [self.on[k, cell] for k, path in solution.paths.items() for cell in path[1:-1]]

    def extract(self, solver: cp_model.CpSolver) -> Solution:
        """The paths, read by following the true arcs from each colour's start."""
        succ = {(k, u): v for (k, u, v), lit in self.arcs.items() if solver.boolean_value(lit)}
        paths = {}
        for colour, (start, end) in self.puzzle.endpoints.items():
            path = [start]
            while path[-1] != end and len(path) <= len(self.domains[colour]):
                path.append(succ[colour, path[-1]])
            paths[colour] = tuple(path)
        return Solution(paths)


def add_colour_circuits(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Each colour's cells form one path from its start to its end (no loops, no branches)."""
    for colour, cells in v.domains.items():
        index = {cell: i for i, cell in enumerate(sorted(cells))}
        start, end = v.puzzle.endpoints[colour]
        arcs = [(index[a], index[b], lit) for (k, a, b), lit in v.arcs.items() if k == colour]
        arcs += [(index[c], index[c], ~v.on[colour, c]) for c in cells if c not in (start, end)]
        arcs.append((index[end], index[start], v.true))
        model.add_circuit(arcs)


def add_one_colour_per_cell(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Every cell is covered by exactly one path."""
    for cell in v.puzzle.cells:
        if cell not in v.puzzle.endpoint_colour():
            model.add_exactly_one(v.on[k, cell] for k, cells in v.domains.items() if cell in cells)


def add_no_self_touch(model: cp_model.CpModel, v: CircuitVars) -> None:
    """Two neighbouring cells of one colour are consecutive on its path."""
    for colour, cells in v.domains.items():
        for a in cells:
            for b in v.puzzle.neighbours[a]:
                if b in cells and a < b:
                    model.add_bool_or([~v.covers(colour, a), ~v.covers(colour, b), *v.steps(colour, a, b)])


def build(puzzle: Puzzle) -> tuple[cp_model.CpModel, CircuitVars]:
    """The reference model of a puzzle; infeasible at once if pruning shows no solution exists."""
    model = cp_model.CpModel()
    colour_domains = domains(puzzle)
    v = CircuitVars(model, puzzle, colour_domains)
    v.reason = impossibility(puzzle, colour_domains)
    if v.reason:
        model.add_bool_or([])  # the empty clause: proven unsolvable without search
        return model, v
    add_colour_circuits(model, v)
    add_one_colour_per_cell(model, v)
    add_no_self_touch(model, v)
    return model, v

"""The chain formulation: one circuit through every cell (see models/chain.md).

Glossary: `arc[u, v]` says some path steps from u to v; `on[u, k]` says cell u has
colour k. The circuit visits every cell: each colour's path runs start -> end, and a
fixed closing arc runs from each colour's end to the next colour's start, chaining
all paths into one tour. Colour flows along arcs, so a path that leaves a colour's
start can only arrive at that colour's end.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cpflow.grid import Cell, Colour, Puzzle, Solution
from cpflow.prune import domains, impossibility


class ChainVars:
    """The literals of the chain model; an endpoint's own colour is the constant True."""

    def __init__(self, model: cp_model.CpModel, puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Cell]]):
        self.puzzle = puzzle
        self.reason: str | None = impossibility(puzzle, colour_domains)
        owner = puzzle.endpoint_colour()
        self.colours = {cell: [k for k, cells in colour_domains.items() if cell in cells] for cell in puzzle.cells}
        for cell, colour in owner.items():
            self.colours[cell] = [colour]
        self.on: dict[tuple[Cell, Colour], object] = {}
        for cell, colours in self.colours.items():
            for k in colours:
                self.on[cell, k] = True if cell in owner else model.new_bool_var(f"on_{cell[0]}_{cell[1]}_{k}")
        self.off = {key: ~lit for key, lit in self.on.items() if lit is not True}  # negations, made once
        starts = {pair[0] for pair in puzzle.endpoints.values()}
        ends = {pair[1] for pair in puzzle.endpoints.values()}
        self.arc: dict[tuple[Cell, Cell], cp_model.IntVar] = {}
        for u, colours in self.colours.items():
            for v in puzzle.neighbours[u]:
                if u not in ends and v not in starts and not set(colours).isdisjoint(self.colours[v]):
                    self.arc[u, v] = model.new_bool_var(f"arc_{u[0]}_{u[1]}_{v[0]}_{v[1]}")

    def same_as(self, solution: Solution) -> list[cp_model.IntVar]:
        """Literals all true exactly when each non-endpoint cell has its colour in `solution`."""
        return [self.on[cell, k] for k, path in solution.paths.items() for cell in path[1:-1]]

    def extract(self, solver: cp_model.CpSolver) -> Solution:
        """The paths, read by following the true arcs from each colour's start."""
        succ = {u: v for (u, v), lit in self.arc.items() if solver.boolean_value(lit)}
        paths = {}
        for colour, (start, end) in self.puzzle.endpoints.items():
            path = [start]
            while path[-1] != end and len(path) <= len(succ) + 1:
                path.append(succ[path[-1]])
            paths[colour] = tuple(path)
        return Solution(paths)


def add_tour(model: cp_model.CpModel, v: ChainVars) -> None:
    """Every cell lies on one path; paths close into one tour, so no path can loop."""
    index = {cell: i for i, cell in enumerate(v.puzzle.cells)}
    arcs = [(index[a], index[b], lit) for (a, b), lit in v.arc.items()]
    pairs = list(v.puzzle.endpoints.values())
    true = model.new_constant(1)
    arcs += [(index[end], index[pairs[(i + 1) % len(pairs)][0]], true) for i, (_, end) in enumerate(pairs)]
    model.add_circuit(arcs)


def add_one_colour_per_cell(model: cp_model.CpModel, v: ChainVars) -> None:
    """Every cell has exactly one colour."""
    owner = v.puzzle.endpoint_colour()
    for cell, colours in v.colours.items():
        if cell not in owner:
            model.add_exactly_one([v.on[cell, k] for k in colours])


def add_colour_flow(model: cp_model.CpModel, v: ChainVars) -> None:
    """A path keeps its colour: an arc u -> w carries u's colour to w."""
    for (u, w), arc in v.arc.items():
        not_arc = ~arc
        for k in v.colours[u]:
            there = v.on.get((w, k), False)
            if there is not True:
                clause = [not_arc] if (u, k) not in v.off else [not_arc, v.off[u, k]]
                if there is not False:
                    clause.append(there)
                model.add_bool_or(clause)


def add_no_self_touch(model: cp_model.CpModel, v: ChainVars) -> None:
    """Two neighbouring cells of one colour are consecutive on its path."""
    for u, colours in v.colours.items():
        for w in v.puzzle.neighbours[u]:
            if u < w:
                steps = [v.arc[key] for key in ((u, w), (w, u)) if key in v.arc]
                for k in colours:
                    if (w, k) in v.on:
                        both = [v.off[key] for key in ((u, k), (w, k)) if key in v.off]
                        model.add_bool_or(steps + both)


def build(puzzle: Puzzle) -> tuple[cp_model.CpModel, ChainVars]:
    """The chain model of a puzzle; infeasible at once if pruning shows no solution exists."""
    model = cp_model.CpModel()
    v = ChainVars(model, puzzle, domains(puzzle))
    if v.reason:
        model.add_bool_or([])  # the empty clause: proven unsolvable without search
        return model, v
    add_tour(model, v)
    add_one_colour_per_cell(model, v)
    add_colour_flow(model, v)
    add_no_self_touch(model, v)
    return model, v

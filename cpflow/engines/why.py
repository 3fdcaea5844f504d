"""Why a puzzle has no solution: a smallest set of requirements that cannot hold together.

The requirements are: each colour connects its endpoints (`connect`), and each cell that
is no endpoint is covered (`cover`). Relaxed, a colour draws no path (its endpoints stay
where they are, and no other path may enter them) and a cell may stay empty; the other
rules hold as ever (paths never share a node, never loop, never touch themselves).

The model (models/why.md) is the per-colour circuit model with one assumption literal
per requirement. CP-SAT's core (`sufficient_assumptions_for_infeasibility`) is a first
set; it is not minimal, so it is shrunk: each element is dropped in turn, and a set
still infeasible without it replaces the set (its own core), while a set that becomes
solvable keeps the element and that solution as its witness. At the end every element
has a witness, a solution of the others: the set is minimal (no element can go). Each
witness passes the verifier on the board of the colours it connects (blanks allowed),
and covers every cell the set requires.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cpflow.board.grid import Colour, Node, Puzzle, Rules, Solution, tag
from cpflow.board.paths import walk
from cpflow.board.verify import violations
from cpflow.clock import Deadline
from cpflow.errors import InvalidSolution

Requirement = tuple[str, Colour | Node]  # ("connect", colour) or ("cover", node)
LARGEST = 20_000  # nodes x colours: bigger boards are not explained (the model would take long to build)


@dataclass(frozen=True)
class Why:
    """A smallest set of requirements no solution meets, and for each one a witness: a solution
    of the others. `minimal` is False when the time limit stopped the shrinking first."""

    connect: tuple[Colour, ...]
    cover: tuple[Node, ...]
    witnesses: Mapping[Requirement, Solution] = field(default_factory=dict)
    minimal: bool = True


class _Relaxed:
    """The circuit model with its requirements as assumption literals."""

    def __init__(self, puzzle: Puzzle):
        from cpflow.engines.cp_model import cp_model

        self.puzzle = puzzle
        model = self.model = cp_model.CpModel()
        owner = puzzle.endpoint_colour()
        self.connect = {c: model.new_bool_var(f"connect_{c}") for c in puzzle.colours}
        coverable = () if puzzle.rules.blanks else puzzle.nodes  # where cells may stay empty, none must be covered
        self.cover = {n: model.new_bool_var(f"cover_{tag(n)}") for n in coverable if n not in owner}
        self.arcs: dict[Colour, dict[tuple[Node, Node], cp_model.IntVar]] = {}
        on: dict[Colour, dict[Node, cp_model.IntVar]] = {}
        for colour, (start, end) in puzzle.endpoints.items():
            nodes = [n for n in puzzle.nodes if owner.get(n, colour) == colour]
            index = {n: i for i, n in enumerate(nodes)}
            here = on[colour] = {n: model.new_bool_var(f"on_{colour}_{tag(n)}") for n in nodes if n not in owner}
            for lit in here.values():
                model.add_implication(lit, self.connect[colour])  # no loop of a colour without its path
            here[start] = here[end] = self.connect[colour]
            arcs = self.arcs[colour] = {
                (u, w): model.new_bool_var(f"arc_{colour}_{tag(u)}_{tag(w)}")
                for u in nodes
                for w in puzzle.neighbours[u]
                if w in index and u != end and w != start
            }
            circuit: list[cp_model.ArcT] = [(index[u], index[w], lit) for (u, w), lit in arcs.items()]
            circuit += [(index[n], index[n], ~here[n]) for n in nodes if n not in (start, end)]
            circuit += [(index[end], index[start], self.connect[colour])]
            circuit += [(index[n], index[n], ~self.connect[colour]) for n in (start, end)]
            model.add_circuit(circuit)
            for u in nodes if not puzzle.rules.touch else ():  # no touching: neighbours of one colour are consecutive
                for w in puzzle.neighbours[u]:
                    if w in index and u < w:
                        steps = [arcs[k] for k in ((u, w), (w, u)) if k in arcs]
                        model.add_bool_or([~here[u], ~here[w], *steps])
        for node in puzzle.nodes:
            users = [on[c][node] for c in puzzle.colours if node in on[c] and node not in owner]
            model.add_at_most_one(users)
            if node in self.cover:
                model.add_bool_or(users).only_enforce_if(self.cover[node])

    def literal(self, requirement: Requirement):
        _, what = requirement  # a colour (str) to connect, or a node (tuple) to cover
        return self.connect[what] if isinstance(what, str) else self.cover[what]

    def solve(self, wanted: list[Requirement], deadline: Deadline):
        """(status, solution or None, core) for the requirements `wanted`; status one of
        'solvable', 'infeasible', 'unknown'."""
        from cpflow.engines.cp_model import cp_model
        from cpflow.engines.cpsat_solver import run

        self.model.clear_assumptions()
        literals = [self.literal(r) for r in wanted]
        self.model.add_assumptions(literals)
        solver, native = run(self.model, deadline, {"num_workers": 1})
        if native == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return "infeasible", None, [r for r, lit in zip(wanted, literals, strict=True) if lit.index in core]
        if native in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            steps = {
                u: (w,) for arcs in self.arcs.values() for (u, w), lit in arcs.items() if solver.boolean_value(lit)
            }
            connected = [c for c, lit in self.connect.items() if solver.boolean_value(lit)]
            paths = walk(self.puzzle, steps).paths
            return "solvable", Solution({c: paths[c] for c in connected}), []
        return "unknown", None, []


def why(puzzle: Puzzle, time_limit: float | None = None) -> Why | None:
    """A smallest set of requirements of an unsolvable puzzle that no solution meets, each with its
    witness; None if the puzzle is solvable, bigger than LARGEST, or the time limit came before
    any set was found. The play's drawn cells are left out: this is about the puzzle."""
    if len(puzzle.nodes) * len(puzzle.colours) > LARGEST:
        return None
    deadline = Deadline(time_limit)
    relaxed = _Relaxed(replace(puzzle, drawn={}))
    every: list[Requirement] = [("connect", c) for c in puzzle.colours] + [("cover", n) for n in relaxed.cover]
    status, _, core = relaxed.solve(every, deadline)
    if status != "infeasible":
        return None
    witnesses: dict[Requirement, Solution] = {}
    minimal, i = True, 0
    while i < len(core):
        element = core[i]
        if element in witnesses:
            i += 1
            continue
        status, solution, smaller = relaxed.solve([r for r in core if r != element], deadline)
        if status == "infeasible":
            core, i = smaller, 0
        elif status == "solvable":
            witnesses[element] = _checked(puzzle, solution, [r for r in core if r != element])
            i += 1
        else:
            minimal = False
            break
    connect = tuple(c for kind, c in core if kind == "connect")
    cover = tuple(n for kind, n in core if kind == "cover")
    kept = {r: w for r, w in witnesses.items() if r in core}
    return Why(connect, cover, kept, minimal and len(kept) == len(core))


def _checked(puzzle: Puzzle, solution: Solution, wanted: list[Requirement]) -> Solution:
    """A witness, passed by the verifier on the board of the colours it connects (blanks allowed),
    covering every cell wanted and connecting every colour wanted; else InvalidSolution."""
    drawn = {c: puzzle.endpoints[c] for c in solution.paths}
    board = replace(puzzle, endpoints=drawn, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
    found = violations(board, solution)
    covered = solution.colour_of()
    others = {n for c, pair in puzzle.endpoints.items() if c not in drawn for n in pair}
    found += [f"{kind} {what} is not met" for kind, what in wanted if not _met(kind, what, solution, covered)]
    found += [f"a path enters the endpoint {node}" for node in others if node in covered]
    if found:
        raise InvalidSolution("why (witness)", found)
    return solution


def _met(kind: str, what, solution: Solution, covered: dict) -> bool:
    return what in solution.paths if kind == "connect" else what in covered

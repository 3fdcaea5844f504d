"""The SAT formulation: a puzzle as clauses over colour, step and turn variables.

See models/sat.md. Each node u has `paint[u, k]`, "u has colour k", for each colour whose
domain holds it; each pair of neighbours `joined[u, w]` (u < w), "a path steps between
u and w"; each node that is not an endpoint `turn[u, a, b]` (a < b), "the path through u
joins a and b" (the seeds' direction type, on any graph: a square cell has six, a
hexagon fifteen, a bridge lane one). Colours and turns are one-hot; a turn is its two
steps; a step carries its colour; neighbours not joined differ in colour. Nothing here
forbids a loop apart from the paths: `loops` finds them in an answer and `cut` gives
the clause that rules each out, and the engine solves again (lazy loop cuts).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, pairwise

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from cpflow.board.grid import Colour, Node, Puzzle, Solution, rings, tag
from cpflow.board.paths import reach, walk
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Partial, applies, dead_turns
from cpflow.engines.prune import domains, impossibility

Clause = list[int]  # DIMACS literals, e.g. [3, -7]: variable 3 true or variable 7 false
Step = tuple[Node, Node]  # two neighbours, the smaller first
PAIRWISE = 6  # up to this many literals, exactly-one is pairwise; above it, a sequential counter (pysat.card)


class CnfVars:
    """The variables (numbered from 1 by a pysat IDPool) and the clauses made so far."""

    def __init__(
        self,
        puzzle: Puzzle,
        colour_domains: dict[Colour, frozenset[Node]],
        deadline: Deadline = NEVER,
        fixed: dict[Step, bool] | None = None,
    ):
        self.puzzle, self.deadline, self.fixed = puzzle, deadline, fixed or {}
        self.reason: str | None = impossibility(puzzle, colour_domains)
        self.pool = IDPool()
        self.clauses: list[Clause] = []
        self.owner = puzzle.endpoint_colour()
        self.paint: dict[tuple[Node, Colour], int] = {}
        self.joined: dict[Step, int] = {}
        self.turn: dict[tuple[Node, Node, Node], int] = {}
        self.turns_at: dict[Node, dict[tuple[Node, Node], int]] = {}  # u -> (a, b) -> turn[u, a, b]
        if self.reason:
            return
        for colour, nodes in colour_domains.items():
            for node in sorted(nodes):
                self.paint[node, colour] = self.pool.id(f"paint_{tag(node)}_{colour}")
        self.colours = {node: [k for k in puzzle.colours if (node, k) in self.paint] for node in puzzle.nodes}
        for u in puzzle.nodes:
            deadline.check()
            for w in puzzle.neighbours[u]:
                if u < w and self.fixed.get((u, w)) is not False and set(self.colours[u]) & set(self.colours[w]):
                    self.joined[u, w] = self.pool.id(f"joined_{tag(u)}_{tag(w)}")
        for u in puzzle.nodes:
            if u not in self.owner:
                deadline.check()  # a node of d neighbours has d(d-1)/2 turns
                at = self.turns_at[u] = {}
                for a, b in combinations(self.steps_from(u), 2):
                    at[a, b] = self.turn[u, a, b] = self.pool.id(f"turn_{tag(u)}_{tag(a)}_{tag(b)}")

    def step(self, u: Node, w: Node) -> int | None:
        """The variable of the step between neighbours u and w, if it may be taken."""
        return self.joined.get((u, w) if u < w else (w, u))

    def taken(self, u: Node, w: Node) -> int:
        """The variable of a step between neighbours u and w that may be taken (KeyError if it may not)."""
        return self.joined[(u, w) if u < w else (w, u)]

    def steps_from(self, u: Node) -> list[Node]:
        """The neighbours a path through u may step to."""
        return [w for w in self.puzzle.neighbours[u] if self.step(u, w) is not None]

    def exactly_one(self, lits: list[int], at_most: bool = False) -> None:
        """One of `lits` true (at most one, with `at_most`): pairwise when short, else a counter."""
        if not at_most:
            self.clauses.append(list(lits))
        if len(lits) <= PAIRWISE:
            self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))
        else:
            self.clauses.extend(CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def on(self, model: Iterable[int]) -> list[Step]:
        """The steps an assignment (a solver's model) takes."""
        true = {lit for lit in model if lit > 0}
        return [key for key, var in self.joined.items() if var in true]

    def extract(self, steps: list[Step]) -> Solution:
        """The paths, read by walking the steps from each colour's start."""
        return walk(self.puzzle, _adjacency(self.puzzle, steps))

    def loops(self, steps: list[Step]) -> list[list[Step]]:
        """The steps of each loop in an answer: joined nodes no path from an endpoint reaches."""
        nxt = _adjacency(self.puzzle, steps)
        seen = reach(self.owner, nxt)
        found = []
        for node in self.puzzle.nodes:
            if node not in seen and nxt[node]:
                loop = reach([node], nxt)
                seen |= loop
                found.append([step for step in steps if step[0] in loop])
        return found

    def cut(self, loop: list[Step]) -> Clause:
        """The clause that rules out this loop: one of its steps is not taken."""
        return [-self.joined[step] for step in loop]

    def excluding(self, solution: Solution) -> Clause:
        """The clause that rules out a solution: some path takes another step."""
        return [-self.taken(a, b) for path in solution.paths.values() for a, b in pairwise(path)]


def _adjacency(puzzle: Puzzle, steps: list[Step]) -> dict[Node, list[Node]]:
    nxt: dict[Node, list[Node]] = {node: [] for node in puzzle.nodes}
    for u, w in steps:
        nxt[u].append(w)
        nxt[w].append(u)
    return nxt


def add_one_colour(v: CnfVars) -> None:
    """Every node has one colour (at most one where cells may stay empty); an endpoint its own."""
    for node, colours in v.colours.items():
        v.deadline.check()
        lits = [v.paint[node, k] for k in colours]
        if node in v.owner:
            v.clauses.append([v.paint[node, v.owner[node]]])
        else:
            v.exactly_one(lits, at_most=v.puzzle.rules.blanks)


def add_degrees(v: CnfVars, idle: dict[Node, int] | None = None) -> None:
    """An endpoint takes one step (none when its literal in `idle` holds); any other node one turn
    (none, if it may stay empty, exactly when it has no colour), and each step it takes belongs to its turn."""
    idle = idle or {}
    for u in v.puzzle.nodes:
        v.deadline.check()
        steps = {w: v.taken(u, w) for w in v.steps_from(u)}
        if u in v.owner:
            v.exactly_one([*steps.values(), *([idle[u]] if u in idle else [])])
            continue
        turns = v.turns_at[u]
        v.exactly_one(list(turns.values()), at_most=v.puzzle.rules.blanks)
        through: dict[Node, list[int]] = {w: [] for w in steps}  # the turns that take each step
        for (a, b), var in turns.items():
            v.clauses += [[-var, steps[a]], [-var, steps[b]]]
            through[a].append(var)
            through[b].append(var)
        v.clauses += [[-step, *through[w]] for w, step in steps.items()]
        if v.puzzle.rules.blanks:
            paints = [v.paint[u, k] for k in v.colours[u]]
            v.clauses += [[-paint, *turns.values()] for paint in paints]
            v.clauses += [[-var, *paints] for var in turns.values()]


def add_colour_flow(v: CnfVars) -> None:
    """A step carries its colour: joined neighbours have the same colour."""
    for (u, w), step in v.joined.items():
        v.deadline.check()
        for a, b in ((u, w), (w, u)):
            for k in v.colours[a]:
                there = v.paint.get((b, k))
                v.clauses.append([-step, -v.paint[a, k]] + ([there] if there else []))


def add_no_self_touch(v: CnfVars) -> None:
    """Neighbours of one colour are consecutive on its path: not joined, they differ."""
    if v.puzzle.rules.touch:
        return
    for u in v.puzzle.nodes:
        v.deadline.check()
        for w in v.puzzle.neighbours[u]:
            if u < w:
                step = v.step(u, w)
                for k in set(v.colours[u]) & set(v.colours[w]):
                    v.clauses.append([-v.paint[u, k], -v.paint[w, k]] + ([step] if step else []))


def add_ring_limits(v: CnfVars) -> None:
    """Redundant: round a triangle or a 2x2 block a path takes all but two sides at most (all but
    one where paths may touch: no loop)."""
    spare = 1 if v.puzzle.rules.touch else 2
    for ring in rings(v.puzzle, longest=4):
        v.deadline.check()
        around = [v.step(a, b) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
        sides = [side for side in around if side is not None]
        most = len(ring) - spare
        if len(sides) > most:
            v.clauses.extend([-side for side in chosen] for chosen in combinations(sides, most + 1))


def add_fixed(v: CnfVars, dead: list[tuple[Node, Node, Node]]) -> None:
    """What the front end settled, as unit clauses: the steps it decided, the turns it found dead."""
    v.clauses.extend([v.joined[step]] for step, taken in v.fixed.items() if taken and step in v.joined)
    for p, a, b in dead:
        var = v.turn.get((p, a, b) if a < b else (p, b, a))
        if var is not None:
            v.clauses.append([-var])


def add_play(v: CnfVars) -> None:
    """A drawn node (the play's) keeps its colour."""
    for node, colour in v.puzzle.drawn.items():
        v.clauses.append([v.paint[node, colour]] if (node, colour) in v.paint else [])


def build(puzzle: Puzzle, deadline: Deadline = NEVER, root: Partial | None = None) -> CnfVars:
    """The clauses of a puzzle, on what the front end settled (`root`) or else on pruning's
    domains; the empty clause when pruning shows no solution exists. OutOfTime when the
    deadline passes first."""
    fixed, colour_domains = root.decided() if root else ({}, domains(puzzle, deadline))
    v = CnfVars(puzzle, colour_domains, deadline, fixed)
    if v.reason:
        v.clauses.append([])
        return v
    add_one_colour(v)
    add_degrees(v)
    add_colour_flow(v)
    add_no_self_touch(v)
    add_ring_limits(v)
    add_fixed(v, root.g.dead(deadline) if root else dead_turns(puzzle, deadline) if applies(puzzle) else [])
    add_play(v)
    return v

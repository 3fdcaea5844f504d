"""The next step of a play, found the way a person would: the simplest rule first.

A play is the puzzle with the cells the player has coloured (`puzzle.drawn`). `next_step`
settles it with a ladder of rule sets (`LADDER`), each one rule more than the last:
degree, colour and loop alone; then with the corner rule and dead turns; then chambers;
then reach. The first set that colours a cell gives the step: the cells coloured by the
first rule application that coloured any (a path end's one way on, a chamber filled...),
the rule by name and the nodes it looked at.

When no set colours a cell, the step is a "what if": a cell whose every other colour
(or a path end whose every other way) leads to a contradiction when assumed, with the
chain of cells that assumption coloured. Its depth is how deep the reasoning nests: at
depth 1 the rules alone meet the contradiction (degree, colour and loop alone first, then
every rule); at depth 2 they meet it after what ifs of depth 1 inside the assumption have
coloured more (`DEEPER`, within a budget of settles). When that fails too, the step is a
guess: a cell and the colour `known`, a solution the play extends, gives it.

Every rule holds in every solution, so a step holds in every solution that extends the
play; the caller checks it against `known` all the same (cpflow.workflows.hints).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from cpflow.board.grid import Colour, Node, Puzzle, Solution, cell_of
from cpflow.deduce.rulebook import ALL, REACH, RULES
from cpflow.deduce.rules import GIVEN, NONE, Cause, Contradiction, Graph, Partial
from cpflow.deduce.settle import settle


def _ladder() -> tuple[tuple[str, int], ...]:
    """The rule book's rungs: the first rule, then each rule of a new flag, in the book's order, allowing
    the flags so far: (("degree", 0), ("corner", CORNER), ("chamber", CORNER | CHAMBER), ("reach", ALL))."""
    rungs: list[tuple[str, int]] = []
    for rule in RULES:
        if not rungs or rule.flag & ~rungs[-1][1]:
            rungs.append((rule.name, (rungs[-1][1] if rungs else 0) | rule.flag))
    return tuple(rungs)


LADDER = _ladder()  # (name, rules allowed): each rung one rule more than the last
WHAT_IF = ((1, 0), (1, ALL), (2, ALL))  # (depth, rules) an assumption is followed with, the simpler first
DEEPER = 80_000_000  # settles x nodes^2 a step's what ifs of depth 2 may take (about 2 s), then it is a guess
STEP_KINDS = tuple(name for name, _ in LADDER) + ("what if", "guess")  # every kind of step, simplest first


@dataclass(frozen=True)
class Conflict:
    """A contradiction the rules met: the rule, the nodes and the colour it names (or None)."""

    rule: str
    nodes: tuple[Node, ...]
    broken: Colour | None

    @classmethod
    def of(cls, g: Graph, met: Contradiction) -> Conflict:
        return cls(
            met.rule, tuple(g.nodes[i] for i in met.nodes), g.colours[met.colour] if met.colour != NONE else None
        )


@dataclass(frozen=True)
class Assumption:
    """What a "what if" assumed, a colour for a cell or a path end's other way (`toward`), what
    the rules then coloured (in order) and the contradiction they met."""

    colour: Colour
    chain: tuple[tuple[Node, Colour], ...]
    conflict: Conflict
    toward: Node | None = None  # for a path end's other way: the node it would step to
    depth: int = 1  # 2: what ifs of depth 1 inside the assumption coloured some of the chain


@dataclass(frozen=True)
class Step:
    """Cells a rule colours: `kind` (a name of STEP_KINDS), `rule` (the rule that coloured them; for
    a what if, the rule that met the contradiction), the colour, the cells, the nodes the
    rule looked at, and for a what if each other colour's assumption."""

    kind: str
    rule: str
    colour: Colour
    cells: tuple[Node, ...]
    because: tuple[Node, ...]
    origin: Node | None = None  # the node the rule was applied at (a path end, a cell with two open sides)
    assumptions: tuple[Assumption, ...] = ()

    @property
    def by(self) -> str | None:
        """The rule that coloured the cells when the kind does not name it: a simpler rule the kind's
        own cleared the way for, or the rule a what if's contradictions met. None on the ladder's first
        rung, whose rules act together."""
        return self.rule if self.kind not in (self.rule, LADDER[0][0]) else None

    @property
    def depth(self) -> int:
        """How deep a what if's reasoning nests (0 for any other step)."""
        return max((a.depth for a in self.assumptions), default=0)


def next_step(puzzle: Puzzle, known: Solution) -> Step | None:
    """The simplest next step of the play `puzzle.drawn`, which the solution `known` extends;
    None when every cell is coloured."""
    g = Graph(puzzle)
    base = g.start()
    if all(colour != NONE for i, colour in enumerate(base.colour) if _shown(g, i)):
        return None
    for kind, allow in LADDER:
        p = _kept(base, allow)
        settle(p, reach=bool(allow & REACH))
        step = _first_colouring(p, base.colour, kind)
        if step:
            return step
    settled = _kept(base, ALL)
    settle(settled)
    return _what_if(settled, known) or _guess(settled, known)


def _kept(p: Partial, allow: int) -> Partial:
    """A copy of p under the rules `allow`ed, logging what it colours."""
    copy = p.copy()
    copy.allow, copy.log = allow, []
    copy.queue = list(range(len(p.g.nodes)))
    return copy


def _shown(g: Graph, i: int) -> bool:
    """Whether node i is a cell a player colours (a bridge's lanes are not)."""
    return len(g.nodes[i]) == 2


def _first_colouring(p: Partial, played: list[int], kind: str) -> Step | None:
    """The cells the first rule application that coloured a cell coloured, as a step."""
    g, log = p.g, p.log or []
    first = next((entry for entry in log if entry[2] is not GIVEN and _shown(g, entry[0])), None)
    if first is None:
        return None
    _, c, cause = first
    cells = tuple(g.nodes[i] for i, colour, why in log if why is cause and colour == c and _shown(g, i))
    origin = g.nodes[cause.nodes[0]] if cause.rule == "degree" else None
    return Step(kind, cause.rule, g.colours[c], cells, _because(p, played, cause, cells), origin)


def _because(p: Partial, played: list[int], cause: Cause, cells: tuple[Node, ...]) -> tuple[Node, ...]:
    """The cells that force a step: the nodes its rule looked at, and for the degree rule their
    neighbours coloured in the play (`played`: colour per node)."""
    g = p.g
    nodes = list(cause.nodes)
    if cause.rule == "degree":
        (i,) = cause.nodes
        nodes += [j for j, _ in g.adjacent[i] if played[j] != NONE]
    if cause.rule == "chamber":
        region = set(cause.nodes)
        nodes = sorted({j for i in region for j, _ in g.adjacent[i] if j not in region and played[j] != NONE})
    seen = dict.fromkeys(cell_of(g.nodes[i]) for i in nodes)
    return tuple(cell for cell in seen if cell not in cells)


def _what_if(settled: Partial, known: Solution) -> Step | None:
    """A step every alternative of which meets a contradiction when assumed: a path end's other
    ways, else a cell's other colours; the simpler rules tried first, then every rule, then depth 2."""
    for depth, allow in WHAT_IF:
        assume = functools.partial(_assume, depth=depth, budget=[_settles(settled.g)])
        step = _other_ways(settled, known, allow, assume) or _other_colours(settled, known, allow, assume)
        if step:
            return step
    return None


Assume = Callable[[Partial, int, Callable[[Partial], None]], "Assumption | None"]


def _other_ways(settled: Partial, known: Solution, allow: int, assume: Assume) -> Step | None:
    """A path end whose every way on but the known one meets a contradiction; those with fewest
    ways first. The step colours what the known way then colours."""
    g = settled.g
    consecutive = _consecutive(g, known)
    ends = [i for i in range(len(g.nodes)) if settled.colour[i] != NONE and settled.degree[i] < g.need[i]]
    for i in sorted(ends, key=lambda i: (settled.free[i], i)):
        right = [e for j, e in g.adjacent[i] if not settled.state[e] and (i, j) in consecutive]
        wrong = [(j, e) for j, e in g.adjacent[i] if not settled.state[e] and (i, j) not in consecutive]
        if len(right) != 1 or not wrong:
            continue
        taken = _kept(settled, allow)
        taken.join(right[0])
        cells = tuple(g.nodes[j] for j, _, _ in taken.log or [] if _shown(g, j))
        if not cells:
            continue
        assumptions = []
        for j, edge in wrong:
            met = assume(settled, allow, functools.partial(Partial.join, edge=edge))
            if met is None:
                break
            assumptions.append(replace(met, toward=g.nodes[j]))
        else:
            colour = g.colours[settled.colour[i]]
            return _what_if_step(colour, cells, g.nodes[i], assumptions)
    return None


def _other_colours(settled: Partial, known: Solution, allow: int, assume: Assume) -> Step | None:
    """A cell whose every colour but the known one meets a contradiction when assumed; those with
    fewest other colours first."""
    g = settled.g
    solution = known.colour_of()
    for i, others in _candidates(settled, solution):
        assumptions = []
        for c in others:
            met = assume(settled, allow, functools.partial(Partial.paint, node=i, c=c))
            if met is None:
                break
            assumptions.append(met)
        else:
            cell = g.nodes[i]
            return _what_if_step(solution[cell], (cell,), None, assumptions)
    return None


def _what_if_step(colour: Colour, cells: tuple[Node, ...], origin: Node | None, assumed: list[Assumption]) -> Step:
    because = tuple(dict.fromkeys(node for a in assumed for node, _ in a.chain if node not in cells))
    rule = assumed[0].conflict.rule if len({a.conflict.rule for a in assumed}) == 1 else "several"
    return Step("what if", rule, colour, cells, because, origin, tuple(assumed))


def _consecutive(g: Graph, known: Solution) -> set[tuple[int, int]]:
    """Pairs of node numbers one after the other on a path of the known solution, both ways."""
    steps = set()
    for path in known.paths.values():
        for a, b in zip(path, path[1:], strict=False):
            steps |= {(g.index[a], g.index[b]), (g.index[b], g.index[a])}
    return steps


def _candidates(settled: Partial, solution: dict[Node, Colour]) -> Iterator[tuple[int, list[int]]]:
    """Uncoloured cells and the colours other than the known one that they could still take,
    fewest first, then in reading order."""
    g = settled.g
    found = []
    for i, node in enumerate(g.nodes):
        if settled.colour[i] != NONE or not _shown(g, i):
            continue
        right = g.colours.index(solution[node])
        others = [
            c
            for c in range(len(g.colours))
            if c != right and not settled.banned[i] >> c & 1 and (not settled.reach or i in settled.reach[c])
        ]
        found.append((len(others), i, others))
    found.sort()
    return ((i, others) for _, i, others in found)


def _assume(
    settled: Partial, allow: int, move: Callable[[Partial], None], depth: int = 1, budget: list[int] | None = None
) -> Assumption | None:
    """What a move (a colour painted, an edge joined) leads to under the rules `allow`ed, and at
    depth 2 what ifs of depth 1 within it too (while `budget`, settles left, lasts): the
    contradiction met, or None if none is."""
    g = settled.g
    p = settled.copy()
    p.allow, p.log = allow, []
    try:
        move(p)
        settle(p, reach=bool(allow & REACH))
        if depth < 2 or not _deepen(p, budget if budget is not None else [_settles(g)]):
            return None
    except Contradiction as met:
        chain = tuple((g.nodes[j], g.colours[k]) for j, k, _ in p.log or [] if _shown(g, j))
        first = chain[0][1] if chain else ""
        deep = met.rule == "what if" or any(cause is _DEEP for _, _, cause in p.log or [])
        return Assumption(first, chain, Conflict.of(g, met), depth=2 if deep else 1)
    return None


def _settles(g: Graph) -> int:
    """How many settles a step's what ifs of depth 2 may take: DEEPER shared out by the board's size
    squared, since a settle's floods cost about that (0.7 ms on 14x14, 20 ms on 30x30); 3,000 at most."""
    return min(3000, max(20, DEEPER // len(g.nodes) ** 2))


_DEEP = Cause("what if", ())  # what colours a cell inside an assumption of depth 2


def _deepen(p: Partial, budget: list[int]) -> bool:
    """Colour, inside an assumption, the cells whose every colour but one meets a contradiction
    under every rule, settling after each, until one has no colour left (Contradiction) or none
    is found (False); also False once `budget` (a one-item list: settles left, shared by every
    assumption of a step) runs out. Cells with the fewest colours left are tried first."""
    g = p.g
    while True:
        open_ = sorted(
            (bin(~p.banned[i] & ((1 << len(g.colours)) - 1)).count("1"), i)
            for i in range(len(g.nodes))
            if p.colour[i] == NONE and _shown(g, i)
        )
        for _, i in open_:
            left = [c for c in range(len(g.colours)) if not p.banned[i] >> c & 1 and (not p.reach or i in p.reach[c])]
            kept = []
            for c in left:
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                trial = p.copy()
                trial.allow = ALL
                try:
                    trial.paint(i, c)
                    settle(trial)
                    kept.append(c)
                except Contradiction:
                    pass
                if len(kept) > 1:
                    break
            if len(kept) == 1:
                p.why = _DEEP
                p.paint(i, kept[0])
                settle(p)
                break
            if not kept:
                p.why = _DEEP
                raise Contradiction("what if", (i,))
        else:
            return False


def _guess(settled: Partial, known: Solution) -> Step:
    """The cell to try when no rule decides: an uncoloured cell beside a path's open end, with
    the fewest colours left, and the colour the known solution gives it."""
    g = settled.g
    solution = known.colour_of()
    ends = {i for i in range(len(g.nodes)) if settled.colour[i] != NONE and settled.degree[i] < g.need[i]}
    best = min(
        (i for i in range(len(g.nodes)) if settled.colour[i] == NONE and _shown(g, i)),
        key=lambda i: (not (g.near[i] & ends), _open_colours(settled, i), i),
    )
    cell = g.nodes[best]
    beside = tuple(g.nodes[j] for j in sorted(g.near[best] & ends))
    return Step("guess", "guess", solution[cell], (cell,), beside)


def _open_colours(p: Partial, i: int) -> int:
    return sum(1 for c in range(len(p.g.colours)) if not p.banned[i] >> c & 1 and (not p.reach or i in p.reach[c]))


def conflict(puzzle: Puzzle) -> Conflict | None:
    """The contradiction every rule together meets on the play, if they meet one."""
    p = Graph(puzzle).start()
    try:
        settle(p)
    except Contradiction as met:
        return Conflict.of(p.g, met)
    return None


def with_step(puzzle: Puzzle, step: Step) -> Puzzle:
    """The play after a step: its cells coloured too."""
    return replace(puzzle, drawn={**puzzle.drawn, **dict.fromkeys(step.cells, step.colour)})

"""The next step of a play, found the way a person would: the simplest rule first.

A play is the puzzle with the cells the player has coloured (`puzzle.drawn`). `next_step`
settles it with a ladder of rule sets (`LADDER`), each one rule more than the last:
degree, colour and loop alone; then with the corner rule and dead turns; then chambers;
then reach. The first set that colours a cell gives the step: the cells coloured by the
first rule application that coloured any (a path end's one way on, a chamber filled...),
the rule by name and the nodes it looked at.

When no set colours a cell, the step is a "what if" (cpflow.deduce.whatifs): a cell whose every
other colour (or a path end whose every other way) leads to a contradiction when assumed, the
one whose chains to the contradiction are shortest. Its depth is how deep the reasoning nests:
at depth 1 the rules alone meet the contradiction; at depth 2 they meet it after what ifs of
depth 1 inside the assumption have coloured more. When that fails too, the step is a guess:
a cell and the colour `known`, a solution the play extends, gives it.

Every rule holds in every solution, so a step holds in every solution that extends the
play; the caller checks it against `known` all the same (cpflow.workflows.hints).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cpflow.board.grid import Colour, Node, Puzzle, Solution, cell_of
from cpflow.deduce.rulebook import ALL, REACH, RULES
from cpflow.deduce.rules import GIVEN, NONE, Cause, Contradiction, Graph, Partial
from cpflow.deduce.settle import settle
from cpflow.deduce.whatifs import Assumption, Conflict, WhatIf, kept, shown, what_if


def _ladder() -> tuple[tuple[str, int], ...]:
    """The rule book's rungs: the first rule, then each rule of a new flag, in the book's order, allowing
    the flags so far: (("degree", 0), ("corner", CORNER), ("chamber", CORNER | CHAMBER), ("reach", ALL))."""
    rungs: list[tuple[str, int]] = []
    for rule in RULES:
        if not rungs or rule.flag & ~rungs[-1][1]:
            rungs.append((rule.name, (rungs[-1][1] if rungs else 0) | rule.flag))
    return tuple(rungs)


LADDER = _ladder()  # (name, rules allowed): each rung one rule more than the last
STEP_KINDS = tuple(name for name, _ in LADDER) + ("what if", "guess")  # every kind of step, simplest first


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
    if all(colour != NONE for i, colour in enumerate(base.colour) if shown(g, i)):
        return None
    for kind, allow in LADDER:
        p = kept(base, allow)
        settle(p, reach=bool(allow & REACH))
        step = _first_colouring(p, base.colour, kind)
        if step:
            return step
    settled = kept(base, ALL)
    settle(settled)
    found = what_if(settled, known)
    return _what_if_step(found) if found else _guess(settled, known)


def _first_colouring(p: Partial, played: list[int], kind: str) -> Step | None:
    """The cells the first rule application that coloured a cell coloured, as a step."""
    g, log = p.g, p.log or []
    first = next((entry for entry in log if entry[2] is not GIVEN and shown(g, entry[0])), None)
    if first is None:
        return None
    _, c, cause = first
    cells = tuple(g.nodes[i] for i, colour, why in log if why is cause and colour == c and shown(g, i))
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


def _what_if_step(found: WhatIf) -> Step:
    """A what if as a step: it names the cells of its chains and where they meet a contradiction."""
    assumed = found.assumptions
    links = [link for a in assumed for link in a.chain]
    named = [node for link in links for node in (link.node, link.to) if node is not None]
    named += [node for a in assumed for node in a.conflict.nodes]
    because = tuple(dict.fromkeys(node for node in named if node not in found.cells))
    rule = assumed[0].conflict.rule if len({a.conflict.rule for a in assumed}) == 1 else "several"
    return Step("what if", rule, found.colour, found.cells, because, found.origin, assumed)


def _guess(settled: Partial, known: Solution) -> Step:
    """The cell to try when no rule decides: an uncoloured cell beside a path's open end, with
    the fewest colours left, and the colour the known solution gives it."""
    g = settled.g
    solution = known.colour_of()
    ends = {i for i in range(len(g.nodes)) if settled.colour[i] != NONE and settled.degree[i] < g.need[i]}
    best = min(
        (i for i in range(len(g.nodes)) if settled.colour[i] == NONE and shown(g, i)),
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

"""What ifs: a next step (cpflow.deduce.steps) found by assuming each alternative but the right one
and following the rules to a contradiction.

An alternative is a cell's other colour, or a path end's other way on. Assumed, it is followed
with the rules (`_assume`) until they meet a contradiction, at depth 1 by the rules alone, at
depth 2 with what ifs of depth 1 inside the assumption too (`_deepen`, within a budget of settles).
The chain a player has to follow is what the rules coloured that the contradiction needs
(`_needed`: from the contradiction back, the cells coloured beside the nodes a rule looked at, and
so on back to the assumption), each cell a `Link` with the rule that coloured it, and each path piece
the rules joined between two cells still empty a `Link` of both (`Traced` logs them: a piece's corner
and its turns close sides too); a chain must be true as written, replaying link by link
(cpflow.deduce.replay), else the one that looks wider (at the neighbours of the nodes looked at too)
if it does; an assumption whose chain does not is no what if to follow (it leaned on what no link
says: a dead turn, a side closed by a cell it leaves out). Alternatives
whose chains are alike but for the colour assumed are one chain to follow (`alike`). Of every
cell and path end whose alternatives all meet a contradiction, `what_if` gives the one whose
chains are shortest to follow (`WhatIf.rank`: a chain cut where a dead turn or corner met its contradiction
sooner than the rules did, `Assumption.sooner`, after every other); at depth 2 the first found.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from cpflow.board.grid import Colour, Node, Solution
from cpflow.deduce.replay import replays, sooner
from cpflow.deduce.rulebook import ALL, REACH
from cpflow.deduce.rules import GIVEN, NONE, Cause, Contradiction, Graph, Partial
from cpflow.deduce.settle import settle

WHAT_IF = ((1, 0), (1, ALL), (2, ALL))  # (depth, rules) an assumption is followed with, the simpler first
DEEPER = 80_000_000  # settles x nodes^2 a step's what ifs of depth 2 may take (about 2 s), then it is a guess
ASSUMED = "assumed"  # a Link's rule for the cells the assumption itself colours
SOONER = 1000  # what a chain cut sooner adds to a what if's rank: any chain the rules met to the end goes first


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
class Link:
    """A cell of an assumption's chain: its colour, the rule that coloured it (ASSUMED: the
    assumption) and the nodes that rule looked at; or a path piece the rule joined from the cell `to`
    another, both still empty (its colour "")."""

    node: Node
    colour: Colour
    rule: str
    looked: tuple[Node, ...] = ()
    to: Node | None = None


@dataclass(frozen=True)
class Piece(Cause):
    """Why a path piece was joined between two uncoloured nodes: the rule, the nodes it looked at, and
    the piece's other node (its first is the log entry's)."""

    to: int = NONE


class Traced(Partial):
    """A partial solution whose log also holds each path piece joined between two uncoloured nodes, as
    (node, NONE, Piece): the node the rule looked at first when it is one of the two."""

    __slots__ = ()

    def join(self, edge: int) -> None:
        i, j = self.g.ends[edge]
        if self.log is not None and self.colour[i] == NONE == self.colour[j]:
            why = self.why
            i, j = (j, i) if why.nodes[:1] == (j,) else (i, j)
            self.log.append((i, NONE, Piece(why.rule, why.nodes, j)))
        super().join(edge)


@dataclass(frozen=True)
class Assumption:
    """What a "what if" assumed, a colour for a cell or a path end's other way (`toward`), the chain
    of cells the rules then coloured that the contradiction needs (in order), and the contradiction."""

    colour: Colour
    chain: tuple[Link, ...]
    conflict: Conflict
    toward: Node | None = None  # for a path end's other way: the node it would step to
    depth: int = 1  # 2: what ifs of depth 1 inside the assumption coloured some of the chain
    coloured: int = 0  # how many cells the rules coloured in all, the chain's and others
    sooner: bool = False  # the chain is cut where its contradiction is met sooner than the rules met it

    @property
    def followed(self) -> tuple[Link, ...]:
        """The links a player follows: those the rules coloured, not the assumption itself."""
        return tuple(link for link in self.chain if link.rule != ASSUMED)


@dataclass(frozen=True)
class WhatIf:
    """A step every alternative of which meets a contradiction: the colour and cells it gives, the
    path end it was taken from (or None: a cell's other colours) and each alternative assumed."""

    colour: Colour
    cells: tuple[Node, ...]
    origin: Node | None
    assumptions: tuple[Assumption, ...]

    @property
    def length(self) -> int:
        """What a player follows: the links and the contradiction of each chain, alike ones once."""
        return sum(len(group[0].followed) + 1 for group in alike(self.assumptions))

    @property
    def rank(self) -> int:
        """Which what if to give, the least first: its length, and SOONER for each chain cut sooner."""
        return self.length + SOONER * sum(a.sooner for a in self.assumptions)


def alike(assumptions: Sequence[Assumption]) -> list[list[Assumption]]:
    """The assumptions in groups whose chains and contradictions are the same but for the colour
    assumed (each cell of that colour taking the one assumed), in order of their first."""
    groups: dict[tuple, list[Assumption]] = {}
    for a in assumptions:
        key = (
            a.toward,
            tuple((link.node, None if link.colour == a.colour else link.colour) for link in a.followed),
            a.conflict.rule,
            a.conflict.nodes,
            None if a.conflict.broken == a.colour else a.conflict.broken,
        )
        groups.setdefault(key, []).append(a)
    return list(groups.values())


def kept(p: Partial, allow: int) -> Partial:
    """A copy of p under the rules `allow`ed, logging what it colours."""
    copy = p.copy()
    copy.allow, copy.log = allow, []
    copy.queue = list(range(len(p.g.nodes)))
    return copy


def shown(g: Graph, i: int) -> bool:
    """Whether node i is a cell a player colours (a bridge's lanes are not)."""
    return len(g.nodes[i]) == 2


def what_if(settled: Partial, known: Solution) -> WhatIf | None:
    """The what if whose chains are shortest to follow, at the simplest (depth, rules) of WHAT_IF that
    has one: path ends' other ways and cells' other colours alike (at depth 2 the first found)."""
    for depth, allow in WHAT_IF:
        assume = functools.partial(_assume, depth=depth, budget=[_settles(settled.g)])
        shortest: list[WhatIf] = []  # the best so far, which bounds the rest
        for found in every_what_if(settled, known, allow, assume, shortest):
            shortest[:] = [found]  # no longer than the one before, or it would have been left out
            if depth > 1:
                break
        if shortest:
            return shortest[0]
    return None


Assume = Callable[[Partial, int, Callable[[Partial], None]], "Assumption | None"]


def every_what_if(
    settled: Partial, known: Solution, allow: int, assume: Assume, shorter: Sequence[WhatIf] = ()
) -> Iterator[WhatIf]:
    """Each path end whose every way on but the known one meets a contradiction under the rules
    `allow`ed (those with fewest ways first), then each cell whose every colour but the known one
    does (fewest colours first); while `shorter` holds a what if (read as each is tried), only
    those shorter to follow than it."""
    g = settled.g
    consecutive = _consecutive(g, known)
    ends = [i for i in range(len(g.nodes)) if settled.colour[i] != NONE and settled.degree[i] < g.need[i]]
    for i in sorted(ends, key=lambda i: (settled.free[i], i)):
        right = [e for j, e in g.adjacent[i] if not settled.state[e] and (i, j) in consecutive]
        wrong = [(j, e) for j, e in g.adjacent[i] if not settled.state[e] and (i, j) not in consecutive]
        if len(right) != 1 or not wrong:
            continue
        taken = kept(settled, allow)
        taken.join(right[0])
        cells = tuple(g.nodes[j] for j, _, _ in taken.log or [] if shown(g, j))
        if cells:
            ways = [(functools.partial(Partial.join, edge=edge), g.nodes[j]) for j, edge in wrong]
            found = _all_met(settled, allow, assume, ways, shorter[0].rank if shorter else None)
            if found is not None:
                yield WhatIf(g.colours[settled.colour[i]], cells, g.nodes[i], found)
    solution = known.colour_of()
    for i, others in _candidates(settled, solution):
        moves = [(functools.partial(Partial.paint, node=i, c=c), None) for c in others]
        found = _all_met(settled, allow, assume, moves, shorter[0].rank if shorter else None)
        if found is not None:
            yield WhatIf(solution[g.nodes[i]], (g.nodes[i],), None, found)


def _all_met(
    settled: Partial,
    allow: int,
    assume: Assume,
    moves: Sequence[tuple[Callable[[Partial], None], Node | None]],
    bound: int | None,
) -> tuple[Assumption, ...] | None:
    """Each move's assumption, if every move meets a contradiction and their chains are no longer
    than `bound` (None: any length); else None."""
    met: list[Assumption] = []
    for move, toward in moves:
        found = assume(settled, allow, move)
        if found is None:
            return None
        met.append(replace(found, toward=toward))
        if bound is not None and WhatIf("", (), None, tuple(met)).rank >= bound:
            return None  # no shorter than one found already
    return tuple(met)


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
        if settled.colour[i] != NONE or not shown(g, i):
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
    p = Traced(g, settled)
    p.allow, p.log = allow, []
    try:
        move(p)
        settle(p, reach=bool(allow & REACH))
        if depth < 2 or not _deepen(p, budget if budget is not None else [_settles(g)]):
            return None
    except Contradiction as met:
        log, conflict = p.log or [], Conflict.of(g, met)
        tried = (_needed(g, log, met), _needed(g, log, met, wider=True))  # the shorter first
        chains = [_links(g, entries) for entries in tried]
        chain = next((c for c in chains if _true(settled, move, c, conflict, allow)), None)
        cut = chain is None
        if cut:  # a node the rules joined on had a side closed by a dead turn or a corner already
            chain, conflict = _sooner(settled, move, chains, allow)
        if chain is None:
            return None  # it leans on what no link says (a side closed by a cell it leaves out): not one to follow
        first = next((k for _, k, _ in log if k != NONE), NONE)
        deep = met.rule == "what if" or any(cause is _DEEP for _, _, cause in log)
        coloured = sum(1 for j, k, _ in log if shown(g, j) and k != NONE)
        colour = g.colours[first] if first != NONE else ""
        return Assumption(colour, chain, conflict, depth=2 if deep else 1, coloured=coloured, sooner=cut)
    return None


def _links(g: Graph, entries: list[tuple[int, int, Cause]]) -> tuple[Link, ...]:
    """Log entries as a chain's links (a bridge's lanes left out)."""
    return tuple(
        Link(
            g.nodes[j],
            g.colours[k] if k != NONE else "",
            ASSUMED if why is GIVEN else why.rule,
            tuple(g.nodes[n] for n in why.nodes),
            g.nodes[why.to] if isinstance(why, Piece) else None,
        )
        for j, k, why in entries
        if shown(g, j)
    )


def _true(
    settled: Partial, move: Callable[[Partial], None], chain: tuple[Link, ...], met: Conflict, allow: int
) -> bool:
    """Whether a chain is true as written: its links replay one by one from the position and the move
    (cpflow.deduce.replay), then its contradiction."""
    return replays(settled, move, [link for link in chain if link.rule != ASSUMED], met.rule, met.nodes, allow)


def _sooner(
    settled: Partial, move: Callable[[Partial], None], chains: Sequence[tuple[Link, ...]], allow: int
) -> tuple[tuple[Link, ...] | None, Conflict]:
    """The first chain cut where, replayed, a node its links lean on has too few open sides (sooner than
    the rules met their contradiction), and that contradiction; (None, any) if none is."""
    for chain in chains:
        assumed = [link for link in chain if link.rule == ASSUMED]
        cut = sooner(settled, move, chain[len(assumed) :], allow)
        if cut is not None:
            number, met = cut
            shorter, conflict = chain[: len(assumed) + number], Conflict.of(settled.g, met)
            if _true(settled, move, shorter, conflict, allow):
                return shorter, conflict
    return None, Conflict("", (), None)


def _needed(
    g: Graph, log: list[tuple[int, int, Cause]], met: Contradiction, wider: bool = False
) -> list[tuple[int, int, Cause]]:
    """The entries of an assumption's log that its contradiction needs, in order: going back from
    the contradiction, a cell coloured at or beside a node looked at is needed, and the nodes its
    rule looked at are looked at in turn (a path piece: at or beside either of its nodes); the assumption's
    own cells always are. `wider`: the neighbours of the nodes looked at are looked at too (a neighbour's
    path end filled closes a side)."""
    looked = set(met.nodes).union(*(g.near[n] for n in met.nodes if wider))
    needed = []
    for entry in reversed(log):
        j, _, why = entry
        ends = (j, why.to) if isinstance(why, Piece) else (j,)
        if why is GIVEN or not looked.isdisjoint({*ends}.union(*(g.near[n] for n in ends))):
            needed.append(entry)
            looked.update(ends)
            looked.update(why.nodes)
            if wider:
                looked.update(*(g.near[n] for n in (*ends, *why.nodes)))
    return needed[::-1]


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
            if p.colour[i] == NONE and shown(g, i)
        )
        for _, i in open_:
            left = [c for c in range(len(g.colours)) if not p.banned[i] >> c & 1 and (not p.reach or i in p.reach[c])]
            kept_ = []
            for c in left:
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                trial = p.copy()
                trial.allow = ALL
                try:
                    trial.paint(i, c)
                    settle(trial)
                    kept_.append(c)
                except Contradiction:
                    pass
                if len(kept_) > 1:
                    break
            if len(kept_) == 1:
                p.why = _DEEP
                p.paint(i, kept_[0])
                settle(p)
                break
            if not kept_:
                p.why = _DEEP
                raise Contradiction("what if", (i,))
        else:
            return False

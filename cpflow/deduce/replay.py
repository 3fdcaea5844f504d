"""A what if's chain replayed as a player reads it: from the position and the assumption alone, each
link in turn must follow by the rule it names, and the contradiction at the end (`replays`).

The position is the partial solution the what if was found on (its edges as the rules left them
before the assumption, which no step colours). The assumption is played on it, then each link:
its rule is checked at the nodes it looked at (`follows`), on the board as the earlier links left
it, and the link is played (the cell joined to the node that had no other way on, or coloured; a path
piece between two empty cells joined, by the degree rule at one of them: `joins`).
No other rule acts, but for the corner rule and the dead turns when the assumption was followed
with them, as the corner rule's own steps count open sides. What a link does not say is not played,
so a chain that leans on a cell, an edge or a ban it leaves out does not replay.

Open sides, as a player counts them: a node's undecided edges to a neighbour its path may still go
to (not of another colour, not banned its colour, not a path end already full, not the other end of
its own chain); sides to a neighbour of its own colour are taken (paths do not touch themselves).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from cpflow.board.grid import Colour, Node
from cpflow.deduce.rulebook import CORNER
from cpflow.deduce.rules import IN, NONE, OUT, Contradiction, Partial

Move = Callable[[Partial], None]


class Said(Protocol):
    """A link of a chain as its sentence says it (cpflow.deduce.whatifs.Link)."""

    @property
    def node(self) -> Node: ...
    @property
    def colour(self) -> Colour: ...
    @property
    def rule(self) -> str: ...
    @property
    def looked(self) -> tuple[Node, ...]: ...
    @property
    def to(self) -> Node | None: ...


def replayed(
    settled: Partial, move: Move, followed: Sequence[Said], allow: int = 0
) -> Iterator[tuple[Said | None, Partial]]:
    """The board before each link, as the move and the links before it left it (the corner rule and dead
    turns acting if `allow`ed), then (None, the board after the last). A link is played whether or not it
    follows: the caller checks; Contradiction when playing one meets it."""
    p = settled.copy()
    p.allow, p.log = allow & CORNER, None
    g = p.g
    move(p)
    _turns(p)
    for link in followed:
        yield link, p
        i, looked = g.index[link.node], [g.index[n] for n in link.looked]
        if link.to is not None:
            p.join(_edge(p, i, g.index[link.to]))
        else:
            _play(p, i, g.colours.index(link.colour), link.rule, looked)
        _turns(p)
    yield None, p


def replays(
    settled: Partial, move: Move, followed: Sequence[Said], rule: str, nodes: Sequence[Node], allow: int = 0
) -> bool:
    """Whether the links `followed` follow one by one from `settled` with the move played, each by its
    rule, and then the contradiction (`rule` at `nodes`)."""
    g = settled.g
    try:
        for link, p in replayed(settled, move, followed, allow):
            if link is None:
                return broken(p, rule, [g.index[n] for n in nodes])
            if not holds(p, link):
                return False
    except Contradiction as met:  # met as a link (or the move) was played: it must be the one said
        return met.rule == rule and {g.nodes[i] for i in met.nodes} == set(nodes)
    return False


def sooner(settled: Partial, move: Move, followed: Sequence[Said], allow: int = 0) -> tuple[int, Contradiction] | None:
    """How many of the links `followed` follow before the node a link's degree rule looked at has fewer
    open sides than it needs, and that contradiction (the degree rule's, met sooner than the chain says: a
    side the rules had not yet cut when they joined it, by a dead turn or a corner, is closed); or None."""
    g = settled.g
    try:
        for number, (link, p) in enumerate(replayed(settled, move, followed, allow)):
            if link is None:
                return None
            if not holds(p, link):
                looked = [g.index[n] for n in link.looked]
                if link.rule != "degree" or not broken(p, "degree", looked):
                    return None
                return number, Contradiction("degree", tuple(looked), p.colour[looked[0]])
    except Contradiction:
        return None
    return None


def holds(p: Partial, link: Said) -> bool:
    """Whether a link follows on p as it stands (`follows`, or `joins` for a path piece)."""
    g = p.g
    i, looked = g.index[link.node], [g.index[n] for n in link.looked]
    if link.to is not None:
        return joins(p, i, g.index[link.to], link.rule, looked)
    return follows(p, i, g.colours.index(link.colour), link.rule, looked)


def _turns(p: Partial) -> None:
    """With the corner rule: a path end's turns no path can take are cut (the dead turns, cpflow.deduce.turns),
    as the corner rule's steps count open sides."""
    if not p.allow & CORNER:
        return
    g = p.g
    for i in range(len(g.nodes)):
        if p.degree[i] == 1 and g.need[i] == 2 and g.turns.turning[i]:
            entered = next(j for j, e in g.adjacent[i] if p.state[e] == IN)
            for j, e in g.adjacent[i]:
                if not p.state[e] and g.turns.is_dead(i, entered, j):
                    p.cut(e)


def taken(p: Partial, i: int) -> int:
    """Path edges node i has, counting undecided ones to neighbours of its colour."""
    g, c = p.g, p.colour[i]
    same = sum(1 for j, e in g.adjacent[i] if not p.state[e] and c != NONE and p.colour[j] == c)
    return p.degree[i] + same


def open_sides(p: Partial, i: int) -> list[int]:
    """The neighbours node i's path may still go on to (see the module's docstring)."""
    g, ci = p.g, p.colour[i]
    found = []
    for j, e in g.adjacent[i]:
        cj = p.colour[j]
        if p.state[e] or (ci != NONE and cj == ci) or (ci != NONE and cj != NONE):
            continue
        if (ci != NONE and p.banned[j] >> ci & 1) or (cj != NONE and p.banned[i] >> cj & 1):
            continue
        if (cj != NONE and taken(p, j) >= g.need[j]) or (p.degree[i] and p.other[i] == j):
            continue
        found.append(j)
    return found


def _forced(p: Partial, i: int) -> list[int] | None:
    """The open sides of node i when it has just as many as it still needs (the degree rule), else None."""
    sides = open_sides(p, i)
    short = p.g.need[i] - taken(p, i)
    return sides if sides and short == len(sides) else None


def _path_colour(p: Partial, i: int, sides: Sequence[int]) -> set[int]:
    """The colours node i's path has or takes from the sides it must join."""
    return {p.colour[i]} if p.colour[i] != NONE else {p.colour[j] for j in sides if p.colour[j] != NONE}


def follows(p: Partial, i: int, c: int, rule: str, looked: Sequence[int]) -> bool:
    """Whether cell i, uncoloured, takes colour c by `rule` at the nodes `looked`, on p as it stands."""
    if p.colour[i] != NONE or p.banned[i] >> c & 1:
        return p.colour[i] == c  # coloured with the path an earlier link joined it to
    if rule == "degree":
        (y,) = looked
        sides = _forced(p, y)
        return sides is not None and (y == i or i in sides) and c in _path_colour(p, y, sides)
    if rule == "chamber":
        region, border = _region(p, i)
        return border == {c}
    if rule == "reach":
        return _reaching(p, i) == {c}
    return rule == "what if"  # depth 2: a what if of its own inside the assumption, not replayed here


def joins(p: Partial, i: int, j: int, rule: str, looked: Sequence[int]) -> bool:
    """Whether the path piece from node i to node j, both uncoloured, is joined by `rule` (the degree rule
    at i or j, one of the `looked`) on p as it stands: that node has just as many open sides as it needs,
    the other among them."""
    edge = _edge(p, i, j)
    if p.state[edge] == IN:
        return True
    if p.state[edge] or rule != "degree" or p.colour[i] != NONE or p.colour[j] != NONE:
        return False
    (y,) = looked
    sides = _forced(p, y)
    return sides is not None and y in (i, j) and (j if y == i else i) in sides


def _edge(p: Partial, i: int, j: int) -> int:
    return next(e for k, e in p.g.adjacent[i] if k == j)


def _play(p: Partial, i: int, c: int, rule: str, looked: Sequence[int]) -> None:
    """Play a link that follows: join the cell to the node with no other way on (both sides, for a
    cell with two open sides), then colour it."""
    g = p.g
    if p.colour[i] == c:
        return
    if rule == "degree":
        (y,) = looked
        toward = [j for j in open_sides(p, y) if j == i or y == i and p.colour[j] == c]
        for j, e in g.adjacent[y]:
            if toward and j == toward[0]:
                p.join(e)
    p.paint(i, c)


def _region(p: Partial, i: int) -> tuple[set[int], set[int]]:
    """The uncoloured nodes joined to node i by edges not out, and the colours of the open path ends
    beside them."""
    g = p.g
    region, stack, border = {i}, [i], set()
    while stack:
        k = stack.pop()
        for j, e in g.adjacent[k]:
            if p.state[e] == OUT:
                continue
            if p.colour[j] == NONE:
                if j not in region:
                    region.add(j)
                    stack.append(j)
            elif taken(p, j) < g.need[j]:
                border.add(p.colour[j])
    return region, border


def _reaching(p: Partial, i: int | None = None) -> set[int]:
    """The open colours whose path from one end may pass node i (through nodes of that colour or
    uncoloured ones it is not banned), on the way to its other end; all open colours whose ends
    cannot meet, when i is None."""
    g, found = p.g, set()
    for c, (a, b) in enumerate(g.pairs):
        if p.other[a] == b:
            continue
        seen, stack = {a}, [a]
        while stack:
            k = stack.pop()
            for j, e in g.adjacent[k]:
                if (
                    j not in seen
                    and p.state[e] != OUT
                    and (p.colour[j] == c or (p.colour[j] == NONE and not p.banned[j] >> c & 1))
                ):
                    seen.add(j)
                    stack.append(j)
        if (i is None and b not in seen) or (i is not None and b in seen and i in seen):
            found.add(c)
    return found


def broken(p: Partial, rule: str, nodes: Sequence[int]) -> bool:
    """Whether the contradiction `rule` at `nodes` holds on p as it stands."""
    g = p.g
    if rule == "degree":
        return all(g.need[i] - taken(p, i) > len(open_sides(p, i)) for i in nodes)
    if rule == "branch":  # a node with more path edges than it takes, or full with a neighbour that must join it
        full = [i for i in nodes if taken(p, i) >= g.need[i]]
        return any(taken(p, i) > g.need[i] or any(_must_join(p, j, i) for j in g.near[i]) for i in full)
    if rule in ("touch", "loop", "colour"):
        i, j = nodes[:2] if len(nodes) > 1 else (nodes[0], nodes[0])
        return _forced_together(p, i, j, rule)
    if rule == "chamber":
        return any(p.colour[i] == NONE and not _region(p, i)[1] for i in nodes)
    if rule == "reach":
        return bool(_reaching(p)) if len(nodes) > 1 else not _reaching(p, nodes[0])
    return rule == "what if"


def _must_join(p: Partial, i: int, k: int) -> bool:
    """Whether node i needs every side it has left, the one to k among them (the degree rule, even where
    joining k breaks a rule)."""
    edge = _edge(p, i, k)
    sides = set(open_sides(p, i)) | ({k} if not p.state[edge] else set())
    return k in sides and p.g.need[i] - taken(p, i) == len(sides)


def _forced_together(p: Partial, i: int, j: int, rule: str) -> bool:
    """Whether neighbours i and j must be joined and cannot be: same colour with the edge out or a side
    too many (touch), the two ends of one chain (loop), two colours (colour)."""
    g = p.g
    edge = next((e for k, e in g.adjacent[i] if k == j), None)
    if edge is None:
        return False
    ci, cj = p.colour[i], p.colour[j]
    must = p.state[edge] == IN or ci == cj != NONE or _must_join(p, i, j) or _must_join(p, j, i)
    if rule == "touch":
        return ci == cj != NONE and (p.state[edge] == OUT or taken(p, i) > g.need[i] or taken(p, j) > g.need[j])
    if rule == "loop":
        return p.other[i] == j and p.degree[i] > 0 and must
    return ci != NONE and cj != NONE and ci != cj and must

"""Settling: the rules applied to a partial solution until none applies (models/forced.md, "Rules").

`settle` runs the rules that look at queued nodes (degree, branch, colour, touch, loop and
the dead turns: `_local`), then the chamber rule (`_regions`), then the reach rule (`_reach`),
again until none colours anything. The rules that act while edges are joined and cut (the
colour of a chain, the corner rule) are the partial solution's moves (cpflow.deduce.rules).
Each rule acts only when its flag (cpflow.deduce.rulebook) is in the partial solution's `allow`.
"""

from __future__ import annotations

from collections.abc import Iterable

from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rulebook import CHAMBER, CORNER, REACH
from cpflow.deduce.rules import IN, NONE, OUT, Cause, Contradiction, Partial


def settle(p: Partial, reach: bool = True, deadline: Deadline = NEVER) -> None:
    """Apply the rules until none applies; Contradiction if one finds no way on, OutOfTime once
    the deadline has passed (looked at between floods: a board of thousands of colours takes
    minutes of them). Without `reach`, the reach rule (a flood per colour, the costliest) is left out."""
    while True:
        deadline.check()
        _local(p)
        if not (p.allow & CHAMBER and _regions(p)) and not (reach and p.allow & REACH and _reach(p, deadline)):
            return


def _local(p: Partial) -> None:
    """The degree, colour and loop rules, on queued nodes until the queue is empty."""
    queue, state, adjacent = p.queue, p.state, p.g.adjacent
    degree, free, need, colour, other = p.degree, p.free, p.g.need, p.colour, p.other
    banned, logging = p.banned, p.log is not None
    turning, is_dead = p.g.turns.turning, p.g.turns.is_dead
    turns, touch, dirty = p.allow & CORNER, p.g.touch, p.dirty
    while queue:
        i = queue.pop()
        if dirty is not None:
            dirty.add(i)
        if not free[i]:
            if degree[i] < need[i]:
                raise Contradiction("degree", (i,), colour[i])
            continue
        undecided = [(j, edge) for j, edge in adjacent[i] if not state[edge]]
        short = need[i] - degree[i]
        if short == 0:
            for _, edge in undecided:
                p.cut(edge)
        elif short > len(undecided):
            raise Contradiction("degree", (i,), colour[i])
        elif short == len(undecided):
            if logging:
                p.why = Cause("degree", (i,))
            for _, edge in undecided:
                if not state[edge]:
                    p.join(edge)
        else:
            if turns and degree[i] == 1 and turning[i]:
                entered = next(j for j, edge in adjacent[i] if state[edge] == IN)
                dead = [edge for j, edge in undecided if not state[edge] and is_dead(i, entered, j)]
                if dead:
                    for edge in dead:
                        p.cut(edge)  # the path cannot turn that way here
                    continue
            if logging:
                p.why = Cause("colour", (i,))
            ci, end = colour[i], other[i] if degree[i] else -1
            for j, edge in undecided:
                if state[edge]:
                    continue
                cj = colour[j]
                if ci != NONE and cj != NONE:
                    if ci != cj:
                        p.cut(edge)
                    elif not touch:
                        p.join(edge)
                        break  # i changed: look again
                elif j == end:
                    p.cut(edge)
                elif (cj != NONE and banned[i] >> cj & 1) or (ci != NONE and banned[j] >> ci & 1):
                    p.cut(edge)  # joining would give a node a colour it cannot take


def _regions(p: Partial) -> bool:
    """The chamber rule; whether it coloured anything (then settle again). Only the regions
    within or beside a node looked at since it last held (`dirty`) can have changed, and a
    region's flood stops at its second colour: nothing follows from it then."""
    g, colour, state = p.g, p.colour, p.state
    adjacent, degree, need = g.adjacent, p.degree, g.need
    painted = False
    mark = [0] * len(g.nodes)  # uncoloured nodes: the flood that reached them (from 1)
    if p.dirty is None:
        starts: Iterable[int] = range(len(g.nodes))
    else:
        starts = {j for i in p.dirty for j in g.near[i]} | p.dirty
    p.dirty = set()
    flood = 0
    for start in starts:
        if colour[start] != NONE or mark[start]:
            continue
        flood += 1
        region, stack, border = [start], [start], set[int]()
        mark[start] = flood
        while stack:
            i = stack.pop()
            for j, edge in adjacent[i]:
                if state[edge] == OUT:
                    continue
                cj = colour[j]
                if cj == NONE:
                    if not mark[j]:
                        mark[j] = flood
                        region.append(j)
                        stack.append(j)
                    elif mark[j] != flood:
                        border.update((-1, -2))  # an earlier flood's region, which stopped at two colours
                elif degree[j] < need[j]:
                    border.add(cj)
            if len(border) > 1:
                break
        if not border:
            raise Contradiction("chamber", tuple(region))  # no path can reach these nodes
        if len(border) == 1:
            c = border.pop()
            p.why = Cause("chamber", tuple(region))
            for i in region:
                p.paint(i, c)
            painted = True
    return painted


def _reach(p: Partial, deadline: Deadline = NEVER) -> bool:
    """Each open colour's endpoints meet through nodes it may take; a node only one colour
    reaches takes it. Keeps each colour's reach in `p.reach`."""
    g, colour, state, other, banned = p.g, p.colour, p.state, p.other, p.banned
    adjacent = g.adjacent
    reached = [0] * len(g.nodes)  # uncoloured nodes: how many colours reach them
    last = [NONE] * len(g.nodes)
    p.reach = []
    for c, (a, b) in enumerate(g.pairs):
        if other[a] == b:
            p.reach.append(set())
            continue  # done
        deadline.check()
        seen, stack = {a}, [a]
        while stack:
            i = stack.pop()
            for j, edge in adjacent[i]:
                if j in seen or state[edge] == OUT:
                    continue
                if colour[j] == c or (colour[j] == NONE and not banned[j] >> c & 1):
                    seen.add(j)
                    stack.append(j)
        if b not in seen:
            raise Contradiction("reach", (a, b), c)  # the colour's endpoints cannot meet
        p.reach.append(seen)
        for i in seen:
            if colour[i] == NONE:
                reached[i] += 1
                last[i] = c
    painted = False
    for i in range(len(g.nodes)):
        if colour[i] == NONE:
            if not reached[i]:
                raise Contradiction("reach", (i,))
            if reached[i] == 1:
                p.why = Cause("reach", (i, *g.pairs[last[i]]))
                p.paint(i, last[i])
                painted = True
    return painted

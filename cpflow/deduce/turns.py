"""Dead turns: the turns no path can take, found once per board (models/forced.md, rule 5).

A turn (p, a, b) is a path through a, p, b. Every node q beside both a and b cannot join
that path (the corner rule); q, not an endpoint, must then take two of its other edges.
With one other edge left it cannot; with exactly two left it turns through them, and the
turn is dead when that turn is. On a rectangle this follows a diagonal to an endpoint or
to the board's edge, where the turns are dead. Deadness is spread from the turns dead
outright, one turn at a time (no recursion: a diagonal is as long as the board), so only a
finite chain proves a turn dead; a cycle of turns proves nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import combinations

from cpflow.clock import NEVER, Deadline

Pair = tuple[int, int]  # two numbered nodes, the smaller first, e.g. (3, 7)


class DeadTurns:
    """The dead turns of a numbered board, held in room linear in its edges: a
    list of turns grows with the square of a node's degree (a hub of 10,000 neighbours has 50
    million). A turn (p, a, b) is dead when a and b are neighbours, or when a node q other
    than p, beside both and no endpoint, `blocks` the pair a, b: cut from a and b, q cannot
    turn through its other edges, having fewer than two, or two whose turn is dead in turn.
    Only nodes of two to four neighbours block, six pairs each at most; a pair keeps two of
    its blockers, enough to find one other than any p. `near[i]`: node i's neighbours."""

    def __init__(self, near: list[frozenset[int]], ends: Collection[int], deadline: Deadline = NEVER):
        self.near, self.ends = near, ends
        self.blockers = _blockers(near, ends, deadline)
        self.turning = _turning(near, ends, self.blockers, deadline)  # 1: some turn through the node is dead

    def is_dead(self, p: int, a: int, b: int) -> bool:
        """Whether no path can turn at p (no endpoint) through its neighbours a and b."""
        if a in self.near[b]:
            return True
        held = self.blockers.get((a, b) if a < b else (b, a))
        return held is not None and (held[0] != p or len(held) > 1)

    def listed(self, deadline: Deadline = NEVER) -> list[tuple[int, int, int]]:
        """Every dead turn (p, a, b), a < b, in order: those between neighbours, then those of
        blocked pairs, each found from what makes it dead (not by trying every turn)."""
        near, ends, found = self.near, self.ends, []
        for p, dead in enumerate(self.turning):
            if dead:
                deadline.check()
                found += [(p, a, b) for a in near[p] for b in near[p] & near[a] if a < b]
        for (a, b), held in self.blockers.items():
            if b not in near[a]:
                deadline.check()
                found += [(p, a, b) for p in near[a] & near[b] if p not in ends and (held[0] != p or len(held) > 1)]
        return sorted(found)


def _blockers(near: list[frozenset[int]], ends: Collection[int], deadline: Deadline) -> dict[Pair, list[int]]:
    """Each blocked pair's blockers, two at most: a node of two or three neighbours blocks
    every pair of them; one of four blocks a pair when its turn through the other two is dead,
    between neighbours or blocked by another node in turn (spread through a worklist)."""
    members: dict[Pair, list[int]] = {}  # a pair -> the nodes of four neighbours beside both, no endpoints
    blocks: list[tuple[int, Pair]] = []  # (q, pair): q blocks the pair, to be recorded
    for q, around in enumerate(near):
        if q in ends or not 2 <= len(around) <= 4:
            continue
        if q % 4096 == 0:
            deadline.check()
        for pair in combinations(sorted(around), 2):
            if len(around) < 4:
                blocks.append((q, pair))
            else:
                members.setdefault(pair, []).append(q)
                if pair[0] in near[pair[1]]:
                    blocks.append((q, _across(around, pair)))  # its turn through the pair is dead
    blockers: dict[Pair, list[int]] = {}
    while blocks:
        q, pair = blocks.pop()
        held = blockers.setdefault(pair, [])
        if q in held or len(held) == 2:
            continue
        held.append(q)
        # the nodes of four whose turn through the pair this makes dead: all but q when q is its
        # first blocker; the first one when q is the second
        if len(held) == 1:
            dying = [m for m in members.get(pair, ()) if m != q]
        else:
            dying = [held[0]] if len(near[held[0]]) == 4 else []
        blocks += [(m, _across(near[m], pair)) for m in dying]
    return blockers


def _across(around: frozenset[int], pair: Pair) -> Pair:
    """A node of four neighbours: the two other than `pair`, which it turns through if it is cut from `pair`."""
    a, b = sorted(around.difference(pair))
    return a, b


def _turning(
    near: list[frozenset[int]], ends: Collection[int], blockers: dict[Pair, list[int]], deadline: Deadline
) -> bytearray:
    """Whether some turn through each node is dead: beside two neighbours, or beside a pair blocked by another node."""
    turning = bytearray(len(near))
    for p, around in enumerate(near):
        if p % 4096 == 0:
            deadline.check()
        if p not in ends and any(not around.isdisjoint(near[a]) for a in around):
            turning[p] = 1
    for (a, b), held in blockers.items():
        for p in near[a] & near[b]:
            if p not in ends and (held[0] != p or len(held) > 1):
                turning[p] = 1
    return turning

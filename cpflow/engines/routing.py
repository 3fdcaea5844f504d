"""Witnesses drawn without a solver: paths routed one colour at a time by breadth-first search.

A witness of why (cpflow.engines.why) is a set of paths, some colours left out and cells left
empty, that connects the colours wanted and covers the cells wanted. When few cells are wanted,
most such sets are easy to draw: each wanted colour along a shortest path, and each wanted cell
not yet covered by some colour routed through it, from the cell to one of its endpoints and on
to the other (chosen among the colours whose endpoints are nearest the cell), every path on
cells no path holds yet and no other colour's endpoint. A shortest path never touches itself, and
the second leg keeps clear of the first's cells and their neighbours, so under the no-touching
rule each path is one. The routing is greedy: it tries again in other orders (seeded, so the
same call draws the same) and gives up after `TRIES` (or at its deadline), answering None; what it draws is checked
by the caller's verifier like any other witness.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Collection
from dataclasses import replace

from cpflow.board.grid import Colour, Node, Puzzle, Solution
from cpflow.clock import NEVER, Deadline

TRIES = 8  # orders tried before giving up
NEAREST = 4  # colours tried for each cell to cover, nearest first


def route(
    puzzle: Puzzle,
    connect: Collection[Colour],
    cover: Collection[Node],
    deadline: Deadline = NEVER,
    tries: int = TRIES,
    partial: bool = False,
) -> Solution | None:
    """Paths that connect every colour of `connect` and cover every node of `cover` under the
    puzzle's rules (blanks allowed, other colours left out), or None when the greedy routing
    finds none in `tries` orders (or by the deadline); with `partial`, then the paths of the order
    that missed the fewest (each colour or cell it could not route left out)."""
    owner = puzzle.endpoint_colour()
    chance = random.Random(0)  # noqa: S311  (an order to try, not a secret)
    colours, cells = list(connect), [n for n in cover if n not in owner]
    around = puzzle.neighbours
    best: tuple[int, Solution | None] = (len(colours) + len(cells) + 1, None)
    for attempt in range(tries):
        if deadline.left() == 0:
            break
        if attempt:  # another order of the colours, the cells and each node's neighbours (which shortest path)
            chance.shuffle(colours)
            chance.shuffle(cells)
            around = {n: tuple(chance.sample(ws, len(ws))) for n, ws in puzzle.neighbours.items()}
        missed, found = _attempt(replace(puzzle, neighbours=around), owner, colours, cells, deadline, partial)
        if found is not None and not missed:
            return found
        best = min(best, (missed, found), key=lambda pair: pair[0])
    return best[1] if partial else None


def _attempt(puzzle: Puzzle, owner: dict, colours: list[Colour], cells: list[Node], deadline: Deadline, partial: bool):
    """(what it missed, paths) of one greedy routing: the colours wanted along shortest paths, then each
    cell left uncovered; (1, None) at the first miss unless `partial`, which goes on without it."""
    held: set[Node] = set()
    paths: dict[Colour, tuple[Node, ...]] = {}
    missed = 0
    for colour in colours:
        start, end = puzzle.endpoints[colour]
        path = _shortest(puzzle, owner, held, start, {end})
        if path is None:
            if not partial:
                return 1, None
            missed += 1
            continue
        paths[colour] = path
        held.update(path)
    for cell in cells:
        if cell in held:
            continue
        if deadline.left() == 0:
            return 1, None
        through = _through(puzzle, owner, held, paths, cell)
        if through is None:
            if not partial:
                return 1, None
            missed += 1
            continue
        colour, path = through
        paths[colour] = path
        held.update(path)
    return missed, Solution(paths)


def _through(puzzle: Puzzle, owner: dict, held: set[Node], paths: dict, cell: Node):
    """(colour, path) of a colour not yet drawn routed through `cell`, the nearest colours first."""
    parent = _tree(puzzle, owner, held, cell)
    reached = {n: _depth(parent, n) for n in parent if n in owner}
    near = [
        (reached[a] + reached[b], colour)
        for colour, (a, b) in puzzle.endpoints.items()
        if colour not in paths and a in reached and b in reached
    ]
    for _, colour in sorted(near)[:NEAREST]:
        for first, second in (puzzle.endpoints[colour], puzzle.endpoints[colour][::-1]):
            leg = _back(parent, first)  # first ... cell
            clear = set(leg) if puzzle.rules.touch else set(leg) | {w for n in leg[:-1] for w in puzzle.neighbours[n]}
            rest = _shortest(puzzle, owner, held | clear - {cell}, cell, {second})
            if rest is not None:
                path = leg + rest[1:]
                return colour, path if first == puzzle.endpoints[colour][0] else path[::-1]
    return None


def _shortest(puzzle: Puzzle, owner: dict, held: set[Node], start: Node, ends: set[Node]):
    """A shortest path from `start` to one of `ends` on nodes not held and no endpoint on the way."""
    parent = _tree(puzzle, owner, held, start, ends)
    for end in ends:
        if end in parent:
            return _back(parent, end)[::-1]
    return None


def _tree(puzzle: Puzzle, owner: dict, held: set[Node], root: Node, stop: set[Node] | None = None) -> dict:
    """Breadth-first parents from `root` over the nodes not held; an endpoint is reached, never passed."""
    parent: dict[Node, Node | None] = {root: None}
    queue = deque([root])
    while queue:
        node = queue.popleft()
        if node != root and node in owner:
            if stop is not None and node in stop:
                break
            continue
        for w in puzzle.neighbours[node]:
            if w not in parent and w not in held:
                parent[w] = node
                queue.append(w)
    return parent


def _back(parent: dict, node: Node) -> tuple[Node, ...]:
    """The path from `node` back to the tree's root."""
    path = [node]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return tuple(path)


def _depth(parent: dict, node: Node) -> int:
    return len(_back(parent, node))

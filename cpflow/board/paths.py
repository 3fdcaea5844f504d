"""Walking a graph: reading paths from the steps an answer takes, and what a node can reach.

Every engine reads its answer with `walk` (from arcs, joined edges or coloured cells),
and pruning and loop finding use `reach`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

from cpflow.board.grid import Node, Puzzle, Solution

Steps = Mapping[Node, Collection[Node]] | Callable[[Node], Iterable[Node]]  # where a path may go next from a node


def walk(puzzle: Puzzle, steps: Steps) -> Solution:
    """Each colour's path, followed from its first endpoint through `steps` to its second.

    A walk stops where no step leads on to an unvisited node: a broken answer gives a
    path the verifier will reject, never an endless loop.
    """
    ahead = steps if callable(steps) else (lambda node: steps.get(node, ()))
    paths = {}
    for colour, (start, end) in puzzle.endpoints.items():
        path, seen = [start], {start}
        while path[-1] != end:
            options = [node for node in ahead(path[-1]) if node not in seen]
            if not options:
                break
            path.append(end if end in options else options[0])
            seen.add(path[-1])
        paths[colour] = tuple(path)
    return Solution(paths)


def reach(
    starts: Iterable[Node], steps: Steps, blocked: Collection[Node] = (), stop: Collection[Node] = ()
) -> set[Node]:
    """The nodes reached from `starts` through `steps` (a mapping must have every node as a key),
    never entering `blocked`; a `stop` node is reached, not passed."""
    ahead = steps if callable(steps) else steps.__getitem__
    seen = set(starts)
    stack = [node for node in seen if node not in stop]
    while stack:
        for node in ahead(stack.pop()):
            if node not in seen and node not in blocked:
                seen.add(node)
                if node not in stop:
                    stack.append(node)
    return seen

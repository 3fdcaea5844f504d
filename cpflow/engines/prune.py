"""Which nodes each colour could possibly use, worked out before any model is built.

A colour's path runs from its first endpoint to its second without entering another
colour's endpoint, so a node it uses must be reachable from both of its endpoints
without crossing other endpoints (or its own far endpoint). Any engine can use these
domains to leave out variables that could only ever be false.
"""

from __future__ import annotations

from cpflow.board.grid import Colour, Node, Puzzle, describe
from cpflow.board.paths import reach
from cpflow.clock import NEVER, Deadline


def domains(puzzle: Puzzle, deadline: Deadline = NEVER) -> dict[Colour, frozenset[Node]]:
    """The nodes each colour may use; a colour whose endpoints cannot meet gets an empty set."""
    owner = puzzle.endpoint_colour()
    result = {}
    for colour, (start, end) in puzzle.endpoints.items():
        deadline.check()
        blocked = {node for node, other in owner.items() if other != colour}
        from_start = reach([start], puzzle.neighbours, blocked, {end})
        from_end = reach([end], puzzle.neighbours, blocked, {start})
        result[colour] = frozenset(from_start & from_end) if end in from_start else frozenset()
    return result


def impossibility(puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Node]]) -> str | None:
    """Why the puzzle cannot be solved on its domains alone, or None if that is not clear."""
    for colour, nodes in colour_domains.items():
        if not nodes:
            return f"colour {colour!r} cannot reach its other endpoint"
    for node, colour in puzzle.drawn.items():
        if node not in colour_domains.get(colour, ()):
            return f"the drawn {colour!r} at {describe(node)} is out of that colour's reach"
    covered = set().union(*colour_domains.values())
    for node in puzzle.nodes:
        if node not in covered and not puzzle.rules.blanks:
            return f"no colour can reach {describe(node)}"
    return None

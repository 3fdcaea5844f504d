"""Which cells each colour could possibly use, worked out before any model is built.

A colour's path runs from its first endpoint to its second without entering another
colour's endpoint, so a cell it uses must be reachable from both of its endpoints
without crossing other endpoints (or its own far endpoint). Any engine can use these
domains to leave out variables that could only ever be false.
"""

from __future__ import annotations

from collections import deque

from cpflow.grid import Cell, Colour, Puzzle


def domains(puzzle: Puzzle) -> dict[Colour, frozenset[Cell]]:
    """The cells each colour may use; a colour whose endpoints cannot meet gets an empty set."""
    owner = puzzle.endpoint_colour()
    result = {}
    for colour, (start, end) in puzzle.endpoints.items():
        blocked = {cell for cell, other in owner.items() if other != colour}
        from_start = _reach(puzzle, start, blocked, end)
        from_end = _reach(puzzle, end, blocked, start)
        result[colour] = frozenset(from_start & from_end) if end in from_start else frozenset()
    return result


def _reach(puzzle: Puzzle, source: Cell, blocked: set[Cell], stop: Cell) -> set[Cell]:
    """Cells reachable from source avoiding `blocked`; `stop` is reached but not passed."""
    seen, queue = {source}, deque([source])
    while queue:
        cell = queue.popleft()
        for nxt in puzzle.neighbours[cell]:
            if nxt not in seen and nxt not in blocked:
                seen.add(nxt)
                if nxt != stop:
                    queue.append(nxt)
    return seen


def impossibility(puzzle: Puzzle, colour_domains: dict[Colour, frozenset[Cell]]) -> str | None:
    """Why the puzzle cannot be solved on its domains alone, or None if that is not clear."""
    for colour, cells in colour_domains.items():
        if not cells:
            return f"colour {colour!r} cannot reach its other endpoint"
    covered = set().union(*colour_domains.values())
    for cell in puzzle.cells:
        if cell not in covered:
            return f"no colour can reach cell {cell}"
    return None

"""Checks a solution against the rules; imports no solver, so it can judge any engine.

The rules, on the puzzle's graph: each colour's path joins its two endpoints through
neighbouring nodes; no node is used twice (paths never cross, share a node or loop);
every node is covered (both lanes of a bridge); a path never touches itself (two
neighbouring nodes of one colour are consecutive on its path; a bridge's two lanes are
not neighbours). The puzzle's `rules` may lift the last two (`blanks`, `touch`), and
its `drawn` cells (a play) must keep their colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from cpflow.board.grid import Colour, Node, Path, Puzzle, Solution, cell_name, describe


@dataclass(frozen=True)
class Problem:
    """A rule a solution breaks: where (a node, or None for the whole solution), what in a few words
    for a player (`short`, e.g. 'path B touches itself'), and the sentence `violations` gives."""

    node: Node | None
    short: str
    said: str

    def located(self) -> str:
        """'r3c5: path B touches itself': the cell first, when there is a node."""
        return self.short if self.node is None else f"{cell_name(self.node)}: {self.short}"


def is_solution(puzzle: Puzzle, solution: Solution) -> bool:
    return not violations(puzzle, solution)


def violations(puzzle: Puzzle, solution: Solution) -> list[str]:
    """Every rule the solution breaks, as sentences naming colours and cells; [] if none."""
    return [problem.said for problem in problems(puzzle, solution)]


def problems(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """Every rule the solution breaks, the first one first: colours, each path, sharing and
    cover, the play's cells, the colours a grid was written in, then (only when all else holds) touching."""
    found = _colour_set_violations(puzzle, solution)
    for colour, path in solution.paths.items():
        if colour in puzzle.endpoints:
            found += _path_violations(puzzle, colour, path)
    found += _sharing_violations(puzzle, solution)
    found += _play_violations(puzzle, solution)
    found += _painted_violations(solution)
    if not found and not puzzle.rules.touch:
        found += _self_touch_violations(puzzle, solution)
    return found


def _colour_set_violations(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    missing = [c for c in puzzle.colours if c not in solution.paths]
    unknown = [c for c in solution.paths if c not in puzzle.endpoints]
    return [Problem(puzzle.endpoints[c][0], f"path {c} is missing", f"colour {c!r} has no path") for c in missing] + [
        Problem(None, f"colour {c} is not in the puzzle", f"colour {c!r} is not in the puzzle") for c in unknown
    ]


def _path_violations(puzzle: Puzzle, colour: Colour, path: Path) -> list[Problem]:
    """The path stays on the board, steps between neighbours and joins its endpoints."""
    off = [node for node in path if node not in puzzle.neighbours]
    found = [
        Problem(None, f"path {colour} leaves the board", f"colour {colour!r}: {describe(node)} is not on the board")
        for node in off
    ]
    if len(path) < 2 or {path[0], path[-1]} != set(puzzle.endpoints[colour]):
        stop = path[-1] if path and path[-1] in puzzle.neighbours else puzzle.endpoints[colour][0]
        found.append(
            Problem(
                stop,
                f"path {colour} stops here, short of its other end",
                f"colour {colour!r}: path does not run from one endpoint to the other",
            )
        )
    found += [
        Problem(
            a if a in puzzle.neighbours else None,
            f"path {colour} jumps to {cell_name(b)}, which is not beside it",
            f"colour {colour!r}: {describe(a)} and {describe(b)} are consecutive but not neighbours",
        )
        for a, b in pairwise(path)
        if not puzzle.are_neighbours(a, b)
    ]
    return found


def _sharing_violations(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """Each node is used exactly once: no crossing, no shared node, no loop, no gap."""
    owners: dict = {}
    for colour, path in solution.paths.items():
        for node in path:
            owners.setdefault(node, []).append(colour)
    found = []
    for node, colours in owners.items():
        if len(colours) > 1 and len(set(colours)) == 1:
            said = f"colour {colours[0]!r} visits {describe(node)} more than once (a loop)"
            found.append(Problem(node, f"path {colours[0]} comes back here (a loop)", said))
        elif len(colours) > 1:
            names = " and ".join(sorted(set(colours)))
            said = f"{describe(node)} is used by colours {sorted(set(colours))}"
            found.append(Problem(node, f"paths {names} cross or share this cell", said))
    if not puzzle.rules.blanks:
        found += [
            Problem(node, "no path covers this cell", f"{describe(node)} is not covered")
            for node in puzzle.nodes
            if node not in owners
        ]
    return found


def _play_violations(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """Every drawn node (the play's) keeps its colour."""
    colour_of = solution.colour_of()
    found = []
    for node, colour in puzzle.drawn.items():
        if colour_of.get(node) != colour:
            has = f"has {colour_of[node]!r}" if node in colour_of else "is empty"
            found.append(Problem(node, f"drawn {colour} but {has}", f"{describe(node)} is drawn {colour!r} but {has}"))
    return found


def _painted_violations(solution: Solution) -> list[Problem]:
    """Read from a coloured grid, every cell on a path is written in that path's colour (an endpoint
    painted over is not)."""
    colour_of = solution.colour_of()
    return [
        Problem(
            node,
            f"painted {painted}, on path {colour_of[node]}",
            f"{describe(node)} is {painted!r} on {colour_of[node]!r}'s path",
        )
        for node, painted in solution.painted.items()
        if colour_of.get(node, painted) != painted
    ]


def _self_touch_violations(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """Two neighbouring nodes of one colour must be consecutive on that colour's path."""
    colour_of = solution.colour_of()
    steps = {frozenset(pair) for path in solution.paths.values() for pair in pairwise(path)}
    return [
        Problem(
            a,
            f"path {colour_of[a]} touches itself (beside {cell_name(b)})",
            f"colour {colour_of[a]!r} touches itself at {describe(a)} and {describe(b)}",
        )
        for a in puzzle.nodes
        for b in puzzle.neighbours[a]
        if a < b and a in colour_of and colour_of[a] == colour_of.get(b) and frozenset((a, b)) not in steps
    ]

"""What is wrong with a drawn board, said for a person: one line a mistake, naming the cell that
explains it, instead of every rule each broken path then breaks.

A board read from a coloured grid keeps each cell's colour as written (`Solution.painted`), and
the mistakes are read off the colours: an endpoint painted over, a path that breaks (and the cell
where it breaks, with the colour that stands there), cells of a colour that its path never reaches,
a path that branches or touches itself, cells left empty. Paths given without a grid (JSON) are
said by the rules they break (`verify.problems`), the cells no path covers in one line. Imports no
solver: the verifier's verdict stands, this only says it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cpflow.board.grid import Colour, Node, Puzzle, Solution, cell_name
from cpflow.board.paths import reach
from cpflow.board.verify import Problem, problems

SHOWN = 3  # cells named in one line at most
STOPS = "short of its other end"
EMPTY = "no path covers"


@dataclass(frozen=True)
class Mistake(Problem):
    """A Problem as a person made it; `unfinished` when it is only a part not drawn yet."""

    unfinished: bool = False


def mistakes(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """What a person got wrong, one Problem a mistake, the one that explains the most first; [] if
    the solution is right (exactly when `verify.problems` finds nothing)."""
    broken = problems(puzzle, solution)
    if not broken:
        return []
    said: list[Problem] = list(_from_colours(puzzle, solution)) if solution.painted else []
    touching = [p for p in broken if "touches itself" in p.short or p.short.startswith("drawn ")]
    return (said + [p for p in touching if p.node not in {q.node for q in said}]) or _uncovered_in_one(broken)


def is_partial(found: list[Problem]) -> bool:
    """Whether the mistakes found are only that the board is not finished (an unfinished play):
    paths that stop short, cells left empty, and nothing drawn against the rules."""
    return bool(found) and all(isinstance(p, Mistake) and p.unfinished for p in found)


def _from_colours(puzzle: Puzzle, solution: Solution) -> list[Mistake]:
    """The mistakes read off the cells' colours as written."""
    colour = _colours(puzzle, solution.painted)
    found = _painted_over(puzzle, solution.painted)
    named: set[Node] = {p.node for p in found if p.node is not None}
    pieces = {c: _pieces(puzzle, colour, c) for c in puzzle.colours}
    home = {node: c for c, (ends, _) in pieces.items() for node in ends}  # each cell in its colour's end pieces
    whole = set()
    for c in puzzle.colours:
        a, b = puzzle.endpoints[c]
        if b in _reached(puzzle, colour, c, a):
            whole.add(c)
            continue
        gap = _where_it_breaks(puzzle, solution, colour, c, home)
        if gap is not None:
            named.add(gap)
            said = _breaks_here(c, colour.get(gap), gap in home)
            found.append(Mistake(gap, said, "", unfinished=gap not in colour))
        else:
            stop = solution.paths[c][-1] if solution.paths.get(c) else a
            found.append(Mistake(stop, f"path {c} stops here, {STOPS} ({cell_name(b)})", "", unfinished=True))
    for c in puzzle.colours:
        for piece in pieces[c][1]:
            cells = [n for n in piece if n not in named]
            if cells:
                named.update(cells)
                found.append(Mistake(cells[0], _stray(c, cells), ""))
    for c, path in solution.paths.items():
        if c not in puzzle.endpoints:
            continue
        if c in whole:
            off = [n for n in sorted(pieces[c][0]) if n not in set(path) and n not in named]
            if off:
                named.update(off)
                found.append(Mistake(off[0], f"{c}, off path {c} (a branch{_others(off, ' with')})", ""))
            continue
        for end in puzzle.endpoints[c]:
            if end not in named and sum(colour.get(n) == c for n in puzzle.neighbours[end]) > 1:
                named.add(end)
                found.append(Mistake(end, f"{c}'s endpoint, but path {c} runs on past it", ""))
    empty = [n for n in puzzle.nodes if len(n) == 2 and n not in colour and n not in named]
    if empty and not puzzle.rules.blanks:
        found.append(Mistake(empty[0], f"{EMPTY} it{_others(empty, ', nor', 'or')}", "", unfinished=True))
    return found


def _colours(puzzle: Puzzle, painted: Mapping[Node, Colour]) -> dict[Node, Colour]:
    """Each cell's colour as drawn, an endpoint always its own (a bridge's lanes are left out)."""
    colour = {node: c for node, c in painted.items() if c in puzzle.endpoints and node in puzzle.neighbours}
    colour.update(puzzle.endpoint_colour())
    return colour


def _painted_over(puzzle: Puzzle, painted: Mapping[Node, Colour]) -> list[Mistake]:
    return [
        Mistake(node, f"{c}'s endpoint, painted {painted[node]}", "")
        for c, ends in puzzle.endpoints.items()
        for node in ends
        if painted.get(node, c) != c
    ]


def _reached(puzzle: Puzzle, colour: Mapping[Node, Colour], c: Colour, start: Node) -> set[Node]:
    """The nodes of colour `c` joined to `start` through its colour (and across bridges' lanes)."""
    return reach([start], lambda n: [m for m in puzzle.neighbours[n] if colour.get(m, c if len(m) == 3 else None) == c])


def _pieces(puzzle: Puzzle, colour: Mapping[Node, Colour], c: Colour) -> tuple[set[Node], list[list[Node]]]:
    """The cells of colour `c` joined to its endpoints, and the other pieces of it, in reading order."""
    a, b = puzzle.endpoints[c]
    ends = _reached(puzzle, colour, c, a) | _reached(puzzle, colour, c, b)
    left = sorted(n for n, k in colour.items() if k == c and n not in ends)
    pieces: list[list[Node]] = []
    while left:
        piece = _reached(puzzle, colour, c, left[0])
        pieces.append(sorted(n for n in piece if len(n) == 2))
        left = [n for n in left if n not in piece]
    return {n for n in ends if len(n) == 2}, pieces


def _kept(puzzle: Puzzle, solution: Solution, home: Mapping[Node, Colour]) -> set[Node]:
    """The cells drawn as they may be: the endpoints, and the cells joined to an endpoint of their
    colour, unless that colour's cells hold its whole path and more (a branch: any may be the stray),
    or its path touches itself (a detour through a stray cell: on a hexagonal board a changed cell
    can join another colour's path that way)."""
    whole = {
        c: set(path)
        for c, path in solution.paths.items()
        if path and c in puzzle.endpoints and {path[0], path[-1]} == set(puzzle.endpoints[c])
    }
    branched = {c for n, c in home.items() if c in whole and n not in whole[c]}
    branched |= {c for c in whole if not puzzle.rules.touch and _touches(puzzle, solution.paths[c])}
    return {n for n, c in home.items() if c not in branched} | set(puzzle.endpoint_colour())


def _touches(puzzle: Puzzle, path: tuple[Node, ...]) -> bool:
    """Whether two cells of the path are neighbours without following each other on it."""
    at = {node: i for i, node in enumerate(path)}
    return any(abs(at[m] - i) > 1 for i, node in enumerate(path) for m in puzzle.neighbours[node] if m in at)


def _where_it_breaks(
    puzzle: Puzzle, solution: Solution, colour: Mapping[Node, Colour], c: Colour, home: Mapping[Node, Colour]
) -> Node | None:
    """The cell between the two pieces of `c` (one from each endpoint, beside both) that is not drawn
    as it may be, if one is: first a colour's cell its path never reaches, then one off its colour's
    path, then an empty one, then one on a path that branches."""
    kept = _kept(puzzle, solution, home)
    one, other = (_reached(puzzle, colour, c, end) for end in puzzle.endpoints[c])
    between = [
        n
        for n in puzzle.nodes
        if len(n) == 2 and n not in kept and _beside(puzzle, n, one) and _beside(puzzle, n, other)
    ]
    on = {n for path in solution.paths.values() for n in path}
    return min(between, key=lambda n: (n in home) + 2 * (n not in colour) + 3 * (n in on), default=None)


def _beside(puzzle: Puzzle, node: Node, nodes: set[Node]) -> bool:
    return any(m in nodes for m in puzzle.neighbours[node])


def _breaks_here(c: Colour, there: Colour | None, reached: bool) -> str:
    if there is None:
        return f"empty, where path {c} breaks"
    why = f"path {there} branches" if reached else f"no path {there} reaches it"
    return f"{there} breaks path {c} here ({why})"


def _stray(c: Colour, cells: list[Node]) -> str:
    them = "it" if len(cells) == 1 else "them"
    return f"{c}{_others(cells, ' with')}, but no path {c} reaches {them}"


def _others(cells: Iterable[Node], joiner: str = ",", last: str = "and") -> str:
    """', r2c3 and r4c4' (or ', r2c3, r4c4 and 5 more'): the cells after the first, at most SHOWN in all."""
    rest = [cell_name(n) for n in list(cells)[1:]]
    if len(rest) > SHOWN - 1:
        rest = [*rest[: SHOWN - 1], f"{len(rest) - SHOWN + 1} more"]
    if not rest:
        return ""
    return f"{joiner} " + (f" {last} ".join(rest) if len(rest) < 3 else ", ".join(rest[:-1]) + f" {last} {rest[-1]}")


def _uncovered_in_one(broken: list[Problem]) -> list[Problem]:
    """The rules broken, the cells no path covers in one line (the first named, then the others)."""
    empty = [p.node for p in broken if p.short.startswith(EMPTY) and p.node is not None]
    rest: list[Problem] = [
        Mistake(p.node, p.short, p.said, unfinished=p.short.endswith(STOPS))
        for p in broken
        if not p.short.startswith(EMPTY)
    ]
    if empty:
        rest.append(Mistake(empty[0], f"{EMPTY} it{_others(empty, ', nor', 'or')}", "", unfinished=True))
    return rest

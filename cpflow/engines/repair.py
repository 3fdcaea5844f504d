"""Witnesses repaired: a solution of the board kept outside a small window, the inside solved again.

A witness of why (cpflow.engines.why) for an element `e` of a set `S` is a solution of the board
that meets every other element. A solution found while shrinking often fails `e` and one or two
other elements `f`: keeping it fixed outside a small window around the `f`'s cells and solving
the inside again (large-neighbourhood search) may meet them. The inside is a board of its own
(`_inside`), solved in the label formulation (cpflow.engines.relaxed_label): its nodes are the
window's, each run of a path through the window becomes a colour of its own between its anchors
(the nodes just outside where it enters and leaves, or its endpoint inside), which must connect;
a colour that draws no path and has both endpoints inside may connect; the endpoints of one that
draws no path with one endpoint inside are left out (no path enters them); every cell outside keeps
what it had. Any solution of the inside, put back in the runs' places, connects every colour the
solution did and covers every cell outside it covered: when it passes the verifier (a run may touch
another of the same colour, or its path outside the window, which the inside does not see), it is
a solution of the board, so a witness like any other.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from cpflow.board.grid import Colour, Node, Puzzle, Rules, Solution
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.engines.relaxed import Requirement

Run = tuple[Colour, int, int]  # a colour, and the indices along its path of the anchors of a run through the window


def repaired(
    puzzle: Puzzle, solution: Solution, window: Collection[Node], wanted: list[Requirement], deadline: Deadline
) -> Solution | None:
    """A solution of the board equal to `solution` outside `window` that meets every requirement of
    `wanted` (those outside the window must be met by `solution` already), its inside solved again;
    None when none is found in time, or the one found breaks a rule across the window's border."""
    from cpflow.engines.relaxed_label import RelaxedLabel

    covered = solution.colour_of()
    inside = _grown(solution, set(window))
    for kind, what in wanted:
        if kind == "cover" and what not in inside and what not in covered:
            return None  # a cell to cover outside, left empty
        if isinstance(what, str) and what not in solution.paths and not set(puzzle.endpoints[what]) <= inside:
            return None  # a colour to connect that cannot be drawn inside
    board, runs = _inside(puzzle, solution, inside)
    literals: list[Requirement] = [("connect", name) for name in runs]
    literals += [
        (kind, what) for kind, what in wanted if (what in board.endpoints if isinstance(what, str) else what in inside)
    ]
    found = Solution({})  # nothing inside to solve
    if board.neighbours:
        try:
            model = RelaxedLabel(board, deadline)
        except OutOfTime:
            return None
        if any(model.literal(r) is None for r in literals):
            return None  # a cell to cover the inside cannot (an endpoint left out)
        status, solved, _ = model.solve(literals, deadline)
        if status != "solvable" or solved is None:
            return None
        found = solved
    elif literals:
        return None
    whole = _put_back(puzzle, solution, runs, found)
    drawn = {c: puzzle.endpoints[c] for c in whole.paths}
    check = replace(puzzle, endpoints=drawn, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
    return None if violations(check, whole) else whole


def _grown(solution: Solution, inside: set[Node]) -> set[Node]:
    """The window with each node of a path outside it whose both steps lead inside (an anchor of two runs at once)."""
    for path in solution.paths.values():
        for i in range(1, len(path) - 1):
            if path[i] not in inside and path[i - 1] in inside and path[i + 1] in inside:
                inside.add(path[i])
    return inside


def _inside(puzzle: Puzzle, solution: Solution, inside: set[Node]) -> tuple[Puzzle, dict[Colour, Run]]:
    """The window as a board of its own: a colour for each run of a path through it (named `colour#k`)
    between its anchors, the colours with no path and both endpoints inside, and the window's nodes but
    those held by paths outside it and the endpoints of colours drawn nowhere else."""
    runs: dict[Colour, Run] = {}
    endpoints: dict[Colour, tuple[Node, Node]] = {}
    for colour, path in solution.paths.items():
        i = 0
        while i < len(path):
            if path[i] not in inside:
                i += 1
                continue
            j = i
            while j + 1 < len(path) and path[j + 1] in inside:
                j += 1
            first, last = max(i - 1, 0), min(j + 1, len(path) - 1)
            i = j + 1
            if last - first < 2:
                continue  # no node between its anchors: it stays as it is
            name = f"{colour}#{len(runs)}"
            runs[name] = (colour, first, last)
            endpoints[name] = (path[first], path[last])
    for colour, pair in puzzle.endpoints.items():
        if colour not in solution.paths and pair[0] in inside and pair[1] in inside:
            endpoints[colour] = pair
    owner = puzzle.endpoint_colour()
    free = {n for n in inside if n not in owner}
    anchors = {n for pair in endpoints.values() for n in pair}
    nodes = free | anchors
    neighbours = {n: tuple(w for w in puzzle.neighbours[n] if w in free or (n in free and w in nodes)) for n in nodes}
    return replace(puzzle, endpoints=endpoints, neighbours=neighbours, drawn={}), runs


def _put_back(puzzle: Puzzle, solution: Solution, runs: dict[Colour, Run], found: Solution) -> Solution:
    """The board's paths: each run of `solution` replaced by the inside's path between its anchors."""
    paths = {c: p for c, p in found.paths.items() if c in puzzle.endpoints}  # colours drawn inside alone
    for colour, path in solution.paths.items():
        pieces: list[Node] = []
        at = 0
        for name, (which, first, last) in runs.items():
            if which == colour:
                pieces += [*path[at:first], *found.paths[name]]
                at = last + 1
        paths[colour] = (*pieces, *path[at:])
    return Solution(paths)

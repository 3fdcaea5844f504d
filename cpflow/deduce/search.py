"""Depth-first search over forced moves: the front end every CP-SAT solve starts with.

`solutions(puzzle)` settles the board (cpflow.deduce.settle), then branches on the first
undecided edge in reading order along the board's diagonals (from the top left corner,
as the Go search of thomasahle/numberlink does): the edge in, or out. The two branches
share no solution, so the search counts exactly. Each branch settles again.
The search gives up with `Exhausted` after `budget` branches, carrying the settled root
so that a model can start from what is already forced.

`start` runs it in C when the compiled core was built and takes the board
(cpflow.deduce.compiled: the same rules, branches and answers), else in Python (`Search`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TypeAlias

from cpflow.board.grid import Puzzle, Solution
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import Contradiction, Exhausted, Graph, Partial
from cpflow.deduce.settle import settle

if TYPE_CHECKING:
    from cpflow.deduce.compiled import CompiledSearch


def solutions(puzzle: Puzzle, budget: int, deadline: Deadline = NEVER, in_c: bool = True) -> Iterator[Solution]:
    """Every solution, each once; Contradiction at once when settling the start proves there
    is none, Exhausted when more than `budget` branches are needed, OutOfTime at the deadline."""
    return start(puzzle, deadline, in_c).solutions(budget, deadline)


def start(puzzle: Puzzle, deadline: Deadline = NEVER, in_c: bool = True) -> Search | CompiledSearch:
    """The search with its start settled, in C when the core takes the board (and `in_c`), else in
    Python; Contradiction when settling the start proves there is no solution."""
    from cpflow.deduce import compiled  # only when asked: it loads the C core

    if in_c and compiled.takes(puzzle):
        return compiled.CompiledSearch(puzzle, deadline)
    return Search(puzzle, deadline)


class Search:
    """The search in Python, resumable: `solutions` goes on from where the last call stopped."""

    in_thread = False  # it holds the interpreter: in a thread it would slow the rest of the process

    def __init__(self, puzzle: Puzzle, deadline: Deadline = NEVER):
        """Settle the start: Contradiction when that proves there is no solution."""
        deadline.check()
        self.root = Graph(puzzle).start()
        settle(self.root, deadline=deadline)
        self.stack = [self.root]
        self.branches = 0
        self.frame = 0  # bytes a partial solution holds, measured when first asked (`held`)

    @property
    def held(self) -> int:
        """About the bytes the search's stack holds: a frame of the root's size for each partial solution
        (its lists, and the banned colours' integers, which copies share until they change)."""
        if not self.frame:
            p = self.root
            lists = sum(map(sys.getsizeof, (p.state, p.colour, p.banned, p.degree, p.free, p.other)))
            self.frame = lists + sum(map(sys.getsizeof, p.banned))
        return len(self.stack) * self.frame

    def solutions(self, budget: int, deadline: Deadline = NEVER) -> Iterator[Solution]:
        """The solutions not yet found; Exhausted after `budget` more branches, OutOfTime at the
        deadline (either leaves the search ready to go on)."""
        stack, root, limit = self.stack, self.root, self.branches + budget
        while stack:
            p = stack[-1]
            if p is not root and p.queue:
                try:
                    settle(p, reach=False)  # the reach rule costs more than it saves here (models/forced.md)
                except Contradiction:
                    stack.pop()
                    continue
            edge = _first_open(p)
            if edge is None:
                stack.pop()
                if p.is_complete():
                    yield p.solution()
                continue
            if self.branches >= limit:
                raise Exhausted(root)
            deadline.check()
            self.branches += 1
            stack.pop()
            stack += reversed(_either(p, edge))


def _first_open(p: Partial) -> int | None:
    """The first undecided edge of the first node in the search's order (`Graph.scan`)."""
    for i in p.g.scan:
        if p.free[i]:
            return next(edge for _, edge in p.g.adjacent[i] if not p.state[edge])
    return None


def _either(p: Partial, edge: int) -> list[Partial]:
    """Two partial solutions: the edge in, and the edge out."""
    children = []
    for move in (Partial.join, Partial.cut):
        child = p.copy()
        try:
            move(child, edge)
        except Contradiction:
            continue
        children.append(child)
    return children


if TYPE_CHECKING:
    Searching: TypeAlias = Search | CompiledSearch  # a search in Python or in C: the same interface

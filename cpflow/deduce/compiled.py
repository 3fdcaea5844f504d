"""The search in C (cpflow/deduce/core.c, built as `cpflow.deduce._core` when a compiler is at
hand): the same rules, the same order of branches and the same budget as the Python search
(cpflow.deduce.search), several times faster in-process (docs/figures/core.md, written by bench/core.py).

The core numbers the board as `rules.Graph` does and settles its start itself (the dead
turns too); it numbers the rules as the rule book does (`_core.rules()`), and names the one
that refutes a start by its number. It runs in slices of `SLICE` seconds, without the
interpreter's lock, and the deadline is looked at between them. Only when the search hands over to a model is the start
settled again in Python (`root`), for the model's fixed edges and colour domains.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

from cpflow.board.grid import MAX_NEIGHBOURS, Puzzle, Solution
from cpflow.clock import NEVER, Deadline, OutOfTime
from cpflow.deduce.rulebook import RULES
from cpflow.deduce.rules import NONE, Contradiction, Exhausted, Graph, Partial, applies
from cpflow.deduce.settle import settle

try:
    from cpflow.deduce import _core  # type: ignore[attr-defined]
except ImportError:  # built without a compiler: the Python search does the work
    _core = None

SLICE = 0.05  # seconds the core runs before the deadline is looked at again
COLOURS = 32767  # the most the core takes: a node's colour is 16 bits
NEIGHBOURS = MAX_NEIGHBOURS  # and the most neighbours of a node (its degree is a byte): all a file may give
DONE, SOLVED, EXHAUSTED, TIMED_OUT = 0, 1, 2, 3  # what the core's run returns


def takes(puzzle: Puzzle) -> bool:
    """Whether the core was built and takes this board: under every rule (no blanks, no path
    touching itself), up to COLOURS colours and NEIGHBOURS neighbours a node."""
    return (
        _core is not None
        and applies(puzzle)
        and len(puzzle.endpoints) <= COLOURS
        and max(map(len, puzzle.neighbours.values()), default=0) <= NEIGHBOURS
    )


class CompiledSearch:
    """`search.Search` in C: resumable, `solutions` goes on from where the last call stopped."""

    in_thread = True  # it lets go of the interpreter: it can run beside Python in a thread

    def __init__(self, puzzle: Puzzle, deadline: Deadline = NEVER):
        """Settle the start: Contradiction when that proves there is no solution."""
        deadline.check()
        self.puzzle = puzzle
        self.nodes = list(puzzle.nodes)
        left = deadline.left()
        try:
            self.core = _core.Search(**_numbered(puzzle, self.nodes), seconds=-1 if left is None else left)
        except TimeoutError:
            raise OutOfTime from None
        if self.core.refuted:
            raise Contradiction(RULES[self.core.broken].name)  # the core numbers the rules as the rule book does
        self.settled: Partial | None = None

    @property
    def branches(self) -> int:
        return int(self.core.branches)

    @property
    def held(self) -> int:
        """Bytes the search's stack of frames holds."""
        return int(self.core.held)

    @property
    def root(self) -> Partial:
        """The settled start, in Python: what a model starts from."""
        return self.settle_root(NEVER)

    def settle_root(self, deadline: Deadline) -> Partial:
        """`root`, settled in Python the first time it is asked for; OutOfTime at the deadline."""
        if self.settled is None:
            root = Graph(self.puzzle).start()
            settle(root, deadline=deadline)
            self.settled = root
        return self.settled

    def solutions(self, budget: int, deadline: Deadline = NEVER) -> Iterator[Solution]:
        """The solutions not yet found; Exhausted after `budget` more branches, OutOfTime at the
        deadline (either leaves the search ready to go on)."""
        limit = self.branches + budget
        while True:
            left = deadline.left()  # 0: the core looks at the time before its first branch too
            status, paths = self.core.run(limit - self.branches, SLICE if left is None else min(SLICE, left))
            if status == SOLVED:
                yield self._solution(paths)
            elif status == DONE:
                return
            elif status == EXHAUSTED:
                raise Exhausted(self.settle_root(deadline))
            else:
                deadline.check()

    def _solution(self, paths: bytes) -> Solution:
        numbers, nodes, found, at = array("i", paths), self.nodes, {}, 0
        for colour, (_, last) in self.puzzle.endpoints.items():
            path = [nodes[numbers[at]]]
            while path[-1] != last:
                at += 1
                path.append(nodes[numbers[at]])
            found[colour] = tuple(path)
            at += 1
        return Solution(found)


def _numbered(puzzle: Puzzle, nodes: list) -> dict[str, object]:
    """The core's arguments: the board numbered as `rules.Graph` numbers it, in int32 arrays."""
    index = {node: i for i, node in enumerate(nodes)}
    ends = array("i")
    for i, node in enumerate(nodes):
        for j in sorted(index[b] for b in puzzle.neighbours[node]):
            if j > i:
                ends.extend((i, j))
    pairs = array("i", [index[node] for pair in puzzle.endpoints.values() for node in pair])
    need = bytearray([2]) * len(nodes)
    colour = array("i", [NONE]) * len(nodes)
    for c, pair in enumerate(puzzle.endpoints.values()):
        for node in pair:
            need[index[node]] = 1
            colour[index[node]] = c
    colours = list(puzzle.endpoints)
    for node, drawn in puzzle.drawn.items():
        c = colours.index(drawn)
        if colour[index[node]] not in (NONE, c):
            raise Contradiction("given", (index[node],), c)  # as rules.Graph.start finds it
        colour[index[node]] = c
    scan = array("i", sorted(range(len(nodes)), key=lambda i: (sum(nodes[i][:2]), nodes[i])))
    return {"n": len(nodes), "edges": ends, "need": need, "colour": colour, "pairs": pairs, "scan": scan}

"""Forced moves: what every solution must contain, deduced without search (models/forced.md).

A `Partial` solution records, on the puzzle's graph (`Graph`), each edge's state (undecided,
on a path, or out) and each node's colour (or none yet). Edges on paths form chains; each
chain end knows the chain's other end. Its moves (`join`, `cut`, `paint`, `ban`) keep it
consistent, and `settle` (cpflow.deduce.settle) applies the rules until none applies; the
rules' names, flags and sentences are rows of the rule book (cpflow.deduce.rulebook):
- degree: an endpoint has one path edge, any other node two; when the undecided edges
  are just enough they are all in, when none are needed they are all out (branch: no
  node takes more);
- colour: an edge on a path joins one colour; two neighbours of one colour are
  consecutive (touch: no path touches itself), so their edge is in, and neighbours of two
  colours are not joined;
- loop: an edge joining a chain's two ends is out;
- corner: a node beside both neighbours a path turns through cannot join that path, and
  a turn that would force such nodes to turn on until one cannot is never taken (dead
  turn: cpflow.deduce.turns, found once per board);
- chamber: an uncoloured region that only one colour's chains border takes that colour,
  one no colour borders is a dead end;
- reach: a colour's endpoints must still meet through nodes it may take, and a node no
  colour can reach is a dead end; a node only one colour reaches takes it.
A rule that finds no way on makes the partial solution `Contradiction`. Every rule holds
in every solution, so what settles holds for all of them: a board settled whole is the
only solution, and a contradiction at the start proves there is none. The rules assume
Flow Free's rules (`puzzle.rules` default): `applies` says whether they do. When paths may
touch themselves (`--allow-touch`), the rest still hold without the corner rule and without
joining neighbours of one colour (`Graph.touch`); `settles` says whether a board can be settled.

For explaining (cpflow.deduce.steps), a partial solution can be limited to the simpler
rules (`allow`: the flags of the rules beyond the first ones) and can keep a `log` of each
node it colours with the rule that coloured it (`Cause`).
"""

from __future__ import annotations

from dataclasses import dataclass

from cpflow.board.grid import Colour, Node, Puzzle, Solution
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rulebook import ALL, CORNER
from cpflow.deduce.turns import DeadTurns

UNDECIDED, IN, OUT = 0, 1, 2  # an edge's state
NONE = -1  # a node's colour before it is known
Turn = tuple[Node, Node, Node]  # (p, a, b): a path through a, p, b, a < b; e.g. ((1, 1), (0, 1), (1, 2))


class Contradiction(Exception):
    """No solution extends this partial solution: `rule` found no way on at `nodes` (numbered)."""

    def __init__(self, rule: str = "", nodes: tuple[int, ...] = (), colour: int = NONE):
        super().__init__(rule)
        self.rule, self.nodes, self.colour = rule, nodes, colour


class Exhausted(Exception):
    """A search ran out of branches; `root` is the settled start, for a model to begin from."""

    def __init__(self, root: Partial):
        super().__init__("search budget exhausted")
        self.root = root


@dataclass(frozen=True)
class Cause:
    """Why nodes were coloured: the rule and the nodes it looked at (numbered), e.g. ("degree", (12,))."""

    rule: str
    nodes: tuple[int, ...]


GIVEN = Cause("given", ())  # the endpoints and the player's cells


def applies(puzzle: Puzzle) -> bool:
    """Whether every rule here is the puzzle's: every node covered, no path touching itself."""
    return not puzzle.rules.blanks and not puzzle.rules.touch


def settles(puzzle: Puzzle) -> bool:
    """Whether a partial solution can settle the puzzle: every node covered. When paths may touch
    themselves (`Graph.touch`), the rules that assume they do not are left out."""
    return not puzzle.rules.blanks


def dead_turns(puzzle: Puzzle, deadline: Deadline = NEVER) -> list[Turn]:
    """Turns no path can take (cpflow.deduce.turns), as (p, a, b), by node names: a path through
    a, p, b. For a model, which has a clause for each."""
    nodes = list(puzzle.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    near = [frozenset(index[other] for other in puzzle.neighbours[node]) for node in nodes]
    ends = {index[node] for node in puzzle.endpoint_colour()}
    return [(nodes[p], nodes[a], nodes[b]) for p, a, b in DeadTurns(near, ends, deadline).listed(deadline)]


class Graph:
    """The puzzle's fixed data, numbered: nodes 0..n-1, edges 0..m-1, colours 0..k-1."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline = NEVER):
        self.puzzle = puzzle
        self.nodes: list[Node] = list(puzzle.nodes)
        index = {node: i for i, node in enumerate(self.nodes)}
        pairs = sorted(
            {(min(index[a], index[b]), max(index[a], index[b])) for a in self.nodes for b in puzzle.neighbours[a]}
        )
        self.ends: list[tuple[int, int]] = pairs  # edge -> its two nodes
        self.adjacent: list[list[tuple[int, int]]] = [[] for _ in self.nodes]  # node -> (neighbour, edge)
        for edge, (i, j) in enumerate(pairs):
            self.adjacent[i].append((j, edge))
            self.adjacent[j].append((i, edge))
        self.colours: list[Colour] = list(puzzle.colours)
        self.pairs: list[tuple[int, int]] = [(index[a], index[b]) for a, b in puzzle.endpoints.values()]
        terminals = {i for pair in self.pairs for i in pair}
        self.need = bytearray(1 if i in terminals else 2 for i in range(len(self.nodes)))  # path edges a node has
        self.index = index
        # the search's order: along the diagonals from the top left corner
        self.scan = sorted(range(len(self.nodes)), key=lambda i: (sum(self.nodes[i][:2]), self.nodes[i]))
        self.near: list[frozenset[int]] = [frozenset(j for j, _ in a) for a in self.adjacent]
        # paths may touch themselves: neighbours of one colour need not be joined, nor corners kept clear
        self.touch = puzzle.rules.touch
        self.rules = ALL & ~CORNER if self.touch else ALL  # the rules beyond degree, colour and loop that hold
        self.turns = DeadTurns(self.near, range(len(self.nodes)) if self.touch else terminals, deadline)

    def dead(self, deadline: Deadline = NEVER) -> list[Turn]:
        """The dead turns (`dead_turns`), by node names: for a model, which has a clause for each."""
        nodes = self.nodes
        return [(nodes[p], nodes[a], nodes[b]) for p, a, b in self.turns.listed(deadline)]

    def start(self) -> Partial:
        """Nothing decided but the endpoints' and hints' colours (not yet settled)."""
        p = Partial(self)
        for c, pair in enumerate(self.pairs):
            for i in pair:
                p.colour[i] = c
        for node, colour in self.puzzle.drawn.items():
            p.paint(self.index[node], self.colours.index(colour))
        p.queue.extend(range(len(self.nodes)))
        return p


class Partial:
    """A partial solution: edge states, node colours, chains; `queue` holds nodes to look at again."""

    __slots__ = (
        "g",
        "state",
        "colour",
        "banned",
        "degree",
        "free",
        "other",
        "queue",
        "dirty",
        "reach",
        "allow",
        "log",
        "why",
    )

    def __init__(self, g: Graph, copy: Partial | None = None):
        self.g = g
        self.allow: int = g.rules if copy is None else copy.allow  # the rules beyond degree, colour and loop that apply
        self.log: list[tuple[int, int, Cause]] | None = None  # when kept: (node, colour, cause) as nodes are coloured
        self.why = GIVEN  # the rule acting now, for the log
        if copy is None:
            self.state = bytearray(len(g.ends))
            self.colour = [NONE] * len(g.nodes)
            self.banned = [0] * len(g.nodes)  # bit c set: the node cannot take colour c
            self.degree = bytearray(len(g.nodes))  # edges in
            self.free = [len(a) for a in g.adjacent]  # edges undecided (a node may have hundreds)
            self.other = list(range(len(g.nodes)))  # at a chain's end: its other end
            self.queue: list[int] = []
            # the nodes looked at since the chamber rule last held everywhere; None: it never has
            self.dirty: set[int] | None = None
        else:
            self.state, self.colour, self.banned = copy.state[:], copy.colour[:], copy.banned[:]
            self.degree, self.free, self.other = copy.degree[:], copy.free[:], copy.other[:]
            self.queue = []
            self.dirty = None if copy.dirty is None else set(copy.dirty)
        self.reach: list[set[int]] | None = None  # per colour, the nodes it may take (after `settle`)

    def copy(self) -> Partial:
        return Partial(self.g, self)

    # -- moves ---------------------------------------------------------------

    def join(self, edge: int) -> None:
        """Put an undecided edge on a path."""
        i, j = self.g.ends[edge]
        a, b = self.other[i], self.other[j]
        if a == j:
            raise Contradiction("loop", (i, j))  # the chain would close into a loop
        self.state[edge] = IN
        degree, free, need = self.degree, self.free, self.g.need
        degree[i] += 1
        degree[j] += 1
        free[i] -= 1
        free[j] -= 1
        if degree[i] > need[i] or degree[j] > need[j]:
            raise Contradiction("branch", (i,) if degree[i] > need[i] else (j,))
        ci, cj = self.colour[i], self.colour[j]
        if ci != cj:
            if ci != NONE and cj != NONE:
                raise Contradiction("colour", (i, j))  # two colours on one path
            if ci == NONE:
                self.paint(i, cj)
            else:
                self.paint(j, ci)
        self.other[a], self.other[b] = b, a
        self.queue += (i, j, a, b)
        if self.allow & CORNER:
            if degree[i] == 2:
                self._corner(i)
            if degree[j] == 2:
                self._corner(j)

    def _corner(self, p: int) -> None:
        """A path turning at p through neighbours a and b: a node q beside both a and b would
        have to join both if it took the path's colour, closing a loop, so it cannot."""
        adjacent, state = self.g.adjacent, self.state
        for q, a, b in self._opposite(p):
            for j, edge in adjacent[q]:
                if j == a or j == b:
                    if state[edge] == IN:
                        raise Contradiction("corner", (p, q))
                    if not state[edge]:
                        self.cut(edge)
            if self.colour[p] != NONE:
                self.ban(q, self.colour[p])

    def _opposite(self, p: int) -> list[tuple[int, int, int]]:
        """The nodes q beside both neighbours a and b that p's path joins, with a and b."""
        adjacent, state, near = self.g.adjacent, self.state, self.g.near
        a, b = (j for j, edge in adjacent[p] if state[edge] == IN)
        return [(q, a, b) for q in near[a] & near[b] if q != p]

    def ban(self, node: int, c: int) -> None:
        """Node cannot take colour c."""
        if self.colour[node] == c:
            raise Contradiction("corner", (node,), c)
        if not self.banned[node] >> c & 1:
            self.banned[node] |= 1 << c
            self.queue.append(node)

    def cut(self, edge: int) -> None:
        """Leave an undecided edge off every path."""
        i, j = self.g.ends[edge]
        if self.colour[i] != NONE and self.colour[i] == self.colour[j] and not self.g.touch:
            raise Contradiction("touch", (i, j), self.colour[i])  # neighbours of one colour must be consecutive
        self.state[edge] = OUT
        self.free[i] -= 1
        self.free[j] -= 1
        self.queue += (i, j)

    def paint(self, node: int, c: int) -> None:
        """Give an uncoloured node's whole chain colour c."""
        if self.colour[node] == c:
            return
        if self.colour[node] != NONE or self.banned[node] >> c & 1:
            raise Contradiction(self.why.rule, (node,), c)
        colour, state, adjacent, banned, log = self.colour, self.state, self.g.adjacent, self.banned, self.log
        stack = [node]
        colour[node] = c
        corner, touch = self.allow & CORNER, self.g.touch
        while stack:
            i = stack.pop()
            self.queue.append(i)
            if log is not None:
                log.append((i, c, self.why))
            if corner and self.degree[i] == 2:
                for q, _, _ in self._opposite(i):
                    self.ban(q, c)
            for j, edge in adjacent[i]:
                if colour[j] == c and state[edge] == OUT and not touch:
                    raise Contradiction("touch", (i, j), c)  # touching itself
                if state[edge] == IN and colour[j] == NONE:
                    if banned[j] >> c & 1:
                        raise Contradiction("corner", (j,), c)
                    colour[j] = c
                    stack.append(j)

    # -- reading -------------------------------------------------------------

    def is_complete(self) -> bool:
        return self.degree == self.g.need

    def solution(self) -> Solution:
        """The paths of a complete partial solution, each from its first endpoint."""
        g, paths = self.g, {}
        for c, (a, b) in enumerate(g.pairs):
            path, previous = [a], -1
            while path[-1] != b:
                step = next(j for j, edge in g.adjacent[path[-1]] if self.state[edge] == IN and j != previous)
                previous = path[-1]
                path.append(step)
            paths[g.colours[c]] = tuple(g.nodes[i] for i in path)
        return Solution(paths)

    def decided(self) -> tuple[dict[tuple[Node, Node], bool], dict[Colour, frozenset[Node]]]:
        """What is fixed, by node names: each decided edge (u < w) and whether it is in, and the
        nodes each colour may still take."""
        g = self.g
        edges = {
            (g.nodes[i], g.nodes[j]) if g.nodes[i] < g.nodes[j] else (g.nodes[j], g.nodes[i]): self.state[e] == IN
            for e, (i, j) in enumerate(g.ends)
            if self.state[e]
        }
        domains = {}
        for c, colour in enumerate(g.colours):
            nodes = (
                self.reach[c]
                if self.reach and self.reach[c]
                else {i for i in range(len(g.nodes)) if self.colour[i] == c}
            )
            domains[colour] = frozenset(g.nodes[i] for i in nodes if self.colour[i] in (NONE, c))
        return edges, domains

"""Where the rules refute a puzzle: the cells and colours a contradiction at the start involved.

When settling the start meets a contradiction (cpflow.deduce.settle), the puzzle has no solution.
Which part of the board that took is read from the settle's log of coloured cells: going back
from the contradiction, a cell coloured at or beside a node looked at counts, and the nodes its
rule looked at are looked at in turn. The C core names only the rule that refuted a start, so
this settles in Python (a few milliseconds on 15x15, docs/figures/why.md). An explanation
(cpflow.engines.why) starts from these cells and grows from there.
"""

from __future__ import annotations

from dataclasses import dataclass

from cpflow.board.grid import Colour, Node, Puzzle
from cpflow.clock import NEVER, Deadline
from cpflow.deduce.rules import NONE, Contradiction, Graph, applies
from cpflow.deduce.settle import settle


@dataclass(frozen=True)
class Refutation:
    """The rule that met no way on, the nodes it met it at (`at`, with its colour's endpoints) and
    their colours (`between`), and
    the nodes and colours its contradiction involved (`nodes`, `colours`: all that led to it)."""

    rule: str
    at: frozenset[Node]
    between: frozenset[Colour]  # the colours of the nodes it was met at
    nodes: frozenset[Node]
    colours: frozenset[Colour]


def refutation(puzzle: Puzzle, deadline: Deadline = NEVER) -> Refutation | None:
    """Where settling the start refutes the puzzle; None when the rules do not apply to it or settle
    it without a contradiction. OutOfTime at the deadline."""
    if not applies(puzzle):
        return None
    g = Graph(puzzle, deadline)
    p = g.start()
    p.log = []
    try:
        settle(p, deadline=deadline)
    except Contradiction as met:
        ends = g.pairs[met.colour] if met.colour != NONE else ()
        at = {g.nodes[i] for i in (*met.nodes, *ends)}
        between = frozenset(g.colours[c] for c in {met.colour, *(p.colour[i] for i in met.nodes)} - {NONE})
        looked = set(met.nodes)
        colours = {met.colour} - {NONE}
        for node, colour, cause in reversed(p.log):
            if node in looked or not looked.isdisjoint(g.near[node]):
                looked.add(node)
                looked.update(cause.nodes)
                colours.add(colour)
        colours.update(p.colour[i] for i in looked if p.colour[i] != NONE)
        for c in colours:  # a colour's endpoints count with it
            looked.update(g.pairs[c])
        nodes, named = frozenset(g.nodes[i] for i in looked), frozenset(g.colours[c] for c in colours)
        return Refutation(met.rule, frozenset(at), between, nodes, named)
    return None

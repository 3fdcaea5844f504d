"""Steps and contradictions in words a player understands: "B's only way out of r1c1 is down."

What a rule's step and its contradiction say are its row's templates in the rule book
(cpflow.deduce.rulebook); what ifs, guesses and why a puzzle has no solution are said here.
Cells are written `r3c5` (row 3, column 5, counted from 1 at the top left), as Sudoku
helpers write them; a bridge's lane is its cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpflow.board.grid import Node, Puzzle, cell_name, cell_of
from cpflow.deduce.rulebook import RULE
from cpflow.deduce.steps import Assumption, Conflict, Step

DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
SHOWN_IN_CHAIN = 4  # cells of a what-if's chain named in its sentence


def at(node: Node) -> str:
    """A node as a player reads it: r3c5 (from 1)."""
    return cell_name(node)


def cells(nodes: Sequence[Node]) -> str:
    """Several cells: 'r1c1', 'r1c1 and r1c2', 'r1c1, r1c2 and r2c2'."""
    names = [at(node) for node in nodes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def way(puzzle: Puzzle, a: Node, b: Node) -> str:
    """The way from a to b: up, down, left, right on a square board, else 'to r2c3'."""
    (r1, c1), (r2, c2) = cell_of(a), cell_of(b)
    if puzzle.shape == "square" and puzzle.touches((r1, c1), (r2, c2)):
        return DIRECTIONS[(r2 - r1, c2 - c1)]
    return f"to {at(b)}"


def step_sentence(puzzle: Puzzle, step: Step) -> str:
    """Why the step holds, in one or two sentences."""
    if step.kind == "what if":
        return _what_if(puzzle, step)
    if step.kind == "guess":
        return (
            f"No rule decides the next cell on its own. Try {step.colour} at {at(step.cells[0])}: "
            "it leads to the solution."
        )
    if step.origin is not None:
        said = _from(puzzle, step, step.origin)
    else:
        said = RULE[step.rule].step.format(colour=step.colour, cells=cells(step.cells), cell=at(step.cells[0]))
    return said + (RULE[step.kind].aside if step.kind != step.rule else "")


def _from(puzzle: Puzzle, step: Step, origin: Node) -> str:
    """A node with just enough ways left (the degree rule at `origin`): a path end's one way on, or
    a cell's two open sides."""
    colour = step.colour
    if origin in step.cells:
        return f"{at(origin)} has only two open sides, so the path through it is {colour}'s."
    whose = "out of" if origin in puzzle.endpoint_colour() else "on from"
    return f"{colour}'s only way {whose} {at(origin)} is {way(puzzle, origin, _next(puzzle, origin, step))}."


def _what_if(puzzle: Puzzle, step: Step) -> str:
    """Each alternative assumed, what it leads to, and so the step."""
    origin = step.origin
    if origin is not None:  # a path end's other ways
        said = [
            f"If {step.colour} went {way(puzzle, origin, a.toward)} from {at(origin)}, {_chain(a)}"
            f"{contradiction(a.conflict)}."
            for a in step.assumptions
            if a.toward is not None
        ]
        return " ".join(said) + f" So {step.colour} goes {way(puzzle, origin, _next(puzzle, origin, step))}."
    cell = at(step.cells[0])
    said = [f"If {cell} were {a.colour}, {_chain(a)}{contradiction(a.conflict)}." for a in step.assumptions]
    return " ".join(said) + f" So {cell} is {step.colour}."


def _next(puzzle: Puzzle, origin: Node, step: Step) -> Node:
    """The step's cell next to the node it was taken from."""
    return next((node for node in step.cells if puzzle.are_neighbours(origin, node)), step.cells[0])


def _chain(a: Assumption) -> str:
    shown = [f"{at(node)} {colour}" for node, colour in a.chain[1 : 1 + SHOWN_IN_CHAIN]]
    more = " ..." if len(a.chain) > 1 + SHOWN_IN_CHAIN else ""
    by = "the rules and what ifs inside it" if a.depth > 1 else "the rules"
    return f"{by} colour {', '.join(shown)}{more}; then " if shown else ""


def contradiction(a: Conflict) -> str:
    """What went wrong when a colour was assumed, as the end of a sentence."""
    where = cells(a.nodes) if a.nodes else "the board"
    rule = RULE.get(a.rule)
    if rule and rule.broken:
        said = rule.unnamed if rule.unnamed and not a.broken else rule.broken
        return said.format(where=where, who=a.broken or "a path")
    if a.rule == "what if":
        return f"every colour at {where} would in turn lead to a contradiction"
    return f"the rules meet a contradiction at {where}"


def mistake_sentence(wrong: Sequence[Node], met: Conflict | None) -> str:
    """Why a play cannot be finished, and what to take back."""
    why = f"As drawn, {contradiction(met)}" if met else "No solution keeps every cell as drawn"
    return f"{why}. Take back {cells(wrong)} and the board can be finished."


def why_sentence(connect: Sequence[str], cover: Sequence[Node]) -> str:
    """Why a puzzle has no solution, from a smallest set of requirements that cannot hold together."""
    colours = " and ".join(connect) if len(connect) < 3 else ", ".join(connect[:-1]) + " and " + connect[-1]
    if not cover:
        both = "both " if len(connect) == 2 else "all " if len(connect) > 2 else ""
        return f"{colours} cannot {both}connect, even with cells left empty."
    if not connect:
        both = "both " if len(cover) == 2 else "all " if len(cover) > 2 else ""
        return f"{cells(cover)} cannot {both}be covered, whichever colours connect."
    joins = "connects" if len(connect) == 1 else "connect"
    return (
        f"These cannot all hold: {colours} {joins}, and {cells(cover)} covered. Without any one of them the rest can."
    )

"""Steps and contradictions in words a player understands: "B's only way out of r1c1 is down."

What a rule's step and its contradiction say are its row's templates in the rule book
(cpflow.deduce.rulebook); what ifs, guesses and why a puzzle has no solution are said here.
Cells are written `r3c5` (row 3, column 5, counted from 1 at the top left), as Sudoku
helpers write them; a bridge's lane is its cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from cpflow.board.grid import Node, Puzzle, cell_name, cell_of
from cpflow.deduce.rulebook import RULE
from cpflow.deduce.steps import Conflict, Step
from cpflow.deduce.whatifs import ASSUMED, Assumption, Link, alike

DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
SHOWN_IN_CHAIN = 4  # cells of a what-if's chain named in its sentence, when it stays SHORT
SHORT = 200  # characters: a what if's reason read in one breath


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
    """Each alternative assumed, what it leads to, and so the step: alternatives said alike together (the
    most of them last, as 'any other colour'), each chain's cells named while the whole is at most SHORT
    characters, else counted (`hint --explain` names them); still longer, where each contradiction is met."""
    for named in (SHOWN_IN_CHAIN, 1, 0):
        groups: dict[str, list[Assumption]] = {}
        for a in step.assumptions:
            groups.setdefault(_chain([a], named, step.origin is None), []).append(a)
        ordered = sorted(groups.values(), key=len)
        said = [
            f"{_assumed(puzzle, step, group, number == 0, number == len(ordered) - 1 and len(group) > 2)}, "
            f"{_chain(group, named, step.origin is None and len(group) > 1)}."
            for number, group in enumerate(ordered)
        ]
        reason = " ".join([*said, _so(puzzle, step)])
        if len(reason) <= SHORT:
            return reason
    where = few(list(dict.fromkeys(a.conflict.nodes[0] for a in step.assumptions if a.conflict.nodes)))
    every = _assumed(puzzle, step, step.assumptions, rest=len(step.assumptions) > 1)
    return f"{every}, the rules would meet a contradiction each time, at {where}. {_so(puzzle, step)}"


def _assumed(puzzle: Puzzle, step: Step, group: Sequence[Assumption], first: bool = True, rest: bool = False) -> str:
    """'If r2c3 were R or G', 'If B went up or left from r4c4'; after the first 'If it were ...';
    `rest`: the alternatives not said before ('any other colour')."""
    if step.origin is not None:
        ways = "any other way" if rest else _either([way(puzzle, step.origin, a.toward) for a in group if a.toward])
        return f"If {step.colour} went {ways} from {at(step.origin)}" if first else f"If it went {ways}"
    colours = "any other colour" if rest else _either([a.colour for a in group])
    return f"If {at(step.cells[0])} were {colours}" if first else f"If it were {colours}"


def _either(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _chain(group: Sequence[Assumption], named: int, several: bool = False) -> str:
    """What the assumptions of a group lead to: the chain's cells and colours, and the path pieces joined
    between empty cells, when at most `named`, else how many, then the contradiction ('r2c1 would be R,
    r3c1 G, r3c2-r3c3 joined, then r4c1 would be a dead end'); `several`: the colour assumed is 'that colour'."""
    a = group[0]
    followed = a.followed
    met = contradiction(
        replace(a.conflict, broken="that colour") if several and a.conflict.broken == a.colour else a.conflict
    )
    inside = " (with what ifs inside it)" if a.depth > 1 else ""
    if not followed:
        return met + inside
    if len(followed) > named:
        joins = sum(1 for link in followed if link.to is not None)
        count = [(len(followed) - joins, "cell"), (joins, "join")]
        counted = " and ".join(f"{n} {word}{'s' * (n > 1)}" for n, word in count if n)
        return f"{counted} {'follow' if len(followed) > 1 else 'follows'}{inside}, then {met}"
    by_colour: dict[str, list[Node]] = {}
    for link in followed:
        if link.to is None:
            colour = "that colour" if several and link.colour == a.colour else link.colour
            by_colour.setdefault(colour, []).append(link.node)
    said = [
        f"{cells(nodes)}{' would be' * (number == 0)} {colour}"
        for number, (colour, nodes) in enumerate(by_colour.items())
    ]
    pieces = [piece(link) for link in followed if link.to is not None]
    said += [f"{_and(pieces)}{' would be' * (not said)} joined"] if pieces else []
    return f"{', '.join(said)}{inside}, then {met}"


def chain_lines(puzzle: Puzzle, step: Step) -> list[str]:
    """A what if step by step (`hint --explain`): each alternative assumed, each cell the rules then
    colour and why, the contradiction they meet; the step."""
    lines = []
    for group in alike(step.assumptions):
        a = group[0]
        also = (
            f" (and alike for {_either([b.colour for b in group[1:]])})" if len(group) > 1 and not step.origin else ""
        )
        taken = [link.node for link in a.chain if link.rule == ASSUMED][1:]  # joined already to the one assumed
        also += f" (taking {cells(taken)} with it)" if taken else ""
        lines.append(f"{_assumed(puzzle, step, group[:1] if len(group) > 1 and not step.origin else group)}{also}:")
        lines += [
            f"  {number}. {link_words(link, a.followed[: number - 1])}" for number, link in enumerate(a.followed, 1)
        ]
        lines.append(f"  then {contradiction(a.conflict)}.")
    return lines + [_so(puzzle, step)]


def _so(puzzle: Puzzle, step: Step) -> str:
    """What a what if concludes: 'So B goes right.', 'So r2c3 is B.'"""
    if step.origin is not None:  # a path end's other ways
        return f"So {step.colour} goes {way(puzzle, step.origin, _next(puzzle, step.origin, step))}."
    return f"So {at(step.cells[0])} is {step.colour}."


def _next(puzzle: Puzzle, origin: Node, step: Step) -> Node:
    """The step's cell next to the node it was taken from."""
    return next((node for node in step.cells if puzzle.are_neighbours(origin, node)), step.cells[0])


LINKS = {  # what a link of a chain says of the rule that coloured it, by the rule's name
    ASSUMED: "assumed",
    "degree": "{looked} has no other way on",
    "chamber": "only {colour} can get into these empty cells",
    "reach": "only {colour} can still reach it",
    "what if": "every other colour leads to a contradiction",
    "on": "it has no other way on",
}


def piece(link: Link) -> str:
    """A path piece joined between two empty cells: 'r5c6-r5c7'."""
    return f"{at(link.node)}-{at(link.to)}" if link.to is not None else at(link.node)


def link_words(link: Link, before: Sequence[Link] = ()) -> str:
    """One cell of a chain: 'r3c5 is R: r3c4 has no other way on'; or a path piece joined between two
    empty cells: 'r5c6-r5c7 joined: r5c6 has no other way on'. `before`: the chain's links before it (a
    cell at a piece's end joined on has no other way on, not two open sides)."""
    if link.to is not None:
        return f"{piece(link)} joined: {cells(link.looked)} has no other way on"
    looked = [node for node in link.looked if node != link.node]
    pieced = any(link.node in (b.node, b.to) for b in before if b.to is not None)
    rule = link.rule if link.rule != "degree" or looked else "on" if pieced else "two sides"
    said = LINKS.get(rule, "by the {rule} rule at {looked}" if looked else "it has only two open sides")
    return f"{at(link.node)} is {link.colour}: " + said.format(
        looked=cells(looked) if looked else "", colour=link.colour, rule=rule
    )


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


def few(nodes: Sequence[Node], named: int = 6) -> str:
    """Cells named up to `named`, then counted: 'r1c1, r1c2 and 3 more'."""
    return cells(nodes) if len(nodes) <= named else f"{', '.join(map(at, nodes[:named]))} and {len(nodes) - named} more"


def several_sentence(differ: Sequence[Node], named: int = 6) -> str:
    """Why no rule decides the next cell of a play with more than one solution, and where two differ."""
    where = few(differ, named)
    return (
        f"this puzzle has more than one solution: two of them differ at {where}, so no rule can decide the next cell."
    )


def mistake_sentence(wrong: Sequence[Node], met: Conflict | None) -> str:
    """Why a play cannot be finished, and what to take back."""
    why = f"As drawn, {contradiction(met)}" if met else "No solution keeps every cell as drawn"
    return f"{why}. Take back {cells(wrong)} and the board can be finished."


def painted_sentence(puzzle: Puzzle, over: Mapping[Node, str], wrong: Sequence[Node]) -> str:
    """Why a play with endpoints painted over cannot be finished, and what to take back."""
    owner = puzzle.endpoint_colour()
    said = "; ".join(f"{owner[node]}'s endpoint {at(node)} is painted {c}" for node, c in over.items())
    return f"{said}. Take back {cells(wrong)} and the board can be finished."


SHAPES = ("walled in", "crossing", "too small", "parity")  # the shapes of a why said in their own words


def shaped(puzzle: Puzzle, connect: Sequence[str], cover: Sequence[Node]) -> tuple[str, str]:
    """A smallest set of requirements that cannot hold, as its shape (one of SHAPES, "" for none) and
    one sentence with its cells: a colour walled in by others' ends, colours that cross, cells in a
    room too small for the paths that must pass, a colour that cannot fill a closed room by parity."""
    ends = {c: puzzle.endpoints[c] for c in connect}
    if not cover and len(connect) == 1:
        (colour,) = connect
        walls = _walls(puzzle, colour)
        by = f"the ends of {_and(sorted(walls))} shut {at(ends[colour][0])} off" if walls else "no way leads"
        return "walled in", f"{colour} is walled in: {by} from {at(ends[colour][1])}, even with every other cell empty."
    if not cover:
        drawn = [f"{c}'s {at(a)} to {at(b)}" for c, (a, b) in ends.items()]
        both = "both" if len(drawn) == 2 else "all"
        said = f"{_and(drawn)} cannot {both} be drawn, even with every other cell empty"
        return "crossing", f"{_and(connect)} cross: {said}."
    odd = _parity(puzzle, connect, cover)
    if odd:
        (colour,) = connect
        return "parity", (
            f"{colour} must fill the closed room of {cells(cover)} from {at(ends[colour][0])} to "
            f"{at(ends[colour][1])}, and cannot: a path steps from dark to light squares in turn, and the room "
            f"holds {odd[0]} dark and {odd[1]} light."
        )
    if connect:
        paths = "its path" if len(connect) == 1 else "their paths"
        return "too small", (
            f"{cells(cover)} cannot be covered while {_and(connect)} {'connects' if len(connect) == 1 else 'connect'}: "
            f"the room there is too small for {paths} and the cells."
        )
    return "too small", why_sentence(connect, cover)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _walls(puzzle: Puzzle, colour: str) -> set[str]:
    """The colours whose ends border what the colour's first end reaches past no other colour's end."""
    owner = puzzle.endpoint_colour()
    start = puzzle.endpoints[colour][0]
    seen, stack, walls = {start}, [start], set()
    while stack:
        for w in puzzle.neighbours[stack.pop()]:
            if owner.get(w, colour) != colour:
                walls.add(owner[w])
            elif w not in seen:
                seen.add(w)
                stack.append(w)
    return walls


def _parity(puzzle: Puzzle, connect: Sequence[str], cover: Sequence[Node]) -> tuple[int, int] | None:
    """(dark, light) squares of a closed room (the cells to cover and one colour's ends, bordered only
    by the board's edge and other colours' ends) that the colour's path cannot fill by parity; else None."""
    if puzzle.shape != "square" or len(connect) != 1:
        return None
    a, b = puzzle.endpoints[connect[0]]
    room = {a, b, *cover}
    owner = puzzle.endpoint_colour()
    if any(w not in room and w not in owner for n in room for w in puzzle.neighbours[n]):
        return None  # open: the path may leave it
    dark = sum(1 for n in room if sum(cell_of(n)) % 2 == 0)
    light = len(room) - dark
    shade = [sum(cell_of(n)) % 2 for n in (a, b)]
    fits = dark == light if shade[0] != shade[1] else (dark - light) == (1 if shade[0] == 0 else -1)
    return None if fits else (dark, light)


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

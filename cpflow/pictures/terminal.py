"""The board in a terminal: coloured pipes and dots (rich), and a grid marking cells."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import pairwise

from rich.text import Text

from cpflow.board.grid import Cell, Colour, Node, Puzzle, Solution, cell_of
from cpflow.pictures.palette import colours, hex_code

# Pipe glyph for the set of directions (row step, col step) a cell connects to.
PIPES = {
    frozenset({(-1, 0), (1, 0)}): "│",
    frozenset({(0, -1), (0, 1)}): "─",
    frozenset({(1, 0), (0, 1)}): "┌",
    frozenset({(1, 0), (0, -1)}): "┐",
    frozenset({(-1, 0), (0, 1)}): "└",
    frozenset({(-1, 0), (0, -1)}): "┘",
    frozenset({(-1, 0)}): "╵",  # the open end of a path drawn so far
    frozenset({(1, 0)}): "╷",
    frozenset({(0, -1)}): "╴",
    frozenset({(0, 1)}): "╶",
}


def styles(puzzle: Puzzle) -> dict[Colour, str]:
    """A rich style per colour, from the same palette as the SVG and PNG pictures."""
    return {colour: f"bold {hex_code(rgb)}" for colour, rgb in colours(puzzle).items()}


def terminal(
    puzzle: Puzzle,
    solution: Solution | None = None,
    highlight: Collection[Cell] = (),
    width: int | None = None,
    colour: bool = True,
    play: Mapping[Node, Colour] | None = None,
    marked: Collection[Cell] = (),
) -> Text:
    """The board drawn in colour: endpoints are dots, paths are box-drawing pipes on square
    boards (a bridge `┼`, a wall `┃` beside a cell or underlined below it, a warp a pipe
    off the edge it leaves by) and dots on hexagonal ones; `highlight`ed cells in reverse.

    Two characters a cell; one where that fits a terminal `width` characters wide and
    two would not; wider still, a line saying how to see the board. Without `colour`,
    an endpoint shows its colour's letter instead of a dot.

    A `play` (a partly drawn board: nodes and their colours) is drawn instead of a
    solution, neighbours of one colour joined; `marked` cells are underlined.
    """
    if width is not None and puzzle.width + 1 > width:
        return Text(
            f"(the board is {puzzle.width} cells wide, the terminal {width} columns: "
            "draw it with `cpflow render FILE --out board.svg`, or use --format text)\n"
        )
    compact = width is not None and 2 * puzzle.width + 1 > width
    colour_of = dict(play) if play is not None else solution.colour_of() if solution else {}
    look = _looks(puzzle, colour_of, highlight, marked)
    if puzzle.shape == "hex":
        return _hex(puzzle, colour_of, look, compact)
    links = _links(puzzle, _steps(puzzle, solution, play))
    endpoint = {cell_of(node): name for node, name in puzzle.endpoint_colour().items()}
    bridges, walls = set(puzzle.bridges()), puzzle.walls()
    wall_right = {a for a, b in walls if a[0] == b[0]}  # (a, b) in reading order: b is right of a, or below it
    wall_below = {a for a, b in walls if a[1] == b[1]}
    text = Text()
    for row in puzzle.array():
        first = row[0]
        text.append("─" if first and (0, -1) in links.get(first, ()) else " ", style=look(first) if first else "")
        for cell in row:
            if cell is None:
                text.append(" " if compact else "  ")
                continue
            ways = links.get(cell, set())
            dot = "●" if colour or len(endpoint.get(cell, "")) != 1 else endpoint[cell]
            glyph = dot if cell in endpoint else "┼" if cell in bridges else PIPES.get(frozenset(ways), "·")
            text.append(glyph, style=look(cell) + (" underline" if cell in wall_below else ""))
            if not compact:
                gap = "┃" if cell in wall_right else "─" if (0, 1) in ways else " "
                text.append(gap, style="bold white" if gap == "┃" else look(cell))
        text.append("\n")
    return text


def _looks(
    puzzle: Puzzle, colour_of: Mapping[Node, Colour], highlight: Collection[Cell], marked: Collection[Cell] = ()
) -> Callable[[Cell], str]:
    """The style of each cell: its colour (a bridge takes its across lane's), reversed if highlighted,
    underlined if marked."""
    style = styles(puzzle)
    colours = {cell_of(node): colour for node, colour in colour_of.items()}
    colours.update({cell_of(node): colour for node, colour in puzzle.endpoint_colour().items()})

    def look(cell: Cell) -> str:
        colour = colours.get(cell)
        return (
            ("dim" if colour is None else style.get(colour, "dim"))
            + (" reverse" if cell in highlight else "")
            + (" underline" if cell in marked else "")
        )

    return look


def _steps(
    puzzle: Puzzle, solution: Solution | None, play: Mapping[Node, Colour] | None
) -> Iterable[tuple[Node, Node]]:
    """The steps drawn: a solution's, or between a play's neighbours of one colour."""
    if play is not None:
        colour_of = {**play, **puzzle.endpoint_colour()}
        return [(a, b) for a in colour_of for b in puzzle.neighbours[a] if a < b and colour_of.get(b) == colour_of[a]]
    return [step for path in solution.paths.values() for step in pairwise(path)] if solution else []


def _links(puzzle: Puzzle, steps: Iterable[tuple[Node, Node]]) -> dict[Cell, set[tuple[int, int]]]:
    """For each cell on a path, the directions (row step, col step) to its neighbours on that path."""
    links: dict[Cell, set[tuple[int, int]]] = {}
    for u, w in steps:
        (r1, c1), (r2, c2) = cell_of(u), cell_of(w)
        if puzzle.touches((r1, c1), (r2, c2)):
            links.setdefault((r1, c1), set()).add((r2 - r1, c2 - c1))
            links.setdefault((r2, c2), set()).add((r1 - r2, c1 - c2))
        else:  # a warp leaves each cell by the edge away from the other
            links.setdefault((r1, c1), set()).add(_off_edge((r1, c1), (r2, c2)))
            links.setdefault((r2, c2), set()).add(_off_edge((r2, c2), (r1, c1)))
    return links


def _off_edge(cell: Cell, other: Cell) -> tuple[int, int]:
    """The direction a warp leaves `cell` by: away from the other end, along their row or column."""
    (r1, c1), (r2, c2) = cell, other
    if r1 == r2:
        return (0, -1 if c2 > c1 else 1)
    return (-1 if r2 > r1 else 1, 0)


def _hex(puzzle: Puzzle, colour_of: Mapping[Node, Colour], look, compact: bool = False) -> Text:
    """A hexagonal board, two text lines per row: odd columns above, even columns (half a cell lower) below;
    one character a cell when `compact`, else two."""
    gap = "" if compact else " "
    endpoint = {cell_of(node) for node in puzzle.endpoint_colour()}
    covered = {cell_of(node) for node in colour_of}
    text = Text()
    for row in puzzle.array():
        for parity in (1, 0):
            for c, cell in enumerate(row):
                if cell is None or c % 2 != parity:
                    text.append(" " + gap)
                else:
                    text.append("●" if cell in endpoint else "•" if cell in covered else "·", style=look(cell))
                    text.append(gap)
            text.append("\n")
    return text


def differences_grid(puzzle: Puzzle, cells: Collection[Cell]) -> list[str]:
    """Rows with `*` where two solutions differ, `.` elsewhere and a space for a hole."""
    return ["".join(" " if cell is None else "*" if cell in cells else "." for cell in row) for row in puzzle.array()]

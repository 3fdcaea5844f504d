"""The game's level-pack lines: one level per line, its board and its own solution.

A line is `SIZE,GROUP,LEVEL,COLOURS[,BRIDGES[,HOLES[,WALLS]]];PATH;PATH...` (see
../shared/puzzles/variants/FORMAT.md):
- SIZE: `W[:H]`, prefixed `X_` for a hexagonal board or `W_` for a board that wraps
  round (a torus), with `+B`, `+B:I`... flags that change nothing;
- BRIDGES: cell numbers joined by `:`; HOLES: `N`, `N_0` or `N_0B` joined by `:`;
  WALLS: `a|b` joined by `:`; a cell's number is `row * W + col`;
- each PATH: the cell numbers of one colour's solution, from one dot to the other.
On a `W_` board every border cell has a passage round to the opposite border, unless a
wall names that pair or a hole stands at either end. Colours take the game's letters in
order (red, green, blue, yellow, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cpflow.board.grid import Cell, Puzzle, Solution, cell_name, lattice, nodes_along
from cpflow.board.grids import MAX_CELLS, check_size, number
from cpflow.errors import PuzzleFormatError

COLOURS = "RGBYOCMmPWAgTbcp"  # the game's first 16: red, green, blue, yellow, orange, cyan, magenta, maroon, ...
SIZE = re.compile(r"(?P<kind>[XW]_)?(?P<width>\d+)(?::(?P<height>\d+))?(?:\+[A-Z:]*)?")
CELL = re.compile(r"[0-9]{1,9}")  # a cell number; ten digits are past every board
LINE = re.compile(r"(?:[XW]_)?\d+(?::\d+)?(?:\+[A-Z:]*)?,\d*,\d*,\d+[,;]")  # how a level line starts
# cells of all a pack's boards together: a line of a dozen bytes may declare a board of 65,536 cells, and
# every board is built before any work (0.7 s and 28 MB each). Sixteen of the largest boards; the game's
# 9,111 levels in one file hold 991,574 cells
MAX_PACK_CELLS = 16 * MAX_CELLS


@dataclass(frozen=True)
class Level:
    """A level of the game: its puzzle and the solution the line carries."""

    puzzle: Puzzle
    solution: Solution


def is_level(text: str) -> bool:
    """Whether a text opens with a level line."""
    return bool(LINE.match(text.lstrip()))


def parse_levels(text: str, source: str) -> list[Level]:
    """Every level of a pack: one per non-blank line."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    declared = 0
    for n, line in lines:  # the sizes first: the cost is bounded before any board is built
        size = SIZE.fullmatch(line.split(";")[0].split(",")[0])
        declared += _area(size, source, n) if size else 0
        if declared > MAX_PACK_CELLS:
            raise _Where(source, n, line).error(0, f"the pack's boards hold over {MAX_PACK_CELLS} cells in all")
    names = [source] if len(lines) == 1 else [f"{source}#{n}" for n, _ in lines]
    return [parse_level(line, source, n, name) for (n, line), name in zip(lines, names, strict=True)]


def parse_level(line: str, source: str, n: int = 1, name: str = "") -> Level:
    """One level line as a puzzle and its own solution; PuzzleFormatError where a field is wrong."""
    pieces = line.split(";")
    header = pieces[0].split(",")
    where = _Where(source, n, line)
    size = SIZE.fullmatch(header[0])
    if len(header) < 4 or not size:
        raise where.error(0, "expected a level header 'SIZE,GROUP,LEVEL,COLOURS,...' (e.g. 5,0,1,4)")
    _area(size, source, n)
    width = int(size["width"])
    height = int(size["height"] or width)
    shape = "hex" if size["kind"] == "X_" else "square"
    fields = header + [""] * (7 - len(header))
    bridges = {where.cell(x, width, height, 4) for x in _entries(fields[4])}
    holes = {where.cell(x.split("_")[0], width, height, 5) for x in _entries(fields[5])}
    walls = [tuple(where.cell(x, width, height, 6) for x in pair.split("|")) for pair in _entries(fields[6])]
    if any(len(wall) != 2 for wall in walls):
        raise where.error(6, "a wall is written 'a|b'")
    paths = [[where.cell(x, width, height, -1) for x in piece.split(",")] for piece in pieces[1:] if piece]
    if str(len(paths)) != fields[3]:
        raise where.error(3, f"the header says {fields[3]} colours, the line has {len(paths)} paths")
    if len(paths) > len(COLOURS):
        raise where.error(3, f"more than {len(COLOURS)} colours")
    touching = [w for w in walls if w[1] in lattice(shape, width, height, w[0])]
    wrapping = _wraps(width, height) if size["kind"] == "W_" else []
    near, round_ = set(touching), set(wrapping)  # sets: a line may name a wall for every passage
    for wall in walls:
        if wall not in near and tuple(sorted(wall)) not in round_:
            raise where.error(6, f"wall between {cell_name(wall[0])} and {cell_name(wall[1])}, which do not touch")
    closed = set(map(frozenset, walls))
    warps = [(a, b) for a, b in wrapping if a not in holes and b not in holes and frozenset((a, b)) not in closed]
    endpoints = {COLOURS[i]: (path[0], path[-1]) for i, path in enumerate(paths)}
    try:
        puzzle = Puzzle.build(
            width,
            height,
            endpoints,
            shape=shape,
            holes=holes,
            walls=touching,
            warps=warps,
            bridges=bridges,
            name=name or source,
        )
    except ValueError as error:
        raise where.error(0, str(error)) from None
    solution = Solution({colour: nodes_along(puzzle, path) for colour, path in zip(endpoints, paths, strict=True)})
    return Level(puzzle, solution)


def _area(size: re.Match, source: str, n: int) -> int:
    """The cells of the board a level's SIZE field declares, refused when over the size limit."""
    width = number(size["width"], source, n, 1)
    height = number(size["height"], source, n, 1) if size["height"] else width
    check_size(source, width, height, n)
    return width * height


def _wraps(width: int, height: int) -> list[tuple[Cell, Cell]]:
    """A torus's passages round the border: each row's two ends, each column's two ends."""
    pairs = [((r, 0), (r, width - 1)) for r in range(height) if width > 2]
    return pairs + [((0, c), (height - 1, c)) for c in range(width) if height > 2]


def _entries(field: str) -> list[str]:
    return [entry for entry in field.split(":") if entry]


class _Where:
    """Locates a field of a level line for error messages."""

    def __init__(self, source: str, n: int, line: str):
        self.source, self.n, self.line = source, n, line

    def error(self, field: int, message: str) -> PuzzleFormatError:
        header = self.line.split(";")[0]
        starts = [0] + [i + 1 for i, ch in enumerate(header) if ch == ","]
        col = len(header) + 1 if field < 0 else starts[min(field, len(starts) - 1)]
        return PuzzleFormatError(self.source, self.n, col + 1, message)

    def cell(self, text: str, width: int, height: int, field: int) -> Cell:
        """The cell a number names (ASCII digits: `isdigit` passes '²', which `int` refuses)."""
        digits = text.strip()
        if not CELL.fullmatch(digits) or int(digits) >= width * height:
            shown = text if len(text) <= 20 else text[:17] + "..."
            raise self.error(field, f"{shown!r} is not a cell number of a {width}x{height} board")
        return divmod(int(digits), width)

"""cpflow's own text format for every kind of board, written by hand or by `write_board`.

```
board 6x4            the size WxH, then `hex` for a hexagonal board
R..#.B               W characters a row: `.` empty, `#` a hole, `+` a bridge, any
..+..#               other printable character a colour's endpoint (twice each)
R....B
#.G.G.
walls 0,1|1,1 2,3|2,4      optional: cells `row,col` with no passage between them
warps 1,0|1,5              optional: passages between cells that do not touch
```
In a solution every cell but holes and bridges carries its colour. `#` lines before the
`board` line are comments; several boards may follow each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cpflow.board.grid import Cell, Puzzle, Solution, cell_name, cell_of, lattice
from cpflow.board.grids import number
from cpflow.errors import PuzzleFormatError

HEADER = re.compile(r"\s*board\s+(\d+)\s*[xX]\s*(\d+)(?:\s+(square|hex))?\s*$")
PAIRS = re.compile(r"\s*(walls|warps)\b(.*)$")
PAIR = re.compile(r"(\d+),(\d+)\|(\d+),(\d+)")
WORD = re.compile(r"\S+")
EMPTY, HOLE, BRIDGE = ".", "#", "+"
MARKS = (EMPTY, HOLE, BRIDGE)


def is_board(lines: list[str]) -> bool:
    first = next((line for line in lines if line.strip() and not line.lstrip().startswith("#")), "")
    return bool(re.match(r"\s*board\b", first))


@dataclass(frozen=True)
class Written:
    """A board as written: its size, shape, the mark in each cell (endpoints need not pair: an editor's
    board as it is being made), its walls and warps, where it stands in its file."""

    width: int
    height: int
    shape: str
    marks: dict[Cell, str]
    pairs: dict[str, list[tuple[Cell, Cell]]]
    first: int = 1  # the line of its `board` header (from 1)
    line: int = 0  # the index of the line after the board (from 0)

    def is_plain(self) -> bool:
        """A square board of endpoints and empty cells only, which the classic grid writes."""
        square = self.shape == "square" and not any(self.pairs.values())
        return square and not any(mark in (HOLE, BRIDGE) for mark in self.marks.values())


def parse_boards(text: str, source: str) -> list[Puzzle]:
    """Each board of the text as a puzzle."""
    written = read_boards(text, source)
    return [_puzzle(board, source, number) for number, board in enumerate(written, 1)]


def read_boards(text: str, source: str) -> list[Written]:
    """Each board of the text as written (a solution's coloured cells too)."""
    lines, n = text.splitlines(), 0
    found: list[Written] = []
    while True:
        while n < len(lines) and (not lines[n].strip() or lines[n].lstrip().startswith("#")):
            n += 1
        if n == len(lines):
            if not found:
                raise PuzzleFormatError.whole(source, "no 'board WxH' line")
            return found
        found.append(_board(lines, n, source))
        n = found[-1].line


def _board(lines: list[str], n: int, source: str) -> Written:
    header = HEADER.match(lines[n])
    if not header:
        raise PuzzleFormatError(source, n + 1, 1, "expected 'board WxH' (and 'hex' for a hexagonal board)")
    width, height = (number(header[i], source, n + 1, header.start(i) + 1) for i in (1, 2))
    shape, first = header[3] or "square", n + 1
    if not 1 <= width * height <= 65_536:
        raise PuzzleFormatError(source, n + 1, 1, f"board of {width}x{height} is not a size a board can have")
    marks = _marks(lines, n + 1, width, height, source)
    n += 1 + height
    pairs: dict[str, list[tuple[Cell, Cell]]] = {"walls": [], "warps": []}
    while n < len(lines) and (pairs_line := PAIRS.match(lines[n])):
        kind = pairs_line[1]
        for word in WORD.finditer(lines[n], pairs_line.start(2)):
            item, col = word[0], word.start() + 1  # where it stands, not where its text first appears
            pair = PAIR.fullmatch(item)
            if not pair:
                raise PuzzleFormatError(source, n + 1, col, f"{item!r} is not a pair of cells 'row,col|row,col'")
            row_a, col_a, row_b, col_b = (number(digits, source, n + 1, col) for digits in pair.groups())
            a, b = (row_a, col_a), (row_b, col_b)
            problem = _pair_problem(kind, a, b, width, height, shape)
            if problem:
                raise PuzzleFormatError(source, n + 1, col, problem)
            pairs[kind].append((a, b))
        n += 1
    return Written(width, height, shape, marks, pairs, first, n)


def _marks(lines: list[str], start: int, width: int, height: int, source: str) -> dict[Cell, str]:
    """The mark in each cell of the `height` rows from line index `start`: W printable characters a row."""
    marks: dict[Cell, str] = {}
    for r in range(height):
        written = lines[start + r] if start + r < len(lines) else ""
        row, indent = written.strip(), len(written) - len(written.lstrip())
        if len(row) != width or re.search(r"\s", row):
            raise PuzzleFormatError(source, start + r + 1, 1, f"row {r + 1} should be {width} cells with no spaces")
        odd = next((c for c, ch in enumerate(row) if not ch.isprintable()), None)
        if odd is not None:
            raise PuzzleFormatError(source, start + r + 1, indent + odd + 1, f"cell {row[odd]!r} is not printable")
        marks.update({(r, c): ch for c, ch in enumerate(row)})
    return marks


def _pair_problem(kind: str, a: Cell, b: Cell, width: int, height: int, shape: str) -> str | None:
    """What is wrong with a wall or warp as written, if anything."""
    for cell in (a, b):
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            return f"{cell_name(cell)} is off the {width}x{height} board"
    if a == b:
        return f"a {kind[:-1]} from {cell_name(a)} to itself"
    if kind == "walls" and b not in lattice(shape, width, height, a):
        return f"wall between {cell_name(a)} and {cell_name(b)}, which do not touch"
    return None


def _puzzle(board: Written, source: str, number: int) -> Puzzle:
    marks = board.marks
    holes = [cell for cell, ch in marks.items() if ch == HOLE]
    bridges = [cell for cell, ch in marks.items() if ch == BRIDGE]
    seen: dict[str, list[Cell]] = {}
    for cell, ch in marks.items():
        if ch not in MARKS:
            seen.setdefault(ch, []).append(cell)
    odd = next((colour for colour, cells in seen.items() if len(cells) != 2), None)
    if not seen:
        raise PuzzleFormatError(source, board.first, 1, "no colours: the board has no endpoints")
    if odd:
        (r, c), times = seen[odd][-1], len(seen[odd])
        problem = f"colour {odd!r} appears {'once' if times == 1 else f'{times} times'}"
        raise PuzzleFormatError(source, board.first + 1 + r, c + 1, f"{problem}; each colour needs exactly 2 endpoints")
    try:
        return Puzzle.build(
            board.width,
            board.height,
            {colour: (cells[0], cells[1]) for colour, cells in seen.items()},
            shape=board.shape,
            holes=holes,
            walls=board.pairs["walls"],
            warps=board.pairs["warps"],
            bridges=bridges,
            name=f"{source}" if number == 1 else f"{source}#{number}",
        )
    except ValueError as error:
        raise PuzzleFormatError(source, board.first, 1, str(error)) from None


def write_board(puzzle: Puzzle, solution: Solution | None = None) -> str:
    """The board (and the solution's colours, if given) in this format; `parse_boards` reads it back."""
    colour_of = {cell_of(node): colour for node, colour in (solution.colour_of() if solution else {}).items()}
    colour_of.update({cell_of(node): colour for node, colour in puzzle.endpoint_colour().items()})
    if any(len(colour) != 1 or colour in MARKS for colour in puzzle.colours):
        raise ValueError("the board format takes one-character colours other than . # +; use JSON")
    bridges = set(puzzle.bridges())
    marks = {
        (r, c): HOLE if cell is None else BRIDGE if cell in bridges else colour_of.get(cell, EMPTY)
        for r, row in enumerate(puzzle.array())
        for c, cell in enumerate(row)
    }
    pairs = {"walls": list(puzzle.walls()), "warps": list(puzzle.warps())}
    return write(Written(puzzle.width, puzzle.height, puzzle.shape, marks, pairs))


def write(board: Written) -> str:
    """A board as written, in this format: a cell with no mark is empty."""
    lines = [f"board {board.width}x{board.height}" + (" hex" if board.shape == "hex" else "")]
    for r in range(board.height):
        lines.append("".join(board.marks.get((r, c), EMPTY) for c in range(board.width)))
    for kind in ("walls", "warps"):
        if pairs := board.pairs.get(kind):
            lines.append(kind + " " + " ".join(f"{a[0]},{a[1]}|{b[0]},{b[1]}" for a, b in pairs))
    return "\n".join(lines) + "\n"

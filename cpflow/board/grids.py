"""The rectangular text grids: the classic grid, the zero grid and the header stream.

- classic: one line per row, `.` an empty cell, any other printable character a
  colour endpoint that appears exactly twice; remark lines (`# ` and text) may stand
  above the grid;
- zero: the same grid with `0` for an empty cell (chosen for files with no `.` and
  a number of `0`s other than two; when named, `.` is empty too);
- header: the Numberlink community's stream (thomasahle/numberlink's files): a line
  `W H`, then H rows, either of W characters (`.` empty, any other character a colour,
  digits included, as in the classic grid) or of W whitespace-separated tokens
  (contest files: numbers are colours, `0`, `-` and `.` are empty). A board's rows are
  character rows when each is one word of exactly W characters. Puzzles follow each
  other, with blank lines and `#` comment lines where a header line may stand; a line
  `0 0` ends the stream and nothing after it is read.

Every problem is raised as a PuzzleFormatError located at `source:line:col`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cpflow.board.grid import Cell, Colour, Puzzle, Solution
from cpflow.errors import PuzzleFormatError

GRID_FORMATS = ("classic", "zero", "header")
MAX_SIDE = 1024
MAX_CELLS = 65_536  # e.g. 256 x 256; CP-SAT models beyond this do not fit in memory
EMPTY = {"classic": {"."}, "zero": {"0", "."}, "tokens": {".", "-", "0"}}
HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*$")
END = re.compile(r"\s*0+\s+0+\s*$")  # the stream's end mark, `0 0`
REMARK = re.compile(r"#\s")  # a line above a classic grid that is not a row


@dataclass(frozen=True)
class Token:
    """One cell as written: its text (None when empty) and where it stands in the file."""

    text: str | None
    line: int
    col: int


Grid = list[list[Token]]


def detect_grid(lines: list[str]) -> str:
    """Header if the text opens with `W H` (after any `#` comments), else classic.

    Zero when there is no `.` and `0` stands other than exactly twice: two `0`s are
    read as a colour's endpoints, never dropped as empty cells.
    """
    first = next((line for line in lines if line.strip() and not _is_comment(line)), "")
    if HEADER.match(first):
        return "header"
    rows = [line for line in lines if not _is_remark(line)]
    if not any("." in row for row in rows) and sum(row.count("0") for row in rows) not in (0, 2):
        return "zero"
    return "classic"


def read_grids(text: str, source: str, fmt: str) -> list[Grid]:
    """The boards of a text in one of the grid formats, as grids of tokens checked to be rectangular."""
    lines = text.splitlines()
    if fmt == "header":
        return _header_grids(lines, source)
    return [_plain_grid(lines, source, EMPTY[fmt])]


def _plain_grid(lines: list[str], source: str, empty: set[str]) -> Grid:
    """A classic or zero-format board: one character per cell, rows of equal length."""
    numbered = [(n, line.rstrip()) for n, line in enumerate(lines, 1)]
    while numbered and not numbered[-1][1]:
        numbered.pop()
    top = next((i for i, (_, line) in enumerate(numbered) if line and not _is_remark(line)), len(numbered))
    numbered = numbered[top:]  # blank and remark lines above dropped at once, not one by one from the front
    if not numbered:
        raise PuzzleFormatError.whole(source, "no board in it, only remarks ('# ' lines)")
    check_size(source, len(numbered[0][1]), len(numbered))
    grid = []
    for n, line in numbered:
        if not line:
            raise PuzzleFormatError(source, n, 1, "blank line inside the board")
        space = re.search(r"\s", line)
        if space:
            raise PuzzleFormatError(source, n, space.start() + 1, "space inside a row; write '.' for an empty cell")
        grid.append([Token(None if ch in empty else ch, n, col) for col, ch in enumerate(line, 1)])
        _check_width(source, grid, n)
    return grid


def _header_grids(lines: list[str], source: str) -> list[Grid]:
    """Boards of the header format: `W H`, then H rows; comments and blank lines between, `0 0` at the end."""
    grids: list[Grid] = []
    n = 0
    while True:
        while n < len(lines) and (not lines[n].strip() or _is_comment(lines[n])):
            n += 1
        if n == len(lines) or END.match(lines[n]):
            if not grids:
                raise PuzzleFormatError(source, n + 1 if n < len(lines) else 1, 1, "no puzzle before the end mark")
            return grids
        header = HEADER.match(lines[n])
        if not header:
            raise PuzzleFormatError(source, n + 1, 1, "expected a header line 'WIDTH HEIGHT'")
        width, height = (number(header[i], source, n + 1, header.start(i) + 1) for i in (1, 2))
        check_size(source, width, height, n + 1)
        rows = lines[n + 1 : n + 1 + height]
        if len(rows) < height or not all(row.strip() for row in rows):
            found = next((i for i, row in enumerate(rows) if not row.strip()), len(rows))
            raise PuzzleFormatError(source, n + 2 + found, 1, f"the header promises {height} rows, found {found}")
        read = _character_row if _are_character_rows(rows, width) else _token_row
        grids.append([read(row, width, source, n + 2 + i) for i, row in enumerate(rows)])
        n += 1 + height


def _are_character_rows(rows: list[str], width: int) -> bool:
    """Rows with no space inside are character rows, but for a one-column board of longer tokens."""
    words = [row.split() for row in rows]
    return all(len(w) == 1 for w in words) and (width > 1 or all(len(w[0]) == 1 for w in words))


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _is_remark(line: str) -> bool:
    """A line above a classic or zero grid that is not a row: `#`, a space, then anything (as
    `solve --format text` writes its status line). No row has a space in it."""
    return REMARK.match(line) is not None


def _character_row(row: str, width: int, source: str, n: int) -> list[Token]:
    """A row of W characters: `.` empty, any other character a colour (digits too)."""
    start, word = len(row) - len(row.lstrip()), row.strip()
    if len(word) != width:
        raise PuzzleFormatError(
            source, n, start + min(len(word), width) + 1, f"row has {len(word)} cells, the header says {width}"
        )
    return [Token(None if ch in EMPTY["classic"] else ch, n, start + i + 1) for i, ch in enumerate(row.strip())]


def _token_row(row: str, width: int, source: str, n: int) -> list[Token]:
    """A row of W whitespace-separated tokens: numbers are colours, `0`, `-` and `.` empty."""
    tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", row)]
    if len(tokens) != width:
        col = tokens[width][1] if len(tokens) > width else len(row.rstrip()) + 1
        raise PuzzleFormatError(source, n, col, f"row has {len(tokens)} cells, the header says {width}")
    return [Token(None if text in EMPTY["tokens"] else text, n, col) for text, col in tokens]


def number(digits: str, source: str, line: int, col: int) -> int:
    """A size or cell number as written (digits, as the readers' patterns match them). One of ten
    digits or more is past every limit; Python would not even read one of over 4300."""
    if len(digits) > 9:
        raise PuzzleFormatError(source, line, col, f"number {digits[:9]}... is too large ({len(digits)} digits)")
    return int(digits)


def _check_width(source: str, grid: Grid, n: int) -> None:
    first, last = grid[0], grid[-1]
    if len(last) != len(first):
        col = min(len(last), len(first)) + 1
        raise PuzzleFormatError(source, n, col, f"row has {len(last)} cells, the first row has {len(first)}")


def check_size(source: str, width: int, height: int, line: int = 1) -> None:
    """Refuse a board with no cells, or over the size limit (MAX_SIDE a side, MAX_CELLS in all)."""
    if width < 1 or height < 1:
        raise PuzzleFormatError(source, line, 1, f"board of {width}x{height} cells has no cells")
    if max(width, height) > MAX_SIDE or width * height > MAX_CELLS:
        raise PuzzleFormatError(
            source,
            line,
            1,
            f"board of {width}x{height} is over the size limit ({MAX_CELLS} cells, {MAX_SIDE} per side)",
        )


def puzzle_from_grid(grid: Grid, source: str, name: str = "") -> Puzzle:
    """A puzzle from a grid of tokens: every colour must appear exactly twice."""
    seen: dict[Colour, list[Token]] = {}
    cells: dict[Colour, list[Cell]] = {}
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            if token.text is not None:
                if not token.text.isprintable():
                    raise PuzzleFormatError(source, token.line, token.col, f"colour {token.text!r} is not printable")
                seen.setdefault(token.text, []).append(token)
                cells.setdefault(token.text, []).append((r, c))
                if len(seen[token.text]) == 3:
                    raise _count_error(source, token, 3)
    for tokens in seen.values():
        if len(tokens) == 1:
            raise _count_error(source, tokens[0], 1)
    if not seen:
        raise PuzzleFormatError(source, grid[0][0].line, 1, "no colours: the board has no endpoints")
    endpoints = {colour: (pair[0], pair[1]) for colour, pair in cells.items()}
    return Puzzle.build(len(grid[0]), len(grid), endpoints, name=name or source)


def _count_error(source: str, token: Token, count: int) -> PuzzleFormatError:
    times = "once" if count == 1 else "3 times or more"
    return PuzzleFormatError(
        source, token.line, token.col, f"colour {token.text!r} appears {times}; each colour needs exactly 2 endpoints"
    )


def grid_rows(puzzle: Puzzle, solution: Solution | None = None) -> list[str]:
    """A plain board's rows as text, without any header line: characters where the colours allow, else tokens."""
    colour_of = solution.colour_of() if solution else {}
    colour_of.update(puzzle.endpoint_colour())
    grid = [["." if cell is None else colour_of.get(cell, ".") for cell in row] for row in puzzle.array()]
    if _is_single_characters(puzzle):
        return ["".join(row) for row in grid]
    size = max(len(colour) for colour in puzzle.colours)
    return [" ".join(cell.rjust(size) for cell in row) for row in grid]


def grid_text(puzzle: Puzzle, solution: Solution | None = None, fmt: str = "auto") -> str:
    """A plain board as text: `classic` the rows alone, `header` a `W H` line first; `auto`
    is classic for one-character colours, else header (tokens), so that it reads back the same."""
    body = "\n".join(grid_rows(puzzle, solution)) + "\n"
    classic = fmt == "classic" or (fmt == "auto" and _is_single_characters(puzzle))
    return body if classic else f"{puzzle.width} {puzzle.height}\n{body}"


def _is_single_characters(puzzle: Puzzle) -> bool:
    return all(len(colour) == 1 for colour in puzzle.colours) and "." not in puzzle.colours

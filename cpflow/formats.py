"""Reading and writing puzzles and solutions as text.

Formats (`FORMATS`), told apart automatically unless one is named:
- classic: one line per row, `.` an empty cell, any other printable character a
  colour endpoint that appears exactly twice;
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
from pathlib import Path

from cpflow.errors import PuzzleFormatError
from cpflow.grid import Cell, Colour, Puzzle, Solution

FORMATS = ("auto", "classic", "zero", "header")
MAX_SIDE = 1024
MAX_CELLS = 65_536  # e.g. 256 x 256; CP-SAT models beyond this do not fit in memory
MAX_BYTES = 4 * 1024 * 1024
EMPTY = {"classic": {"."}, "zero": {"0", "."}, "tokens": {".", "-", "0"}}
HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*$")
END = re.compile(r"\s*0+\s+0+\s*$")  # the stream's end mark, `0 0`


@dataclass(frozen=True)
class Token:
    """One cell as written: its text (None when empty) and where it stands in the file."""

    text: str | None
    line: int
    col: int


Grid = list[list[Token]]


def load(path: str | Path, fmt: str = "auto") -> list[Puzzle]:
    """The puzzles in a file (one, or several in the header format)."""
    source = str(path)
    return parse(read_text(Path(path)), source, fmt)


def read_text(path: Path) -> str:
    """A file's text, refusing what is missing, a directory, too large or not text."""
    source = str(path)
    if not path.exists():
        raise PuzzleFormatError(source, 1, 1, "no such file")
    if path.is_dir():
        raise PuzzleFormatError(source, 1, 1, "is a directory, not a puzzle file")
    if path.stat().st_size > MAX_BYTES:
        raise PuzzleFormatError(source, 1, 1, f"file is larger than the limit of {MAX_BYTES} bytes")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PuzzleFormatError(source, 1, 1, f"cannot read: {error.strerror}") from None
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """UTF-8 text without control characters, else an error at the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, col = _position(data[: error.start].decode("utf-8", "replace"))
        raise PuzzleFormatError(source, line, col, "not a text file (undecodable byte)") from None
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if bad:
        line, col = _position(text[: bad.start()])
        raise PuzzleFormatError(source, line, col, f"not a text file (control character {bad.group()!r})")
    return text


def _position(prefix: str) -> tuple[int, int]:
    """1-based line and column just after `prefix`."""
    return prefix.count("\n") + 1, len(prefix) - (prefix.rfind("\n") + 1) + 1


def parse(text: str, source: str = "<text>", fmt: str = "auto") -> list[Puzzle]:
    """The puzzles written in `text`; `source` names it in error messages."""
    grids = read_grids(text, source, fmt)
    names = [source] if len(grids) == 1 else [f"{source}#{i}" for i in range(1, len(grids) + 1)]
    return [puzzle_from_grid(grid, source, name) for grid, name in zip(grids, names, strict=True)]


def detect(lines: list[str]) -> str:
    """The format of a text: header if it opens with `W H` (after any `#` comments), else classic.

    Zero when there is no `.` and `0` stands other than exactly twice: two `0`s are
    read as a colour's endpoints, never dropped as empty cells.
    """
    first = next((line for line in lines if line.strip() and not _is_comment(line)), "")
    if HEADER.match(first):
        return "header"
    if not any("." in line for line in lines) and sum(line.count("0") for line in lines) not in (0, 2):
        return "zero"
    return "classic"


def read_grids(text: str, source: str, fmt: str = "auto") -> list[Grid]:
    """The boards of a text as grids of tokens, checked to be rectangular."""
    if fmt not in FORMATS:
        raise PuzzleFormatError(source, 1, 1, f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise PuzzleFormatError(source, 1, 1, "empty file: no puzzle in it")
    fmt = detect(lines) if fmt == "auto" else fmt
    if fmt == "header":
        return _header_grids(lines, source)
    return [_plain_grid(lines, source, EMPTY[fmt])]


def _plain_grid(lines: list[str], source: str, empty: set[str]) -> Grid:
    """A classic or zero-format board: one character per cell, rows of equal length."""
    numbered = [(n, line.rstrip()) for n, line in enumerate(lines, 1)]
    while numbered and not numbered[-1][1]:
        numbered.pop()
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    _check_size(source, len(numbered[0][1]), len(numbered))
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
    grids, n = [], 0
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
        width, height = int(header[1]), int(header[2])
        _check_size(source, width, height, n + 1)
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


def _check_width(source: str, grid: Grid, n: int) -> None:
    first, last = grid[0], grid[-1]
    if len(last) != len(first):
        col = min(len(last), len(first)) + 1
        raise PuzzleFormatError(source, n, col, f"row has {len(last)} cells, the first row has {len(first)}")


def _check_size(source: str, width: int, height: int, line: int = 1) -> None:
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
    return Puzzle.rectangle(len(grid[0]), len(grid), endpoints, name or source)


def _count_error(source: str, token: Token, count: int) -> PuzzleFormatError:
    times = "once" if count == 1 else "3 times or more"
    return PuzzleFormatError(
        source, token.line, token.col, f"colour {token.text!r} appears {times}; each colour needs exactly 2 endpoints"
    )


def picture(puzzle: Puzzle, solution: Solution | None = None, fmt: str = "auto") -> str:
    """The board as text: endpoints (and the solution's paths, if given) by colour name.

    `classic` writes the rows alone; `header` writes the `W H` line first, then
    character rows where the colours allow, else aligned tokens; `auto` is classic for
    one-character colours, else header, so that `parse(picture(p)) == [p]`.
    """
    body = "\n".join(rows(puzzle, solution)) + "\n"
    classic = fmt == "classic" or (fmt == "auto" and _is_single_characters(puzzle))
    return body if classic else f"{puzzle.width} {puzzle.height}\n{body}"


def rows(puzzle: Puzzle, solution: Solution | None = None) -> list[str]:
    """The board's rows as text, without any header line: characters where the colours allow, else tokens."""
    colour_of = solution.colour_of() if solution else {}
    colour_of.update(puzzle.endpoint_colour())
    grid = [[colour_of.get((r, c), ".") for c in range(puzzle.width)] for r in range(puzzle.height)]
    if _is_single_characters(puzzle):
        return ["".join(row) for row in grid]
    size = max(len(colour) for colour in puzzle.colours)
    return [" ".join(cell.rjust(size) for cell in row) for row in grid]


def _is_single_characters(puzzle: Puzzle) -> bool:
    return all(len(colour) == 1 for colour in puzzle.colours) and "." not in puzzle.colours


def parse_solution(puzzle: Puzzle, text: str, source: str = "<text>") -> Solution:
    """A solution written as a fully coloured grid (as `picture` writes it).

    Each path is read by walking from the colour's first endpoint through cells of
    its colour; a grid that breaks the rules gives paths the verifier will reject.
    """
    lines = text.splitlines()
    fmt = "header" if detect(lines) == "header" else "classic"
    grid = read_grids(text, source, fmt)[0]
    if (len(grid[0]), len(grid)) != (puzzle.width, puzzle.height):
        raise PuzzleFormatError(
            source, 1, 1, f"solution is {len(grid[0])}x{len(grid)}, the puzzle {puzzle.width}x{puzzle.height}"
        )
    colour_of = {(r, c): token.text for r, row in enumerate(grid) for c, token in enumerate(row)}
    return Solution({colour: _walk(puzzle, colour, colour_of) for colour in puzzle.colours})


def _walk(puzzle: Puzzle, colour: Colour, colour_of: dict[Cell, str | None]) -> tuple[Cell, ...]:
    start, end = puzzle.endpoints[colour]
    path, seen = [start], {start}
    while path[-1] != end:
        step = [n for n in puzzle.neighbours[path[-1]] if colour_of.get(n) == colour and n not in seen]
        if not step:
            break
        path.append(end if end in step else step[0])
        seen.add(path[-1])
    return tuple(path)


def load_solution(puzzle: Puzzle, path: str | Path) -> Solution:
    return parse_solution(puzzle, read_text(Path(path)), str(path))

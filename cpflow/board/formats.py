"""Reading and writing puzzles and solutions: every format, told apart automatically.

Formats (`INPUT_FORMATS`), detected unless one is named:
- classic, zero, header: rectangular text grids (`grids`), the classic set's and the
  Numberlink community's files;
- level: the game's level-pack lines, one level per line, each with its solution
  (`levelpack`);
- board: cpflow's own text format for every kind of board (`native`);
- json: a JSON graph, for any board at all (`graphjson`).

Every problem is raised as a PuzzleFormatError located at `source:line:col`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

from cpflow.board import graphjson, grids, levelpack, native
from cpflow.board.grid import Cell, Colour, Node, Puzzle, Solution, cell_name, cell_of, nodes_along
from cpflow.errors import PuzzleFormatError

INPUT_FORMATS = ("auto", *grids.GRID_FORMATS, "level", "board", "json")
MAX_BYTES = 4 * 1024 * 1024
MAX_CELLS = grids.MAX_CELLS
SEARCH_BUDGET = 100_000  # steps spent tracing one colour's path through a text grid
# C0 and C1 controls but tab, LF and CR; and the line breaks that str.splitlines honours besides
# those, which would put the lines the readers count out of step with the lines an editor shows.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")
BREAKS = {"\x85": "line break", "\u2028": "line separator", "\u2029": "paragraph separator"}


def load(path: str | Path, fmt: str = "auto") -> list[Puzzle]:
    """The puzzles in a file (one, or several in the header, level and board formats)."""
    return [puzzle for puzzle, _ in load_with_solutions(path, fmt)]


def load_with_solutions(path: str | Path, fmt: str = "auto") -> list[tuple[Puzzle, Solution | None]]:
    """The puzzles in a file, each with the solution the file carries (levels, JSON), else None."""
    return parse_with_solutions(read_text(Path(path)), str(path), fmt)


def read_text(path: Path) -> str:
    """A file's text, refusing what is missing, a directory, too large or not text."""
    source = str(path)
    if not path.exists():
        raise PuzzleFormatError.whole(source, "no such file")
    if path.is_dir():
        raise PuzzleFormatError.whole(source, "is a directory, not a puzzle file")
    try:
        with path.open("rb") as file:
            return read_stream(file, source)
    except OSError as error:
        raise PuzzleFormatError.whole(source, f"cannot read: {error.strerror}") from None


def read_stream(stream: BinaryIO, source: str) -> str:
    """The text of an open file or of standard input, refusing it once it is longer than the limit
    (read no further: a device like /dev/zero, or a pipe, may never end)."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise PuzzleFormatError.whole(source, f"file is larger than the limit of {MAX_BYTES} bytes")
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """UTF-8 text without control characters, else an error at the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, col = _position(data[: error.start].decode("utf-8", "replace"))
        raise PuzzleFormatError(source, line, col, "not a text file (undecodable byte)") from None
    bad = CONTROL.search(text)
    if bad:
        line, col = _position(text[: bad.start()])
        what = BREAKS.get(bad.group(), "control character")
        raise PuzzleFormatError(source, line, col, f"not a text file ({what} {bad.group()!r})")
    return text


def _position(prefix: str) -> tuple[int, int]:
    """1-based line and column just after `prefix`."""
    return prefix.count("\n") + 1, len(prefix) - (prefix.rfind("\n") + 1) + 1


def parse(text: str, source: str = "<text>", fmt: str = "auto") -> list[Puzzle]:
    """The puzzles written in `text`; `source` names it in error messages."""
    return [puzzle for puzzle, _ in parse_with_solutions(text, source, fmt)]


def parse_with_solutions(text: str, source: str = "<text>", fmt: str = "auto") -> list[tuple[Puzzle, Solution | None]]:
    """The puzzles written in `text`, each with the solution the text carries, if any."""
    if fmt not in INPUT_FORMATS:
        raise PuzzleFormatError.whole(source, f"unknown format {fmt!r}; choose from {', '.join(INPUT_FORMATS)}")
    if not text.strip():
        raise PuzzleFormatError.whole(source, "empty file: no puzzle in it")
    fmt = detect(text) if fmt == "auto" else fmt
    if fmt == "level":
        return [(level.puzzle, level.solution) for level in levelpack.parse_levels(text, source)]
    if fmt == "json":
        return [graphjson.parse_graph(text, source)]
    if fmt == "board":
        return [(puzzle, None) for puzzle in native.parse_boards(text, source)]
    found = grids.read_grids(text, source, fmt)
    names = [source] if len(found) == 1 else [f"{source}#{i}" for i in range(1, len(found) + 1)]
    return [(grids.puzzle_from_grid(grid, source, name), None) for grid, name in zip(found, names, strict=True)]


def detect(text: str) -> str:
    """The format of a text: json, board, level, or one of the grids."""
    lines = text.splitlines()
    if text.lstrip().startswith("{"):
        return "json"
    if native.is_board(lines):
        return "board"
    if levelpack.is_level(text):
        return "level"
    return grids.detect_grid(lines)


def picture(puzzle: Puzzle, solution: Solution | None = None, fmt: str = "auto") -> str:
    """The board as text (and the solution's colours, if given), in a format that reads back the same.

    A plain board: the classic grid (`classic`), the header format (`header`), or
    whichever fits its colours (`auto`). Any other board: the board format, or JSON
    when its colours do not fit in one character.
    """
    if fmt == "json":
        return graphjson.write_graph(puzzle, solution)
    if puzzle.is_plain() and fmt != "board":
        return grids.grid_text(puzzle, solution, fmt)
    try:
        return native.write_board(puzzle, solution)
    except ValueError:
        return graphjson.write_graph(puzzle, solution)


def sketch_text(board: native.Written) -> str:
    """A board as an editor holds it (its endpoints perhaps unpaired) as text: the classic grid when plain,
    as `picture` writes a plain puzzle, else the board format."""
    text = native.write(board)
    return text.split("\n", 1)[1] if board.is_plain() else text


def drawn_paths(play: Puzzle) -> Solution:
    """A play's drawn nodes as a partial solution: each colour's nodes (not a path), for writing."""
    drawn: dict[Colour, list[Node]] = {}
    for node, colour in play.drawn.items():
        drawn.setdefault(colour, []).append(node)
    return Solution({colour: tuple(nodes) for colour, nodes in drawn.items()})


def play_text(play: Puzzle) -> str:
    """A play as a file `hint --play` reads: the board as text with the drawn cells coloured (the
    board format marks a bridge `+` whatever crosses it, so a bridge's lanes are not written)."""
    return picture(play, drawn_paths(play))


def rows(puzzle: Puzzle, solution: Solution | None = None) -> list[str]:
    """The board's rows as text, one string a row, for JSON records and printing."""
    if puzzle.is_plain():
        return grids.grid_rows(puzzle, solution)
    text = picture(puzzle, solution)
    return text.splitlines()[1 : 1 + puzzle.height] if text.startswith("board") else []


def parse_solution(puzzle: Puzzle, text: str, source: str = "<text>") -> Solution:
    """A solution of `puzzle` written in any format: a level line's paths, JSON paths (a
    graph's, or a `cpflow solve --format json` record's cells), or a coloured grid.

    Paths from a grid are traced from each colour's first endpoint through cells of its
    colour (straight over bridges); a grid that breaks the rules gives paths the
    verifier will reject.
    """
    if text.lstrip().startswith("{"):
        return _json_solution(puzzle, text, source)
    fmt = detect(text)
    if fmt == "level":
        levels = levelpack.parse_levels(text, source)
        same = [level for level in levels if level.puzzle == puzzle] or levels
        _same_size(puzzle, same[0].puzzle.width, same[0].puzzle.height, source)
        return same[0].solution
    if fmt == "board":
        board = native.read_boards(text, source)[0]
        _same_size(puzzle, board.width, board.height, source)
        marks = {cell: mark for cell, mark in board.marks.items() if mark not in native.MARKS}
        _known(puzzle, marks, {cell: (board.first + 1 + cell[0], cell[1] + 1) for cell in marks}, source)
        return _trace(puzzle, marks)
    grid = grids.read_grids(text, source, "header" if fmt == "header" else "classic")[0]
    _same_size(puzzle, len(grid[0]), len(grid), source)
    tokens = {(r, c): token for r, row in enumerate(grid) for c, token in enumerate(row)}
    _known(
        puzzle,
        {cell: t.text for cell, t in tokens.items()},
        {cell: (t.line, t.col) for cell, t in tokens.items()},
        source,
    )
    return _trace(puzzle, {cell: token.text for cell, token in tokens.items()})


def _known(
    puzzle: Puzzle, colour_at: Mapping[Cell, str | None], where: Mapping[Cell, tuple[int, int]], source: str
) -> None:
    """Refuse a cell of the board marked with a letter that is no colour of the puzzle (a typo would
    otherwise be read as an empty cell), at its place in the file."""
    for cell, mark in colour_at.items():
        if mark is not None and mark not in puzzle.endpoints and cell in puzzle.neighbours:
            raise PuzzleFormatError(
                source, *where[cell], f"{mark!r} at {cell_name(cell)} is not a colour of the puzzle"
            )


def _json_solution(puzzle: Puzzle, text: str, source: str) -> Solution:
    """Paths from a JSON graph, or from a JSON record of `cpflow solve` (the first, in JSON lines)."""
    try:
        data = graphjson.read_json(text, source)
    except PuzzleFormatError as error:
        try:
            data = graphjson.read_json(text.lstrip().splitlines()[0], source)
        except PuzzleFormatError:
            raise error from None
    if isinstance(data, dict) and "nodes" in data:
        solution = graphjson.parse_graph(text, source)[1]
        if solution is None:
            raise PuzzleFormatError.whole(source, "the JSON graph has no paths")
        return solution
    paths = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(paths, dict) or not paths:
        raise PuzzleFormatError.whole(source, "no paths in this JSON record")
    if not all(isinstance(p, list) and all(_is_cell(cell) for cell in p) for p in paths.values()):
        raise PuzzleFormatError.whole(source, "paths must be lists of cells [row, col]")
    return Solution({str(c): nodes_along(puzzle, [tuple(cell) for cell in p]) for c, p in paths.items()})


def _is_cell(item) -> bool:
    """Whether a JSON value is a cell [row, col] (whole numbers, not true or false)."""
    return isinstance(item, list) and len(item) == 2 and all(type(x) is int for x in item)


def _same_size(puzzle: Puzzle, width: int, height: int, source: str, what: str = "solution") -> None:
    if (width, height) != (puzzle.width, puzzle.height):
        size = f"{puzzle.width}x{puzzle.height}"
        raise PuzzleFormatError.whole(source, f"{what} is {width}x{height}, the puzzle {size}")


def _trace(puzzle: Puzzle, colour_at: Mapping[Cell, str | None]) -> Solution:
    """Each colour's path through the cells marked with it; bridge lanes may be crossed by any colour."""
    paths = {colour: _trace_one(puzzle, colour, colour_at) for colour in puzzle.colours}
    painted: dict[Node, Colour] = {
        cell: mark
        for cell, mark in colour_at.items()
        if mark is not None and mark in puzzle.endpoints and cell in puzzle.neighbours
    }
    return Solution.read(paths, painted)


def _trace_one(puzzle: Puzzle, colour: Colour, colour_at: Mapping[Cell, str | None]) -> tuple[Node, ...]:
    """A path from the colour's first endpoint to its second through every cell of its colour, by
    depth-first search (within a budget): where paths may touch themselves a grid does not show the
    order, and a shorter path would leave cells uncovered. Else the first path found, else the
    longest prefix, for the verifier to reject."""
    start, end = puzzle.endpoints[colour]
    lanes = {node for node in puzzle.nodes if len(node) == 3}
    cells = sum(1 for node in puzzle.nodes if node not in lanes and colour_at.get(cell_of(node)) == colour)
    path, budget, first = [start], SEARCH_BUDGET, None
    # each step's work is constant, whatever the path's length: the nodes on it as a set, its cells
    # counted as it grows, and the longest so far kept as a chain of (node, the chain before it)
    on, covered = {start}, 1
    chains: list[tuple] = [(start, None)]
    best, longest = chains[-1], 1
    options = [[n for n in puzzle.neighbours[start]]]
    while path and budget:
        budget -= 1
        if path[-1] == end and covered == cells:
            return tuple(path)
        if path[-1] == end or not options[-1]:
            first = first or (tuple(path) if path[-1] == end else None)
            gone = path.pop()
            on.discard(gone)
            options.pop(), chains.pop()
            covered -= gone not in lanes
            continue
        nxt = options[-1].pop()
        if nxt in on or not (nxt in lanes or colour_at.get(cell_of(nxt)) == colour):
            continue
        path.append(nxt)
        on.add(nxt)
        covered += nxt not in lanes
        options.append([n for n in puzzle.neighbours[nxt]])
        chains.append((nxt, chains[-1]))
        if len(path) > longest:
            best, longest = chains[-1], len(path)
    return first or _unchained(best)


def _unchained(chain: tuple | None) -> tuple[Node, ...]:
    """The nodes of a chain (node, the chain before it), first to last."""
    nodes = []
    while chain is not None:
        node, chain = chain
        nodes.append(node)
    return tuple(reversed(nodes))


def parse_play(puzzle: Puzzle, text: str, source: str = "<text>", painted: bool = False) -> dict[Node, Colour]:
    """The cells a play file colours (the board as drawn so far, in the puzzle's own format, `.`
    where empty, or JSON paths): each must be one of the puzzle's colours, on a cell it could have;
    with `painted`, an endpoint drawn another colour is kept too (painted over: a mistake for a hint)."""
    fmt = detect(text)
    marks: dict[Node, Colour]  # the drawn cells
    where: dict[Node, tuple[int | None, int | None]]  # each one's line and column in the file, when known
    if fmt == "board":
        board = native.read_boards(text, source)[0]
        marks = {cell: mark for cell, mark in board.marks.items() if mark not in native.MARKS}
        width, height, where = (
            board.width,
            board.height,
            {cell: (board.first + 1 + cell[0], cell[1] + 1) for cell in marks},
        )
    elif fmt in grids.GRID_FORMATS:
        grid = grids.read_grids(text, source, fmt)[0]
        width, height = len(grid[0]), len(grid)
        tokens = {(r, c): token for r, row in enumerate(grid) for c, token in enumerate(row) if token.text}
        marks, where = (
            {cell: t.text for cell, t in tokens.items() if t.text},
            {cell: (t.line, t.col) for cell, t in tokens.items()},
        )
    elif fmt == "json":  # a solution as JSON (paths): every cell on a path is drawn
        colour_of = _json_solution(puzzle, text, source).colour_of()
        marks = {node: colour for node, colour in colour_of.items() if node == cell_of(node)}
        width, height, where = puzzle.width, puzzle.height, dict.fromkeys(marks, (None, None))
    else:
        raise PuzzleFormatError.whole(source, "a play file is a grid, a board or JSON paths, with some cells coloured")
    _same_size(puzzle, width, height, source, "play")
    owner = puzzle.endpoint_colour()
    drawn: dict[Node, Colour] = {}
    for cell, colour in marks.items():
        if colour not in puzzle.endpoints:
            raise PuzzleFormatError(source, *where[cell], f"drawn {colour!r} is not a colour of the puzzle")
        if cell not in puzzle.neighbours or (owner.get(cell, colour) != colour and not painted):
            raise PuzzleFormatError(
                source, *where[cell], f"drawn {colour!r} at {cell_name(cell)} is not a cell it could have"
            )
        if owner.get(cell) != colour:
            drawn[cell] = colour
    return drawn


def load_play(puzzle: Puzzle, path: str | Path, painted: bool = False) -> dict[Node, Colour]:
    return parse_play(puzzle, read_text(Path(path)), str(path), painted)


def load_solution(puzzle: Puzzle, path: str | Path) -> Solution:
    return parse_solution(puzzle, read_text(Path(path)), str(path))

"""Turning command-line arguments (files, globs, directories) into puzzles to solve."""

from __future__ import annotations

import glob
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from cpflow.board import native
from cpflow.board.formats import load, load_play, parse, read_stream, read_text
from cpflow.board.grid import FLOW, Puzzle, Rules
from cpflow.errors import PuzzleFormatError
from cpflow.workflows.shots import is_picture, read_shot

SOLUTION_SUFFIXES = (".sol.txt", ".solution.txt")
PUZZLE_SUFFIXES = (".txt", ".level")  # what a directory is read for
STDIN = "-"  # the argument that names standard input
T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """One puzzle to work on: its file, its place in that file (from 1) and the board."""

    source: str
    index: int
    puzzle: Puzzle


def expand(arguments: Iterable[str]) -> list[Path]:
    """Files named directly, matched by a glob, or found (`*.txt`, `*.level`) in a directory.

    Solution files (`*.sol.txt`, `*.solution.txt`) are never puzzles: they are left out
    wherever they come from, so that a shell's `*.txt` beside solutions does what is meant.
    """
    paths: list[Path] = []
    arguments = list(arguments)
    for argument in arguments:
        path = Path(argument)
        if argument == STDIN:
            paths.append(path)
        elif path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in PUZZLE_SUFFIXES and p.is_file())
            found = [p for p in found if not p.name.endswith(SOLUTION_SUFFIXES)]
            if not found:
                raise PuzzleFormatError.whole(argument, "directory holds no .txt or .level puzzle files")
            paths += found
        elif not path.exists() and glob.has_magic(argument):
            found = [Path(p) for p in sorted(glob.glob(argument)) if not p.endswith(SOLUTION_SUFFIXES)]
            if not found:
                raise PuzzleFormatError.whole(argument, "no file matches this pattern")
            paths += found
        elif not argument.endswith(SOLUTION_SUFFIXES):
            paths.append(path)
    if not paths and arguments:
        raise PuzzleFormatError.whole(arguments[0], "is a solution file, not a puzzle; name the puzzle's file")
    return paths


def text_of(argument: str) -> tuple[str, str]:
    """(text, source) of a file argument, or of standard input for `-` (read to its end)."""
    if argument == STDIN:
        return read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>"
    return read_text(Path(argument)), argument


def solution_texts(text: str) -> list[str]:
    """A solution file's solutions, one text each: JSON lines one a line; boards from one 'board WxH'
    line to the next (a row of holes may begin with '#'); grids (classic, header) apart where blank
    or remark ('# ') lines part them; level lines stay together (each is matched to its puzzle)."""
    lines = text.splitlines(keepends=True)
    if text.lstrip().startswith("{"):
        return [line for line in lines if line.strip()] or [text]
    starts = [n for n, line in enumerate(lines) if native.HEADER.match(line)]
    if starts:
        return ["".join(lines[a:b]) for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]
    pieces: list[str] = []
    current: list[str] = []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            if current:
                pieces.append("".join(current))
                current = []
        else:
            current.append(line)
    if current:
        pieces.append("".join(current))
    return pieces or [text]


def _puzzles(path: Path, fmt: str) -> list[Puzzle]:
    """The puzzles of a file, or of standard input for `-`; of a screenshot of the game, the puzzle
    it shows (cpflow.workflows.shots: its dots, not the pipes drawn)."""
    if str(path) == STDIN:
        return parse(read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>", fmt)
    if fmt == "auto" and is_picture(path):
        return [read_shot(path).puzzle]
    return load(path, fmt)


def batches(
    arguments: Iterable[str],
    fmt: str = "auto",
    rules: Rules = FLOW,
    play: str | Path | None = None,
    bad: list[PuzzleFormatError] | None = None,
) -> Iterator[list[Entry]]:
    """The puzzles named, in batches to work on one after another: the puzzles of regular files
    together (all read and checked first, as `load_all` does), and each piece of a stream (a pipe,
    a FIFO) as soon as it has arrived (cpflow.workflows.streams). A bad piece of a stream raises,
    unless a `bad` list collects it and the stream goes on."""
    from cpflow.workflows import streams

    arguments = list(arguments)
    if play is not None or not any(streams.is_stream(a) for a in arguments):
        yield load_all(arguments, fmt, rules, play, bad)
        return
    files: list[str] = []
    for argument in [*arguments, None]:
        if argument is not None and not streams.is_stream(argument):
            files.append(argument)
            continue
        if files:
            yield load_all(files, fmt, rules, None, bad)
            files = []
        if argument is None:
            return
        index, source = 0, "<stdin>" if argument == STDIN else argument
        for piece in streams.pieces(argument, fmt):
            if isinstance(piece, PuzzleFormatError):
                if bad is None:
                    raise piece
                bad.append(piece)
                yield []  # so that the bad piece is said now, not when the stream ends
                continue
            yield [Entry(source, index + i, replace(p, rules=rules)) for i, p in enumerate(piece, 1)]
            index += len(piece)
        if not index and (bad is None or not bad):
            raise PuzzleFormatError.whole(source, "the stream ended with no puzzle in it")


def load_all(
    arguments: Iterable[str],
    fmt: str = "auto",
    rules: Rules = FLOW,
    play: str | Path | None = None,
    bad: list[PuzzleFormatError] | None = None,
) -> list[Entry]:
    """Every puzzle named by the arguments, in order, under the rules (and the play file, for
    one puzzle). The first bad file raises, unless a `bad` list is given to collect every
    bad file's error while the good files are read."""
    entries = []
    for path in expand(arguments):
        try:
            found = _puzzles(path, fmt)
        except PuzzleFormatError as error:
            if bad is None:
                raise
            bad.append(error)
            continue
        entries += [Entry(str(path), index, replace(puzzle, rules=rules)) for index, puzzle in enumerate(found, 1)]
    if play is not None:
        if len(entries) != 1:
            raise PuzzleFormatError.whole(str(play), f"a play file is for one puzzle, and {len(entries)} were named")
        (entry,) = entries
        entries = [replace(entry, puzzle=replace(entry.puzzle, drawn=load_play(entry.puzzle, play)))]
    return entries


def numbered(found: Sequence[T], index: int, source: str) -> T:
    """Puzzle `index` (from 1) of those a file holds (`--index N`, a request's `index`);
    PuzzleFormatError when the file holds fewer."""
    if index > len(found):
        raise PuzzleFormatError.whole(source, f"holds {len(found)} puzzle(s), no puzzle {index}")
    return found[index - 1]

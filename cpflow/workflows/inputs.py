"""Turning command-line arguments (files, globs, directories) into puzzles to solve."""

from __future__ import annotations

import glob
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from cpflow.board.errors import PuzzleFormatError
from cpflow.board.formats import decode, load, load_hints, parse
from cpflow.board.grid import FLOW, Puzzle, Rules

SOLUTION_SUFFIXES = (".sol.txt", ".solution.txt")
PUZZLE_SUFFIXES = (".txt", ".level")  # what a directory is read for
STDIN = "-"  # the argument that names standard input


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


def _puzzles(path: Path, fmt: str) -> list[Puzzle]:
    """The puzzles of a file, or of standard input for `-`."""
    if str(path) == STDIN:
        return parse(decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>", fmt)
    return load(path, fmt)


def load_all(
    arguments: Iterable[str],
    fmt: str = "auto",
    rules: Rules = FLOW,
    hint: str | Path | None = None,
    bad: list[PuzzleFormatError] | None = None,
) -> list[Entry]:
    """Every puzzle named by the arguments, in order, under the rules (and the hint file, for
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
    if hint is not None:
        if len(entries) != 1:
            raise PuzzleFormatError.whole(str(hint), f"a hint file is for one puzzle, and {len(entries)} were named")
        (entry,) = entries
        entries = [replace(entry, puzzle=replace(entry.puzzle, hints=load_hints(entry.puzzle, hint)))]
    return entries

"""Puzzles from a stream (a pipe, a FIFO, a terminal): read once, each answered as it arrives.

A regular file is read whole and checked before any puzzle in it is worked on. A stream
may never end (a FIFO a game keeps open, `tail -f`), so it is read line by line and cut
into pieces, each worked on as soon as it is complete:
- a level line is a piece of its own;
- `W H` (the header format) and the H rows after it; `0 0` ends the stream;
- a JSON value: the lines until its brackets close (or a blank line);
- anything else (classic grids, the board format): the lines up to a blank line.
Errors name the line in the whole stream. Each piece is held to the size limit of a file.
Each line is looked at once (its bytes counted, a JSON piece's brackets followed), so a stream
costs time in proportion to its length.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from cpflow.board.formats import MAX_BYTES, decode, parse
from cpflow.board.levelpack import is_level
from cpflow.errors import PuzzleFormatError

STDIN = "-"
HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*$")


def is_stream(argument: str) -> bool:
    """Whether an input argument names a stream: standard input that is not a regular file, a FIFO,
    or a character device."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode if argument == STDIN else os.stat(argument).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


def pieces(argument: str, fmt: str = "auto") -> Iterator[list | PuzzleFormatError]:
    """The puzzles of a stream, a list for each piece as it is complete (puzzles as `parse` reads
    them), or the PuzzleFormatError of a bad piece (located in the whole stream), after which the
    stream goes on. What makes the stream unreadable (a line over the limit, bad bytes) is raised."""
    source = "<stdin>" if argument == STDIN else argument
    if argument == STDIN:
        yield from _pieces(sys.stdin.buffer, source, fmt)
        return
    try:
        with Path(argument).open("rb") as stream:
            yield from _pieces(stream, source, fmt)
    except OSError as error:
        raise PuzzleFormatError.whole(source, f"cannot read: {error.strerror}") from None


def _pieces(stream: BinaryIO, source: str, fmt: str) -> Iterator[list | PuzzleFormatError]:
    for first, text in _texts(stream, source, fmt in ("auto", "header")):
        try:
            found = parse(text, source, fmt)
        except PuzzleFormatError as error:
            line = None if error.line is None else error.line + first - 1
            yield PuzzleFormatError(source, line, error.col, error.message)
            continue
        yield found


def _texts(stream: BinaryIO, source: str, headers: bool = True) -> Iterator[tuple[int, str]]:
    """(number of its first line, text) of each piece, read line by line; `headers`: a line `W H`
    opens a piece of the header format."""
    number, first, size = 0, 0, 0  # size: the piece's bytes so far (none: no piece open)
    piece = io.StringIO()  # its text: a list of lines would take 30 times the bytes of short ones
    rows_left: int | None = None  # a header piece: rows still to come
    brackets: _Brackets | None = None  # a JSON piece: its depth so far
    while True:
        raw = stream.readline(MAX_BYTES + 1)
        line = ""
        if raw:
            number += 1
            if len(raw) > MAX_BYTES:
                raise PuzzleFormatError(source, number, 1, f"line is longer than the limit of {MAX_BYTES} bytes")
            line = decode(raw, source)
        if not raw or not line.strip():  # the end, or a blank line
            if size and (rows_left is None or not raw):
                yield first, _taken(piece)
                size = 0
            if not raw:
                return
            continue
        if not size:
            first = number
            header = HEADER.match(line) if headers else None
            if header and (int(header[1]), int(header[2])) == (0, 0):
                return  # the header format's end mark
            rows_left = int(header[2]) + 1 if header else None
            if is_level(line):
                yield number, line
                continue
            brackets = _Brackets() if line.lstrip().startswith("{") else None
        piece.write(line)
        size += len(raw)
        if size > MAX_BYTES:
            raise PuzzleFormatError(source, first, 1, f"puzzle is larger than the limit of {MAX_BYTES} bytes")
        if rows_left is not None:
            rows_left -= 1
            if rows_left == 0:
                yield first, _taken(piece)
                size, rows_left = 0, None
        elif brackets and brackets.closed_by(line):
            yield first, _taken(piece)
            size = 0


def _taken(piece: io.StringIO) -> str:
    """The text written so far, the buffer left empty for the next piece."""
    text = piece.getvalue()
    piece.seek(0)
    piece.truncate()
    return text


class _Brackets:
    """Follows a JSON piece's depth line by line (brackets outside strings; JSON puts no line
    break inside a string), so that the piece ends when its value closes, with no parse on
    every line. No line after that could mend a piece that does not parse: `parse` says why."""

    STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

    def __init__(self):
        self.depth = 0

    def closed_by(self, line: str) -> bool:
        """Whether the piece's value closes with this line."""
        bare = self.STRING.sub("", line)
        self.depth += bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")
        return self.depth <= 0

"""`cpflow import`'s work: read a screenshot, write or print the puzzle it shows, solve it if asked.

Exit codes, returned for the CLI: 0 imported (and solved, with `solve`); 1 no board
could be read, its colours do not pair up, or (with `solve`) the puzzle read has no
solution; 2 bad usage: a missing file, not an image, an unwritable --out, or OpenCV
not installed. Every failure is one line on stderr; nothing is written unless the whole
puzzle was read.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cpflow.board.errors import NotAnImage, ScreenshotUnreadable
from cpflow.board.formats import picture
from cpflow.board.grid import Puzzle

MAX_BYTES = 64 * 1024 * 1024
NEEDS_VISION = "cpflow import needs OpenCV and numpy: pip install 'cpflow[vision]'"


def show_imported(shot: Path, out: Path | None, solve: bool, debug: Path | None, options: dict) -> int:
    """Read `shot` and print its puzzle (or write it to `out`); with `solve`, solve it too."""
    try:
        from cpflow.vision.screenshot import read_screenshot
    except ImportError:
        return _fail(NEEDS_VISION, 2)
    data = _read(shot)
    if data is None:
        return 2
    try:
        puzzle = read_screenshot(data, debug, name=shot.stem)
    except NotAnImage as error:
        return _fail(f"{shot}: {error}", 2)
    except ScreenshotUnreadable as error:
        return _fail(f"{shot}: {error}", 1)
    text = picture(puzzle)
    if out is None:
        print(text, end="")
    else:
        try:
            out.write_text(text)
        except OSError as error:
            return _fail(f"{out}: cannot write: {error.strerror}", 2)
    return _solved(shot, puzzle, options) if solve else 0


def _read(shot: Path) -> bytes | None:
    """The file's bytes, or None after saying in one line why there are none."""
    if not shot.is_file():
        _fail(f"{shot}: {'is a directory, not an image' if shot.is_dir() else 'no such file'}", 2)
        return None
    try:
        with shot.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        _fail(f"{shot}: cannot read: {error.strerror}", 2)
        return None
    if len(data) > MAX_BYTES:
        _fail(f"{shot}: file is larger than the limit of {MAX_BYTES} bytes", 2)
        return None
    return data


def _solved(shot: Path, puzzle: Puzzle, options: dict) -> int:
    from cpflow import reports
    from cpflow.workflows.inputs import Entry

    return reports.show_solved([Entry(str(shot), 1, puzzle)], "auto", False, 1, options)


def _fail(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code

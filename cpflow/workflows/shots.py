"""Screenshots of the game as input: told from puzzle files by their first bytes, read by
cpflow.vision (the `vision` extra, imported only here and only for a picture).

A screenshot gives the puzzle (its dots) and the play (the pipes drawn): `solve`, `unique`
and `count` take the puzzle, `hint` the puzzle with its play, `import` writes either.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cpflow.errors import ExtraMissing, PuzzleFormatError, ScreenshotUnreadable

if TYPE_CHECKING:
    from cpflow.vision.screenshot import Reading

MAX_BYTES = 64 * 1024 * 1024
TEXT_SUFFIXES = (".txt", ".level", ".json")
NEEDS_VISION = "reading a screenshot needs OpenCV and numpy: pip install 'cpflow[vision]'"
MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*")  # PNG, JPEG, GIF, BMP, TIFF


def is_picture(path: Path) -> bool:
    """Whether the file starts as a picture does (PNG, JPEG, GIF, WebP, BMP, TIFF), and is not named as
    a puzzle file (.txt, .level, .json: read as text, whatever its first bytes). Only a regular file is
    looked at: reading the start of a pipe would take it from the puzzle."""
    if not path.is_file() or path.suffix.lower() in TEXT_SUFFIXES:
        return False
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return head.startswith(MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def read_shot(path: Path, debug: Path | None = None) -> Reading:
    """The puzzle and the play a screenshot file shows; ScreenshotUnreadable (said of the file)
    when no board can be read, ExtraMissing without OpenCV, PuzzleFormatError when the file
    cannot be read."""
    try:
        from cpflow.vision.screenshot import read
    except ImportError:
        raise ExtraMissing(NEEDS_VISION) from None
    try:
        return read(_bytes(path), debug, name=path.stem)
    except ScreenshotUnreadable as error:  # said of the file, with its kind's exit code
        raise type(error)(f"{path}: {error}") from None


def _bytes(path: Path) -> bytes:
    """The file's bytes; PuzzleFormatError saying why there are none."""
    if not path.is_file():
        raise PuzzleFormatError.whole(str(path), "is a directory, not an image" if path.is_dir() else "no such file")
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise PuzzleFormatError.whole(str(path), f"cannot read: {error.strerror}") from None
    if len(data) > MAX_BYTES:
        raise PuzzleFormatError.whole(str(path), f"file is larger than the limit of {MAX_BYTES} bytes")
    return data

"""`cpflow import`: read a screenshot of the game, write or print the puzzle it shows, solve it if asked.

Exit codes: 0 imported (and solved, with --solve); 1 no board could be read, its colours
do not pair up, or (with --solve) the puzzle read has no solution; 2 bad usage: a missing
file, not an image, an unwritable --out, or OpenCV not installed. Every failure is one
line on stderr (its error's, cpflow.errors); nothing is written unless the whole puzzle
was read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cpflow.board.formats import picture
from cpflow.board.grid import Puzzle
from cpflow.cli.group import app, failures
from cpflow.cli.options import DEFAULT_ENGINE, EngineOption
from cpflow.errors import ExtraMissing, PuzzleFormatError, ScreenshotUnreadable

MAX_BYTES = 64 * 1024 * 1024
NEEDS_VISION = "import needs OpenCV and numpy: pip install 'cpflow[vision]'"


@app.command("import")
def import_(
    shot: Annotated[Path, typer.Argument(metavar="SHOT", help="A screenshot of the game: PNG or JPEG.")],
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the puzzle here (default: print it).", dir_okay=False)
    ] = None,
    solve: Annotated[bool, typer.Option("--solve", help="Solve the imported puzzle at once.")] = False,
    debug: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write the intermediate images here, to see how it read.", file_okay=False),
    ] = None,
    engine: EngineOption = DEFAULT_ENGINE,
) -> None:
    """Read a screenshot of the game and write the puzzle it shows, in the classic format
    (the board format for a board with holes).

    Needs the vision extra (pip install 'cpflow[vision]'). Exit 0 when imported (and
    solved, with --solve); 1 when no board could be read, its colours do not pair up, or
    the puzzle has no solution; 2 on a missing file, a file that is not an image, or
    without the vision extra.
    """
    with failures():
        raise typer.Exit(show_imported(shot, out, solve, debug, {"engine": engine.value}))


def show_imported(shot: Path, out: Path | None, solve: bool, debug: Path | None, options: dict) -> int:
    """Read `shot` and print its puzzle (or write it to `out`); with `solve`, solve it too."""
    try:
        from cpflow.vision.screenshot import read_screenshot
    except ImportError:
        raise ExtraMissing(NEEDS_VISION) from None
    try:
        puzzle = read_screenshot(_read(shot), debug, name=shot.stem)
    except ScreenshotUnreadable as error:  # said of the file, with its kind's exit code
        raise type(error)(f"{shot}: {error}") from None
    text = picture(puzzle)
    if out is None:
        print(text, end="")
    else:
        try:
            out.write_text(text)
        except OSError as error:
            raise PuzzleFormatError.whole(str(out), f"cannot write: {error.strerror}") from None
    return _solved(shot, puzzle, options) if solve else 0


def _read(shot: Path) -> bytes:
    """The file's bytes; PuzzleFormatError saying why there are none."""
    if not shot.is_file():
        raise PuzzleFormatError.whole(str(shot), "is a directory, not an image" if shot.is_dir() else "no such file")
    try:
        with shot.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise PuzzleFormatError.whole(str(shot), f"cannot read: {error.strerror}") from None
    if len(data) > MAX_BYTES:
        raise PuzzleFormatError.whole(str(shot), f"file is larger than the limit of {MAX_BYTES} bytes")
    return data


def _solved(shot: Path, puzzle: Puzzle, options: dict) -> int:
    from cpflow.cli.batch import show_solved
    from cpflow.cli.writers import Pictures, writer
    from cpflow.workflows.inputs import Entry

    return show_solved([Entry(str(shot), 1, puzzle)], writer(), Pictures(), 1, options)

"""`cpflow import`: read a screenshot of the game, write or print the puzzle it shows (and the play
drawn on it, with --play), solve it if asked. Reading the file is cpflow.workflows.shots's.

Exit codes: 0 imported (and solved, with --solve); 1 no board could be read, its colours
do not pair up, a cell was read with too little confidence (cpflow.vision.confidence), or
(with --solve) the puzzle read has no solution; 2 bad usage: a missing
file, not an image, an --out or --play that cannot be written or is the screenshot itself,
or OpenCV not installed. Every failure is one line on stderr (its error's, cpflow.errors);
nothing is written unless the whole puzzle was read, and the puzzle and its play land
together or not at all (cpflow.outputs).
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated

import typer

from cpflow import outputs
from cpflow.board.formats import picture, play_text
from cpflow.board.grid import Puzzle
from cpflow.cli.group import app, failures
from cpflow.cli.lines import stderr
from cpflow.cli.options import DEFAULT_ENGINE, EngineOption


class Shown(enum.StrEnum):
    """What `import` prints: the puzzle as text, or the reading's JSON record."""

    text = "text"
    json = "json"


@app.command("import")
def import_(
    shot: Annotated[Path, typer.Argument(metavar="SHOT", help="A screenshot of the game: PNG or JPEG.")],
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the puzzle here (default: print it).", dir_okay=False)
    ] = None,
    play: Annotated[
        Path | None,
        typer.Option(
            "--play",
            metavar="FILE",
            help="Also write the play: the pipes drawn, as the puzzle with their cells coloured (for hint --play).",
            dir_okay=False,
        ),
    ] = None,
    solve: Annotated[bool, typer.Option("--solve", help="Solve the imported puzzle at once.")] = False,
    shown: Annotated[
        Shown,
        typer.Option(
            "--format",
            "-f",
            help="text: the puzzle; json: a record of the reading (its puzzle, play, and confidence per cell).",
        ),
    ] = Shown.text,
    debug: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write the intermediate images here, to see how it read.", file_okay=False),
    ] = None,
    engine: EngineOption = DEFAULT_ENGINE,
) -> None:
    """Read a screenshot of the game and write the puzzle it shows, in the classic format
    (the board format for a board with holes); with --play, the pipes drawn on it too.

    Needs the vision extra (pip install 'cpflow[vision]'). Cells the reading of the pipes is
    unsure of are named on stderr and left out of the play. Exit 0 when imported (and
    solved, with --solve); 1 when no board could be read, its colours do not pair up, a cell
    was read with too little confidence (named), or the puzzle has no solution; 2 on a missing
    file, a file that is not an image, or without the vision extra.
    """
    with failures():
        outputs.ready([out, play], [shot])
        if debug is not None:  # the intermediate images land one by one as the reading goes: none over the picture
            from cpflow.vision.debug import FILES

            outputs.refuse_inputs([debug / name for name in FILES], [shot])
        raise typer.Exit(show_imported(shot, out, play, solve, debug, {"engine": engine.value}, shown))


def show_imported(
    shot: Path,
    out: Path | None,
    play: Path | None,
    solve: bool,
    debug: Path | None,
    options: dict,
    shown: Shown = Shown.text,
) -> int:
    """Read `shot` and print its puzzle (or write it to `out`, and its play to `play`; `shown` json: print
    the reading's record instead, `records.imported`); with `solve`, solve it too (its record too, in json)."""
    from cpflow.workflows.shots import read_shot

    reading = read_shot(shot, debug)
    puzzle = reading.puzzle
    if reading.play.unsure:
        from cpflow.deduce.sentences import cells  # only when said (start-up time)

        stderr(f"{shot}: unsure of the pipe at {cells(reading.play.unsure)}: left out of the play")
    texts = {out: picture(puzzle)}
    if play is not None:
        texts[play] = play_text(reading.played())
    with outputs.together() as group:
        for path, text in texts.items():
            if path is not None:
                group.write(path, text)
    if shown is Shown.json:
        from cpflow.workflows import records

        print(
            json.dumps(records.imported(str(shot), puzzle, reading.play.drawn, reading.play.unsure, reading.confidence))
        )
    elif out is None:
        print(texts[None], end="")
    return _solved(shot, puzzle, options, shown) if solve else 0


def _solved(shot: Path, puzzle: Puzzle, options: dict, shown: Shown) -> int:
    from cpflow.cli.batch import show_solved
    from cpflow.cli.writers import Pictures, writer
    from cpflow.workflows.inputs import Entry

    return show_solved(
        [Entry(str(shot), 1, puzzle)], writer("json" if shown is Shown.json else "auto"), Pictures(), 1, options
    )

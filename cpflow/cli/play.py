"""`cpflow hint`: the next step of a play (or every step, and the grade), a mistake, or why there
is no step; `cpflow grade`: each puzzle's grade. The reasoning is cpflow.deduce's; this module
reads the play and prints.

Exit codes: 0 a step or a solved play (every puzzle graded); 1 a mistake, a puzzle with no
solution or with more than one; 3 the time limit came first; 2 bad input; 4 a hint that fails its
check (a bug).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from cpflow.board.formats import load_play, parse_play, read_stream
from cpflow.board.grid import Puzzle
from cpflow.cli.group import app, failures
from cpflow.cli.options import (
    AUTO,
    OUTPUT_AUTO,
    Cluster,
    ColourMode,
    ColourOption,
    Files,
    InputOption,
    Jobs,
    KeepGoing,
    OutputOption,
    Quiet,
    TimeLimit,
)
from cpflow.cli.progress import answered, failed_exit, with_progress
from cpflow.cli.reading import SEVERITY, each_batch, where
from cpflow.cli.writers import Writer, writer
from cpflow.errors import PuzzleFormatError
from cpflow.workflows.inputs import STDIN, Entry, load_all, numbered
from cpflow.workflows.items import Failed

EXIT = {"step": 0, "solved": 0, "mistake": 1, "not-unique": 1, "unknown": 3}  # by hint status (workflows.hints)


@app.command()
def hint(
    file: Annotated[str, typer.Argument(metavar="PUZZLE", help="The puzzle file; - for standard input.")],
    play: Annotated[
        str | None,
        typer.Option(
            "--play",
            metavar="FILE|-",
            help="The board as drawn so far: the puzzle's format with some cells coloured, or a JSON record's "
            "paths; - for standard input. Without it, the bare puzzle.",
        ),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every step from the play to the end, then the steps per rule and the grade.")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="A what if step by step: each cell its assumption leads to, and why.")
    ] = False,
    format: OutputOption = OUTPUT_AUTO,
    index: Annotated[
        int, typer.Option(metavar="N", help="Which puzzle of a file that holds several (from 1).", min=1)
    ] = 1,
    time_limit: TimeLimit = None,
    input_format: InputOption = AUTO,
    color: ColourOption = ColourMode.auto,
) -> None:
    """Show the next step of a play: the cells it colours, the rule that forces it, the cells that
    force it, and why in one sentence.

    A play no solution extends is a mistake: the fewest cells to take back, and why. Exit 0
    for a step or a solved play, 1 for a mistake or a puzzle with no solution or more than one,
    3 when the time limit came first, 2 on bad input, 4 for a hint that fails its check (a bug).
    """
    with failures():
        board = read_play(file, index, input_format.value, play)
        raise typer.Exit(show_hints(board, every, writer(format.value, colour=color.value), time_limit, explain))


def read_play(file: str, index: int, fmt: str, play: str | None) -> Puzzle:
    """Puzzle `index` (from 1) of the file, with the play drawn so far (a file, or - for stdin); of a
    screenshot of the game, with the pipes drawn on it (unless a play file is given)."""
    from cpflow.workflows.shots import is_picture, read_shot

    if play is None and fmt == "auto" and file != STDIN and is_picture(Path(file)):
        return read_shot(Path(file)).played()
    entries = load_all([file], fmt)
    puzzle = numbered(entries, index, file).puzzle
    if play is None:
        return puzzle
    if play == STDIN:
        if file == STDIN:
            raise PuzzleFormatError.whole(STDIN, "the puzzle and the play cannot both come from standard input")
        drawn = parse_play(puzzle, read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>", painted=True)
    else:
        drawn = load_play(puzzle, Path(play), painted=True)  # an endpoint painted over: a mistake the hint names
    return replace(puzzle, drawn=drawn)


def show_hints(play: Puzzle, every: bool, shown: Writer, time_limit: float | None, explain: bool = False) -> int:
    """Print the next hint (with `every`, the whole chain and its grade; with `explain`, a what if's
    chains step by step, which the JSON record always carries); the exit code of the first hint (of
    the last, with `every`)."""
    from cpflow.workflows.hints import Hint, chain, grade  # imported by this command alone (start-up time)

    given: list[Hint] = []
    for found in chain(play, time_limit):
        given.append(found)
        shown.hinted(found if explain else replace(found, explained=()), len(given) if every else None)
        if not every:
            break
    if every:
        shown.graded(grade(given))
    return EXIT.get(given[-1].status, 1)


@app.command()
def grade(
    files: Files,
    input_format: InputOption = AUTO,
    format: OutputOption = OUTPUT_AUTO,
    time_limit: TimeLimit = None,
    quiet: Quiet = False,
    jobs: Jobs = 1,
    keep_going: KeepGoing = False,
    cluster: Cluster = None,
) -> None:
    """Grade each puzzle by the hardest reasoning its hint chain needs, one line per puzzle.

    easy: the rules alone finish it; medium: what ifs of depth 1; hard: deeper what ifs;
    expert: a guess. A puzzle with more than one solution is not graded: not-unique. Exit 0 when
    every puzzle was graded, 1 when some has no solution or more than one, 3 when a time limit
    came first, 2 on bad input, 4 for a hint that fails its check (a bug).
    """
    with failures():
        shown = writer(format.value, quiet)
        show = partial(show_grades, shown=shown, where=where(jobs, cluster), time_limit=time_limit)
        raise typer.Exit(each_batch(files, input_format, False, False, None, keep_going, show))


def show_grades(entries: Sequence[Entry], shown: Writer, where, time_limit: float | None) -> int:
    """Grade each puzzle and print its line; 0 when all were graded (`failed_exit` first)."""
    from cpflow.workflows.batch import grade_all

    missing: list[Failed] = []
    ends = set()
    grades = with_progress("grading", grade_all([e.puzzle for e in entries], where, time_limit), len(entries))
    for entry, found in answered(entries, grades, missing):
        ends.add(found.end)
        shown.grade(entry, found)
    return failed_exit(missing) or min((EXIT.get(end, 1) for end in ends), default=0, key=SEVERITY.index)

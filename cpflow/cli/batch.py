"""The batch commands, `solve`, `unique` and `count`: every puzzle named, on a pool or a cluster if
asked, each answer printed by the writer of the output format as it comes.

Exit codes: 0 every answer as hoped (solved, unique, counted exactly); 1 some puzzle not
solved (unsolvable, or for `unique` not unique); 3 a time limit or `--limit` came first;
2 bad input; 4 a bug (a puzzle in verdict `error`). A puzzle left without an answer
outranks the answers' own code (`progress.failed_exit`).
"""

# No `from __future__ import annotations` here: typer reads each command's annotations as objects
# rather than compiling them from strings (start-up time).
from collections.abc import Sequence
from functools import partial
from typing import Annotated

import typer

from cpflow.cli.group import app, failures
from cpflow.cli.lines import stderr
from cpflow.cli.options import (
    AUTO,
    DEFAULT_ENGINE,
    OUTPUT_AUTO,
    AllowBlanks,
    AllowTouch,
    Cluster,
    ColourMode,
    ColourOption,
    CountFormat,
    EngineOption,
    Files,
    InputOption,
    Jobs,
    KeepGoing,
    OutputOption,
    Play,
    PngDir,
    Quiet,
    SvgDir,
    TimeLimit,
    Workers,
)
from cpflow.cli.progress import answered, failed_exit, summary_line, with_progress
from cpflow.cli.reading import each_batch, where
from cpflow.cli.writers import Pictures, Writer, writer
from cpflow.results import Status
from cpflow.workflows.inputs import Entry
from cpflow.workflows.items import Failed


@app.command()
def solve(
    files: Files,
    input_format: InputOption = AUTO,
    format: OutputOption = OUTPUT_AUTO,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    quiet: Quiet = False,
    engine: EngineOption = DEFAULT_ENGINE,
    jobs: Jobs = 1,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
    play: Play = None,
    color: ColourOption = ColourMode.auto,
    svg: SvgDir = None,
    png: PngDir = None,
    keep_going: KeepGoing = False,
    cluster: Cluster = None,
) -> None:
    """Solve puzzles and show each solution. Exit 0 if all solved, 1 if not, 2 on bad input."""
    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        shown, pictures = writer(format.value, quiet, color.value), Pictures(svg, png)
        pictures.ready(files)
        show = partial(show_solved, shown=shown, pictures=pictures, where=where(jobs, cluster), options=options)
        raise typer.Exit(each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


@app.command()
def unique(
    files: Files,
    input_format: InputOption = AUTO,
    format: OutputOption = OUTPUT_AUTO,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    quiet: Quiet = False,
    engine: EngineOption = DEFAULT_ENGINE,
    jobs: Jobs = 1,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
    play: Play = None,
    color: ColourOption = ColourMode.auto,
    svg: SvgDir = None,
    png: PngDir = None,
    keep_going: KeepGoing = False,
    cluster: Cluster = None,
) -> None:
    """Prove each puzzle has exactly one solution, or show two that differ.

    Two solutions are drawn side by side, the cells where they differ marked. Exit 0 if
    all are unique, 1 if some is not unique or unsolvable, 3 if some ran out of time
    (and none is known bad), 2 on bad input.
    """
    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        shown, pictures = writer(format.value, quiet, color.value), Pictures(svg, png)
        pictures.ready(files)
        show = partial(show_uniqueness, shown=shown, pictures=pictures, where=where(jobs, cluster), options=options)
        raise typer.Exit(each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


@app.command()
def count(
    files: Files,
    limit: Annotated[int, typer.Option(metavar="N", help="Stop counting at this many solutions.", min=1)] = 1000,
    input_format: InputOption = AUTO,
    format: Annotated[CountFormat, typer.Option("--format", "-f")] = CountFormat.text,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="One line per puzzle: file, count, exact or at-least, seconds.")
    ] = False,
    engine: EngineOption = DEFAULT_ENGINE,
    jobs: Jobs = 1,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
    play: Play = None,
    keep_going: KeepGoing = False,
    cluster: Cluster = None,
) -> None:
    """Count each puzzle's distinct solutions up to --limit.

    Exit 0 when every count is exact, 3 when the limit or time limit cut one short, 2 on bad input.
    """
    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        shown = writer(format.value, quiet)
        show = partial(show_counts, limit=limit, shown=shown, where=where(jobs, cluster), options=options)
        raise typer.Exit(each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


def show_solved(entries: Sequence[Entry], shown: Writer, pictures: Pictures, where, options: dict) -> int:
    """Solve each puzzle and print its answer; 0 if every one was solved, else 1 (`failed_exit` first).
    `where` (here, on a pool or a cluster; a batch.Where or a number of jobs) changes nothing printed."""
    from cpflow.workflows.batch import solve_all

    failed, statuses = False, []
    missing: list[Failed] = []
    explain = "solved" in shown.explains or bool(pictures.svg or pictures.png)  # a picture draws the why too
    results = solve_all([e.puzzle for e in entries], where, explain, **options)
    for entry, found in answered(entries, with_progress("solving", results, len(entries)), missing):
        result = found.answer
        failed |= result.status is not Status.SOLVED
        shown.solved(entry, result, found.reason)
        pictures.draw(entry, [result.solution] if result.solution else [], found.reason.cells if found.reason else ())
        statuses.append((result.status, result.seconds))
    if len(entries) > 1:
        stderr(summary_line(statuses, sum(f.bug for f in missing)))
    return failed_exit(missing) or (1 if failed else 0)


def show_uniqueness(entries: Sequence[Entry], shown: Writer, pictures: Pictures, where, options: dict) -> int:
    """Prove each puzzle unique or show two solutions; 0 all unique, 1 some not or unsolvable, 3 time-outs
    (`failed_exit` first)."""
    from cpflow.workflows.batch import uniqueness_all
    from cpflow.workflows.unique import Verdict

    verdicts = set()
    missing: list[Failed] = []
    proofs = uniqueness_all([e.puzzle for e in entries], where, "uniqueness" in shown.explains, **options)
    for entry, proof in answered(entries, with_progress("proving", proofs, len(entries)), missing):
        found = proof.answer
        verdicts.add(found.verdict)
        shown.uniqueness(entry, found, proof.reason)
        pictures.draw(entry, found.solutions, found.differences())
    bad = {Verdict.NOT_UNIQUE, Verdict.UNSOLVABLE}
    return failed_exit(missing) or (1 if verdicts & bad else 3 if Verdict.UNKNOWN in verdicts else 0)


def show_counts(entries: Sequence[Entry], limit: int, shown: Writer, where, options: dict) -> int:
    """Count each puzzle's solutions; 0 when every count is exact, else 3 (`failed_exit` first)."""
    from cpflow.workflows.batch import count_all

    exact = True
    missing: list[Failed] = []
    counts = with_progress("counting", count_all([e.puzzle for e in entries], limit, where, **options), len(entries))
    for entry, found in answered(entries, counts, missing):
        exact &= found.exact
        shown.counted(entry, found)
    return failed_exit(missing) or (0 if exact else 3)

"""The commands about engines: `compare` runs them side by side on the same puzzles, `export`
writes a puzzle's model for another solver, `engines` prints the catalog's table."""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cpflow import outputs
from cpflow.cli.group import app, failures
from cpflow.cli.lines import shown, stderr
from cpflow.cli.options import (
    AUTO,
    DEFAULT_ENGINE,
    EXPORT_HELP,
    AllowBlanks,
    AllowTouch,
    Cluster,
    CountFormat,
    EngineName,
    EngineOption,
    Files,
    InputOption,
    positive,
)
from cpflow.cli.progress import failed_exit, with_progress
from cpflow.cli.reading import load, where
from cpflow.errors import CpflowError, OutputError
from cpflow.workflows.compare import FIELDS, Run, summary
from cpflow.workflows.items import Failed

if TYPE_CHECKING:
    from rich.console import Group


@app.command()
def compare(
    files: Files,
    engines: Annotated[
        list[EngineName] | None,
        typer.Option(
            "--engine", "-e", metavar="ENGINE", help="An engine to run; repeat for several (default: all installed)."
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds per run before giving up.", callback=positive)
    ] = 120,
    repeat: Annotated[
        int, typer.Option(metavar="N", help="Runs per puzzle and engine; the median is shown.", min=1)
    ] = 1,
    csv: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the raw runs here as CSV.", dir_okay=False)
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", metavar="FILE", help="Write the raw runs here as JSON.", dir_okay=False)
    ] = None,
    alone: Annotated[
        bool,
        typer.Option(
            "--alone", help="Each engine's model alone, without the forced moves some run first (`cpflow engines`)."
        ),
    ] = False,
    input_format: InputOption = AUTO,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
    cluster: Cluster = None,
) -> None:
    """Run the engines side by side on the same puzzles, every solution verified.

    Exit 0 when every engine solved, or rightly proved unsolvable, every puzzle; 1
    otherwise (a time-out, or an engine calling unsolvable what another solved); 2 on
    bad input or an engine that is not installed.
    """
    from cpflow.engines.catalog import available

    with failures():
        names = [e.value for e in engines] if engines else available()
        entries, _ = load(files, input_format, allow_touch, allow_blanks)
        outputs.ready([csv, json_file], sorted({entry.source for entry in entries}))
        on = where(1, cluster)
        raise typer.Exit(show_comparison(entries, names, time_limit, repeat, csv, json_file, on, alone))


@app.command()
def export(
    file: Annotated[Path, typer.Argument(metavar="PUZZLE", help="The puzzle file.")],
    out: Annotated[
        Path,
        typer.Option(metavar="FILE", help=EXPORT_HELP, dir_okay=False),
    ],
    engine: EngineOption = DEFAULT_ENGINE,
    index: Annotated[
        int, typer.Option(metavar="N", help="Which puzzle of a file that holds several (from 1).", min=1)
    ] = 1,
    input_format: InputOption = AUTO,
) -> None:
    """Write a puzzle's model for another solver, in a format its engine writes (`cpflow engines`): an LP
    or MPS file (ilp-*), a CP-SAT model proto (cpsat*), ...

    Exit 0 when written, 2 on bad input, a bad --out suffix or a missing engine.
    """
    from cpflow.engines import catalog, pipeline
    from cpflow.workflows.inputs import numbered

    with failures():
        outputs.ready([out], [file])
        entries, _ = load([str(file)], input_format)
        entry = numbered(entries, index, str(file))
        catalog.backend(engine.value)
        try:
            pipeline.export(entry.puzzle, out, engine.value)
        except OutputError:
            raise
        except CpflowError as error:  # a suffix the engine does not write: said of the file
            raise OutputError(str(out), str(error)) from None


@app.command()
def engines(
    format: Annotated[
        CountFormat, typer.Option("--format", "-f", help="text, or json: a line each.")
    ] = CountFormat.text,
) -> None:
    """The engines: family, formulation, whether forced moves come first, how they count, what they
    support and write, and whether each is installed here (or how to install it).

    Exit 0.
    """
    raise typer.Exit(show_engines(format.value))


def show_comparison(
    entries, names, time_limit, repeat, csv_path: Path | None, json_path: Path | None, where=1, alone: bool = False
) -> int:
    """Run the engines side by side, print the table, write the raw runs; 0 when every run was right,
    else 1 (`failed_exit` first: some puzzle refused or in error, said on stderr). The run files land
    when the comparison ends, also when it is interrupted or fails (with the runs finished), unless
    they cannot be written (cpflow.outputs: then neither)."""
    from cpflow.workflows import compare as comparing

    comparing.check(names)
    runs: list[Run] = []
    failures: list[Failed] = []
    stopped: BaseException | None = None
    try:
        with outputs.together() as group:
            files = RunFiles(group, csv_path, json_path)
            try:
                found = comparing.compare(entries, names, time_limit, repeat, where, alone)
                for run in with_progress("comparing", found, len(entries) * len(names)):
                    if isinstance(run, Failed):
                        stderr(run.line)
                        failures.append(run)
                        continue
                    runs.append(run)
                    files.add(run)
            except BaseException as stop:  # an interrupt or a failure: what finished lands, then it goes on
                if isinstance(stop, OSError) and group.owns(stop):
                    raise  # a run file that cannot be written: neither lands
                stopped = stop
            files.end()
    finally:  # an interrupted comparison still shows the puzzles it finished
        # a terminal (or COLUMNS) sets the width; a file or pipe gets the whole table, unwrapped
        wide = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 200
        if runs:
            Console(highlight=False, width=wide).print(compare_table(runs, names))
    if stopped is not None:
        raise stopped
    return failed_exit(failures) or (0 if all(run.correct for run in runs) else 1)


def show_engines(fmt: str) -> int:
    """The table of engines (`cpflow engines`): what each is, supports and needs, and whether it is
    installed; 0."""
    from cpflow.board.grid import BOARD_KINDS
    from cpflow.engines.catalog import ENGINES, RULE_SETS

    found = [entry.record() for entry in ENGINES.values()]
    if fmt == "json":
        for record in found:
            print(json.dumps(record))
        return 0
    header = ("name", "family", "formulation", "front end", "counts", "workers", "supports", "writes", "installed")
    rows = [header]
    for r in found:
        missing = [f"--allow-{name}" for name in RULE_SETS if name not in r["rule_sets"]]
        missing += [kind for kind in BOARD_KINDS if kind not in r["kinds"]]
        rows.append(
            (
                r["name"],
                r["family"],
                r["formulation"],
                "yes" if r["front_end"] else "no",
                r["counts"],
                "yes" if r["workers"] else "one",
                "all" if not missing else "all but " + ", ".join(missing),
                " ".join(r["exports"]) or "-",
                "yes" if r["installed"] else f"no: {r['install']}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def compare_table(runs: Sequence[Run], names: Sequence[str]) -> Group:
    """A row per puzzle and contender (milliseconds, build + solve, and the ratio to the puzzle's
    fastest), then a row per contender (total, building, solving, median, worst): narrow enough for
    80 columns whatever the number of contenders."""
    from rich.console import Group
    from rich.table import Table

    table = Table(title="milliseconds per run, build + solve (x: times the fastest)")
    for title in ("puzzle", "size", "colours", "engine", "ms", "x", "status"):
        table.add_column(title, justify="right" if title in ("colours", "ms", "x") else "left", overflow="fold")
    for mine in _by_puzzle(runs).values():
        fastest, first = min(run.seconds for run in mine), mine[0]
        for k, run in enumerate(mine):
            about = (named(first.puzzle), f"{first.width}x{first.height}", str(first.colours)) if k == 0 else ("",) * 3
            ratio = f"{run.seconds / fastest if fastest else 1:.1f}"
            wrong = " (wrong)" * (run.status == "unsolvable")  # said in words too: colour is lost in a pipe
            said = run.status if run.correct else f"[red]{run.status}{wrong}[/]"
            table.add_row(*about, run.contender, milliseconds(run.seconds), ratio, said, end_section=k == len(mine) - 1)
    totals = Table(title="milliseconds per engine, all puzzles")
    for title in ("engine", "total", "building", "solving", "median", "worst", "on"):
        totals.add_column(title, justify="left" if title in ("engine", "on") else "right", overflow="fold")
    for name, t in summary(runs, names).items():
        spent = (t["total"], t["build"], t["total"] - t["build"], t["median"], t["worst"])
        totals.add_row(name, *map(milliseconds, spent), named(t["worst_puzzle"]))
    return Group(table, totals)


def milliseconds(seconds: float) -> str:
    """'0.4', '12.5', '1534': one decimal below 100 ms, whole milliseconds above."""
    ms = seconds * 1000
    return f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def named(puzzle: str) -> str:
    """A puzzle's name in the table: its control characters escaped and its brackets not read as markup."""
    from rich.markup import escape

    return escape(shown(puzzle))


def _by_puzzle(runs: Sequence[Run]) -> dict[tuple[str, int], list[Run]]:
    grouped: dict[tuple[str, int], list[Run]] = {}
    for run in runs:
        grouped.setdefault((run.file, run.index), []).append(run)
    return grouped


class RunFiles:
    """The raw runs as CSV and as a JSON list, written as they come into parts of a group of files
    (cpflow.outputs) that lands when the comparison ends: an interrupted comparison keeps every
    finished run in a file that reads."""

    def __init__(self, group: outputs.Group, csv_path: Path | None, json_path: Path | None):
        """Both parts made before the first run, so a bad path is told before the long work."""
        self.csv_part = group.open(csv_path) if csv_path else None
        self.json_part = group.open(json_path) if json_path else None
        self.rows = 0
        if self.csv_part:
            self.csv = csv.DictWriter(self.csv_part, fieldnames=FIELDS)
            self.csv.writeheader()
        if self.json_part:
            self.json_part.write("[")

    def add(self, run: Run) -> None:
        """One more run, written to disk at once."""
        if self.csv_part:
            self.csv.writerow(run.row())
        if self.json_part:
            self.json_part.write(("\n" if not self.rows else ",\n") + json.dumps(run.row()))
        self.rows += 1

    def end(self) -> None:
        """The JSON list closed."""
        if self.json_part:
            self.json_part.write("\n]\n")

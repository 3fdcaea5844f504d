"""The commands about engines: `compare` runs them side by side on the same puzzles, `export`
writes a puzzle's model for another solver, `engines` prints the catalog's table."""

from __future__ import annotations

import csv
import json
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
    from rich.table import Table


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
        wide = None if sys.stdout.isatty() else 200  # a file or pipe gets the whole table, unwrapped
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


def compare_table(runs: Sequence[Run], names: Sequence[str]) -> Table:
    """Puzzles down, contenders across: median seconds and the ratio to the puzzle's fastest; totals below."""
    from rich.table import Table

    table = Table(title="seconds per puzzle (build + solve; x: times the fastest)", show_footer=True)
    totals = summary(runs, names)
    footer = ["total\n  building\n  solving\nmedian\nworst", "", ""]
    for name in names:
        t = totals[name]
        split = f"{t['build']:.3f}\n{t['total'] - t['build']:.3f}"
        footer.append(f"{t['total']:.3f}\n{split}\n{t['median']:.3f}\n{t['worst']:.3f} ({named(t['worst_puzzle'])})")
    for title, foot in zip(["puzzle", "size", "colours", *names, "status"], [*footer, ""], strict=True):
        table.add_column(title, footer=foot, justify="left" if title in ("puzzle", "status") else "right")
    for mine in _by_puzzle(runs).values():
        fastest = min(run.seconds for run in mine)
        first = mine[0]
        cells = [f"{run.seconds:.3f} x{run.seconds / fastest if fastest else 1:.1f}" for run in mine]
        cells = [c if run.correct else f"[red]{c} {run.status}[/]" for c, run in zip(cells, mine, strict=True)]
        statuses = {run.status for run in mine}
        status = statuses.pop() if len(statuses) == 1 else "disagree: " + ", ".join(r.status for r in mine)
        table.add_row(named(first.puzzle), f"{first.width}x{first.height}", str(first.colours), *cells, status)
    return table


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

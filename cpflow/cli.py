"""The `cpflow` command: each subcommand parses its options, calls the library, prints, exits.

Exit codes: 0 every puzzle solved; 1 some puzzle unsolvable or out of time;
2 bad input or usage; 4 an engine returned an invalid solution (a bug).
"""

from __future__ import annotations

import enum
import json
import sys
from typing import Annotated

import typer
from rich.console import Console

from cpflow.errors import InvalidSolution, PuzzleFormatError
from cpflow.result import Status

app = typer.Typer(
    help="Solve Flow Free / Numberlink puzzles with OR-Tools CP-SAT.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def cpflow() -> None:
    """Solve Flow Free / Numberlink puzzles with OR-Tools CP-SAT."""


class InputFormat(enum.StrEnum):
    auto = "auto"
    classic = "classic"
    zero = "zero"
    header = "header"


class OutputFormat(enum.StrEnum):
    auto = "auto"
    terminal = "terminal"
    text = "text"
    json = "json"


class Model(enum.StrEnum):
    label = "label"
    circuit = "circuit"


Files = Annotated[list[str], typer.Argument(help="Puzzle files, globs or directories (their *.txt files).")]
InputOption = Annotated[InputFormat, typer.Option("--input-format", "-i", help="Puzzle file format.")]
OutputOption = Annotated[OutputFormat, typer.Option("--format", "-f", help="auto: terminal on a TTY, else text.")]
ModelOption = Annotated[Model, typer.Option(help="CP-SAT formulation (see models/).")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Puzzles solved at once, on separate processes.", min=1)]
TimeLimit = Annotated[float | None, typer.Option(help="Seconds per puzzle before giving up.", min=0)]
Workers = Annotated[int | None, typer.Option(help="CP-SAT worker threads per puzzle (default 1).", min=1)]


@app.command()
def solve(
    files: Files,
    input_format: InputOption = InputFormat.auto,
    format: OutputOption = OutputFormat.auto,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="One line per puzzle: file, status, seconds.")] = False,
    model: ModelOption = Model.label,
    jobs: Jobs = 1,
) -> None:
    """Solve puzzles and show each solution. Exit 0 if all solved, 1 if not, 2 on bad input."""
    from cpflow.batch import solve_all
    from cpflow.formats import rows
    from cpflow.render import as_json, terminal

    entries = _load(files, input_format)
    console = Console(highlight=False)
    shown = format.value if format is not OutputFormat.auto else ("terminal" if console.is_terminal else "text")
    failed = False
    options = {"time_limit": time_limit, "workers": workers, "model": model.value}
    results = solve_all([entry.puzzle for entry in entries], jobs, **options)
    for entry in entries:
        result = _checked(next, results)
        failed |= result.status is not Status.SOLVED
        name = entry.puzzle.name
        if quiet:
            print(f"{name} {result.status.value} {result.seconds:.3f}")
        elif shown == "json":
            print(json.dumps(as_json(entry.source, entry.index, entry.puzzle, result)))
        else:
            print(f"{name}: {result.status.value} in {result.seconds:.3f} s")
            if result.solution and shown == "terminal":
                console.print(terminal(entry.puzzle, result.solution), end="")
            elif result.solution:
                print("\n".join(rows(entry.puzzle, result.solution)))
    raise typer.Exit(1 if failed else 0)


def _load(files: list[str], input_format: InputFormat):
    from cpflow.inputs import load_all

    try:
        return load_all(files, input_format.value)
    except PuzzleFormatError as error:
        print(error, file=sys.stderr)
        raise typer.Exit(2) from None


def _checked(work, *args, **kwargs):
    """The work's result; an engine's invalid solution is reported as the bug it is (exit 4)."""
    try:
        return work(*args, **kwargs)
    except InvalidSolution as error:
        print(f"internal error: {error}", file=sys.stderr)
        raise typer.Exit(4) from None


def main() -> None:
    app()

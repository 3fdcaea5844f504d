"""The options commands share, as typed arguments (typer reads and checks them), and their choices,
some read from the library's tables (input formats, engines, board shapes, grades) and the writers'
(output formats)."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from cpflow.board.formats import INPUT_FORMATS
from cpflow.board.grid import SHAPES
from cpflow.cli.writers import OUTPUT_WRITERS
from cpflow.deduce.rulebook import GRADES
from cpflow.engines.catalog import DEFAULT, ENGINES

# Choices read from the library's tables, which mypy cannot see through: typer needs them as enums.
InputFormat = enum.StrEnum("InputFormat", {name: name for name in INPUT_FORMATS})  # type: ignore[misc]
EngineName = enum.StrEnum("EngineName", {name: name for name in ENGINES})  # type: ignore[misc]
Shape = enum.StrEnum("Shape", {name: name for name in SHAPES})  # type: ignore[misc]
GradeName = enum.StrEnum("GradeName", {name: name for name in GRADES})  # type: ignore[misc]
OutputFormat = enum.StrEnum("OutputFormat", {name: name for name in ("auto", *OUTPUT_WRITERS)})  # type: ignore[misc]


class ColourMode(enum.StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class CountFormat(enum.StrEnum):
    text = "text"
    json = "json"


ENGINE_HELP = "; ".join(f"{name}: {entry.summary}" for name, entry in ENGINES.items()) + " (see `cpflow engines`)"
_WRITERS: dict[tuple[str, ...], list[str]] = {}
for _name, _entry in ENGINES.items():
    _WRITERS.setdefault(_entry.exports, []).append(_name)
EXPORT_HELP = "Where to write: " + "; ".join(
    f"{', '.join(suffixes)} ({', '.join(names)})" for suffixes, names in _WRITERS.items() if suffixes
)
Files = Annotated[
    list[str],
    typer.Argument(
        metavar="FILE...",
        help="Puzzle files, globs or directories (their *.txt and *.level files); - for standard input.",
    ),
]
InputOption = Annotated[InputFormat, typer.Option("--input-format", "-i", help="Puzzle file format.")]
OutputOption = Annotated[
    OutputFormat,
    typer.Option("--format", "-f", help="auto: terminal on a TTY, else text; header: the Go solver's `W H` stream."),
]
EngineOption = Annotated[EngineName, typer.Option("--engine", "-e", help=ENGINE_HELP)]
Jobs = Annotated[
    int, typer.Option("--jobs", "-j", metavar="N", help="Puzzles solved at once, on separate processes.", min=1)
]
Cluster = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Run the batch on the Dask scheduler at this address (tcp://host:8786), or on local:N worker "
        "processes started here. Needs the dask extra (pip install 'cpflow[dask]').",
    ),
]


def positive(value: float | None) -> float | None:
    """A time limit is more than 0 seconds (0 would give up before starting)."""
    if value is not None and not value > 0:
        raise typer.BadParameter("must be more than 0 seconds")
    return value


TimeLimit = Annotated[
    float | None, typer.Option(metavar="SECONDS", help="Seconds per puzzle before giving up.", callback=positive)
]
Workers = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        help="CP-SAT workers per puzzle, racing in threads from different corners of the board (default 1).",
        min=1,
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="One line per puzzle: file, verdict, seconds.")]
AllowTouch = Annotated[
    bool, typer.Option("--allow-touch", help="Paths may run beside themselves (the Numberlink reading).")
]
AllowBlanks = Annotated[
    bool, typer.Option("--allow-blanks", help="Cells may stay empty (the original Numberlink rule).")
]
Play = Annotated[
    Path | None,
    typer.Option(
        "--play",
        "--hint",
        metavar="FILE",
        help="The board as drawn so far (one puzzle): its coloured cells keep their colours (--hint: the old name).",
    ),
]
ColourOption = Annotated[
    ColourMode, typer.Option("--color", help="Colour in the terminal: auto (also honours NO_COLOR), always, never.")
]
SvgDir = Annotated[
    Path | None,
    typer.Option("--svg", metavar="DIR", help="Also draw each board as SVG into this folder.", file_okay=False),
]
PngDir = Annotated[
    Path | None,
    typer.Option("--png", metavar="DIR", help="Also draw each board as PNG into this folder.", file_okay=False),
]
KeepGoing = Annotated[
    bool, typer.Option("--keep-going", "-k", help="Report every bad file (exit 2 at the end) and do the rest.")
]
DEFAULT_ENGINE = EngineName(DEFAULT)
AUTO = InputFormat("auto")
OUTPUT_AUTO = OutputFormat("auto")
SQUARE = Shape("square")

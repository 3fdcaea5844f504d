"""The `cpflow` command: each subcommand parses its options, calls the library, prints, exits.

Exit codes (README lists them per command): 2 is always bad input or usage, 4 an
engine that returned an invalid solution (a bug); 0, 1 and 3 are each command's own.
"""

from __future__ import annotations

import enum
import json
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from cpflow.errors import CpflowError, EngineUnavailable, GenerationFailed, InvalidSolution, PuzzleFormatError
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
    header = "header"


class Model(enum.StrEnum):
    label = "label"
    circuit = "circuit"


class Engine(enum.StrEnum):
    cpsat = "cpsat"
    ilp = "ilp"


class MipSolver(enum.StrEnum):
    cbc = "cbc"
    highs = "highs"


class CountFormat(enum.StrEnum):
    text = "text"
    json = "json"


Files = Annotated[list[str], typer.Argument(help="Puzzle files, globs or directories (their *.txt files).")]
InputOption = Annotated[InputFormat, typer.Option("--input-format", "-i", help="Puzzle file format.")]
OutputOption = Annotated[
    OutputFormat,
    typer.Option("--format", "-f", help="auto: terminal on a TTY, else text; header: the Go solver's `W H` stream."),
]
EngineOption = Annotated[Engine, typer.Option(help="cpsat (OR-Tools CP-SAT) or ilp (integer program in PuLP).")]
ModelOption = Annotated[Model | None, typer.Option(help="CP-SAT formulation (default label; see models/).")]
MipOption = Annotated[MipSolver | None, typer.Option(help="The ilp engine's MIP solver (default cbc, bundled).")]
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
    engine: EngineOption = Engine.cpsat,
    model: ModelOption = None,
    mip_solver: MipOption = None,
    jobs: Jobs = 1,
) -> None:
    """Solve puzzles and show each solution. Exit 0 if all solved, 1 if not, 2 on bad input."""
    from cpflow.batch import solve_all
    from cpflow.formats import rows
    from cpflow.render import as_json, as_stream, terminal

    entries = _load(files, input_format)
    console = Console(highlight=False)
    shown = format.value if format is not OutputFormat.auto else ("terminal" if console.is_terminal else "text")
    failed = False
    options = {"time_limit": time_limit, "workers": workers, **_engine(engine, model, mip_solver)}
    results = solve_all([entry.puzzle for entry in entries], jobs, **options)
    for entry in entries:
        result = _checked(next, results)
        failed |= result.status is not Status.SOLVED
        name = entry.puzzle.name
        if quiet:
            print(f"{name} {result.status.value} {result.seconds:.3f}")
        elif shown == "json":
            print(json.dumps(as_json(entry.source, entry.index, entry.puzzle, result)))
        elif shown == "header":
            print(as_stream(entry.puzzle, result))
        else:
            print(f"{name}: {result.status.value} in {result.seconds:.3f} s")
            if result.solution and shown == "terminal":
                console.print(terminal(entry.puzzle, result.solution), end="")
            elif result.solution:
                print("\n".join(rows(entry.puzzle, result.solution)))
    raise typer.Exit(1 if failed else 0)


@app.command()
def unique(
    files: Files,
    input_format: InputOption = InputFormat.auto,
    format: OutputOption = OutputFormat.auto,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="One line per puzzle: file, verdict, seconds.")] = False,
    engine: EngineOption = Engine.cpsat,
    model: ModelOption = None,
    mip_solver: MipOption = None,
) -> None:
    """Prove each puzzle has exactly one solution, or show two that differ.

    Exit 0 if all are unique, 1 if some is not unique or unsolvable, 3 if some ran out
    of time (and none is known bad), 2 on bad input.
    """
    from cpflow.formats import rows
    from cpflow.render import differences_grid, terminal, uniqueness_json
    from cpflow.unique import Verdict, uniqueness

    options = _engine(engine, model, mip_solver)
    entries = _load(files, input_format)
    console = Console(highlight=False)
    shown = format.value if format is not OutputFormat.auto else ("terminal" if console.is_terminal else "text")
    verdicts = set()
    for entry in entries:
        found = _checked(uniqueness, entry.puzzle, time_limit=time_limit, workers=workers, **options)
        verdicts.add(found.verdict)
        if quiet:
            print(f"{entry.puzzle.name} {found.verdict.value.replace(' ', '-')} {found.seconds:.3f}")
        elif shown == "json":
            print(json.dumps(uniqueness_json(entry.source, entry.index, entry.puzzle, found)))
        else:
            print(f"{entry.puzzle.name}: {found.verdict.value} in {found.seconds:.3f} s")
            differ = found.differences()
            for number, solution in enumerate(found.solutions, 1):
                if len(found.solutions) > 1:
                    print(f"solution {number}:")
                if shown == "terminal":
                    console.print(terminal(entry.puzzle, solution, differ), end="")
                else:
                    print("\n".join(rows(entry.puzzle, solution)))
            if differ and shown == "text":
                print("differences:\n" + "\n".join(differences_grid(entry.puzzle, differ)))
    bad = {Verdict.NOT_UNIQUE, Verdict.UNSOLVABLE}
    raise typer.Exit(1 if verdicts & bad else 3 if Verdict.UNKNOWN in verdicts else 0)


@app.command()
def count(
    files: Files,
    limit: Annotated[int, typer.Option(help="Stop counting at this many solutions.", min=1)] = 1000,
    input_format: InputOption = InputFormat.auto,
    format: Annotated[CountFormat, typer.Option("--format", "-f")] = CountFormat.text,
    time_limit: TimeLimit = None,
    engine: EngineOption = Engine.cpsat,
    model: ModelOption = None,
    mip_solver: MipOption = None,
) -> None:
    """Count each puzzle's distinct solutions up to --limit.

    Exit 0 when every count is exact, 3 when the limit or time limit cut one short, 2 on bad input.
    """
    from cpflow.unique import count as count_solutions

    options = _engine(engine, model, mip_solver)
    entries = _load(files, input_format)
    exact = True
    for entry in entries:
        found = _checked(count_solutions, entry.puzzle, limit, time_limit=time_limit, **options)
        exact &= found.exact
        if format is CountFormat.json:
            record = {"file": entry.source, "index": entry.index, "count": found.number, "exact": found.exact}
            print(json.dumps({**record, "seconds": round(found.seconds, 6)}))
        else:
            how = "exactly" if found.exact else "at least"
            print(f"{entry.puzzle.name}: {how} {found.number} solution{'s' * (found.number != 1)}")
    raise typer.Exit(0 if exact else 3)


@app.command()
def compare(
    files: Files,
    contender: Annotated[
        list[str] | None,
        typer.Option(
            "--engine", "-e", help="cpsat, ilp-cbc or ilp-highs; repeat for several (default: all installed)."
        ),
    ] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per run before giving up.", min=0)] = 120,
    repeat: Annotated[int, typer.Option(help="Runs per puzzle and engine; the median is shown.", min=1)] = 1,
    csv: Annotated[Path | None, typer.Option(help="Write the raw runs here as CSV.", dir_okay=False)] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the raw runs here as JSON.", dir_okay=False)
    ] = None,
    input_format: InputOption = InputFormat.auto,
) -> None:
    """Run CP-SAT and the ILP (CBC, HiGHS) side by side on the same puzzles, every solution verified.

    Exit 0 when every engine solved, or rightly proved unsolvable, every puzzle; 1
    otherwise (a time-out, or an engine calling unsolvable what another solved); 2 on
    bad input or an engine that is not installed.
    """
    from cpflow import compare as comparing
    from cpflow.render import compare_table, write_csv, write_json

    names = contender or comparing.available()
    _checked(comparing.check, names)
    entries = _load(files, input_format)
    for path in (p for p in (csv, json_file) if p and not p.parent.is_dir()):
        print(f"{path}: no directory {path.parent} to write into", file=sys.stderr)  # before the long run, not after
        raise typer.Exit(2)
    runs = []
    with Progress(*Progress.get_default_columns(), console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("comparing", total=len(entries) * len(names))
        for run in _checked(comparing.compare, entries, names, time_limit, repeat):
            runs.append(run)
            progress.advance(task)
    wide = None if sys.stdout.isatty() else 200  # a file or pipe gets the whole table, unwrapped
    Console(highlight=False, width=wide).print(compare_table(runs, names))
    for path, write in ((csv, write_csv), (json_file, write_json)):
        if path:
            write(runs, path)
    raise typer.Exit(0 if all(run.correct for run in runs) else 1)


@app.command()
def export(
    file: Annotated[Path, typer.Argument(help="The puzzle file.")],
    out: Annotated[
        Path, typer.Option(help="Where to write: .lp or .mps (ilp), .pb.txt or .pb (cpsat).", dir_okay=False)
    ],
    engine: EngineOption = Engine.cpsat,
    model: ModelOption = None,
    index: Annotated[int, typer.Option(help="Which puzzle of a file that holds several (from 1).", min=1)] = 1,
    input_format: InputOption = InputFormat.auto,
) -> None:
    """Write a puzzle's model for another solver: an LP or MPS file (ilp) or a CP-SAT model proto (cpsat).

    Exit 0 when written, 2 on bad input, a bad --out suffix or a missing engine.
    """
    from cpflow.engines import module

    entries = _load([str(file)], input_format)
    if index > len(entries):
        print(f"{file}:1:1: holds {len(entries)} puzzle(s), no puzzle {index}", file=sys.stderr)
        raise typer.Exit(2)
    _engine(engine, model, None)  # refuses --model with --engine ilp
    options = {"model": (model or Model.label).value} if engine is Engine.cpsat else {}
    try:
        _checked(module, engine.value).export(entries[index - 1].puzzle, out, **options)
    except (CpflowError, OSError) as error:
        print(f"{out}: {error}", file=sys.stderr)
        raise typer.Exit(2) from None


@app.command()
def generate(
    size: Annotated[str, typer.Option(help="Board size WIDTHxHEIGHT, e.g. 7x7 or 12x8.")] = "7x7",
    colours: Annotated[
        str | None, typer.Option(help="Colours: K, or a range K-L (default: from the board size; see README).")
    ] = None,
    count: Annotated[int, typer.Option(help="How many puzzles to make.", min=1)] = 1,
    seed: Annotated[int | None, typer.Option(help="Random seed: the same seed makes the same puzzles.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write NAME.txt and NAME.solution.txt here.", file_okay=False)
    ] = None,
    prefix: Annotated[str, typer.Option(help="File names are PREFIX_WxH_NN.")] = "gen",
    force: Annotated[bool, typer.Option(help="Overwrite files that already exist in --out.")] = False,
    time_limit: Annotated[
        float, typer.Option(help="Seconds per uniqueness proof before a board is dropped.", min=0)
    ] = 60,
) -> None:
    """Make puzzles with a proven unique solution, and write each with that solution beside it.

    Without --out, prints each puzzle and its solution. Exit 0 when all --count puzzles
    were made, 1 when the generator gave up (too few colours for the board, say), 2 on
    bad usage or when --out holds a file it would overwrite.
    """
    from cpflow.generate import colour_range, default_colours, files, generate_many, name, size_of

    width, height = _option("--size", size_of, size)
    wanted = _option("--colours", colour_range, colours, width * height) if colours else default_colours(width, height)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    stems = [name(width, height, number, prefix) for number in range(1, count + 1)]
    taken = [file for stem in stems for file in files(out, stem) if file.exists()] if out and not force else []
    if taken:
        print(
            f"{taken[0]}:1:1: file exists; use --force to overwrite it or --prefix to choose other names",
            file=sys.stderr,
        )
        raise typer.Exit(2)
    made = generate_many(width, height, wanted, count, seed, time_limit)
    with Progress(*Progress.get_default_columns(), console=Console(stderr=True), disable=not out) as progress:
        task = progress.add_task(f"{width}x{height}", total=count)
        for stem in stems:
            _show_generated(stem, _checked(next, made), out)
            progress.advance(task)
    print(f"made {count} unique {width}x{height} puzzle{'s' * (count != 1)}, seed {seed}", file=sys.stderr)


def _show_generated(stem: str, made, out: Path | None) -> None:
    from cpflow.formats import picture
    from cpflow.generate import save

    if out:
        out.mkdir(parents=True, exist_ok=True)
        save(made, out, stem)
    else:
        print(f"{stem}: {len(made.puzzle.colours)} colours, proven unique in {made.seconds:.3f} s")
        print(f"{picture(made.puzzle)}\n{picture(made.puzzle, made.solution)}")


def _engine(engine: Engine, model: Model | None, mip_solver: MipSolver | None) -> dict:
    """The engine and its own options; an option of the other engine is a usage error."""
    if engine is Engine.cpsat and mip_solver:
        raise typer.BadParameter("applies to --engine ilp only", param_hint="--mip-solver")
    if engine is Engine.ilp and model:
        raise typer.BadParameter("applies to --engine cpsat only", param_hint="--model")
    if engine is Engine.cpsat:
        return {"engine": "cpsat", "model": (model or Model.label).value}
    return {"engine": "ilp", "mip_solver": (mip_solver or MipSolver.cbc).value}


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
    except GenerationFailed as error:
        print(f"cpflow: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    except EngineUnavailable as error:
        print(f"cpflow: {error}", file=sys.stderr)
        raise typer.Exit(2) from None


def _option(hint: str, read, *args):
    """What a library reader makes of an option's text; its ValueError becomes a usage error (exit 2)."""
    try:
        return read(*args)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=hint) from None


def main() -> None:
    app()

"""The `cpflow` command: each subcommand is a signature, a docstring and one call.

Exit codes (README lists them per command) are mapped here, in `failures`: 2 is
always bad input or usage (or a board whose model would not fit in free memory), 4 an
engine that returned an invalid solution (a bug), 1 a generator that gave up, 130 an
interrupt (Ctrl-C); 0, 1 and 3 are otherwise each command's own verdict.
"""

from __future__ import annotations

import enum
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from typer._click import exceptions as click  # typer 0.26 (pinned) carries its own click
from typer.completion import completion_init
from typer.core import TyperGroup

from cpflow.board.errors import (
    ClusterUnavailable,
    CpflowError,
    EngineUnavailable,
    GenerationFailed,
    InvalidSolution,
    ModelTooLarge,
    PuzzleFormatError,
    RulesUnsupported,
)
from cpflow.board.formats import FORMATS
from cpflow.board.grid import SHAPES
from cpflow.engines.registry import DEFAULT, ENGINES


class OneLineErrors(TyperGroup):
    """The command group, whose usage errors are one line on stderr, as bad input is
    (`cpflow solve: --time-limit: must be more than 0`), exit 2, instead of click's box."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.NoArgsIsHelpError as error:
            error.show()  # `cpflow` alone: the help
            sys.exit(2)
        except click.UsageError as error:
            print(usage_line(error), file=sys.stderr)
            sys.exit(2)
        except click.ClickException as error:
            print(f"cpflow: {error.format_message()}", file=sys.stderr)
            sys.exit(error.exit_code)
        except click.Abort:
            print("cpflow: interrupted", file=sys.stderr)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def usage_line(error: click.UsageError) -> str:
    """A usage error in one line: the command, the option or argument, what is wrong, where to read more."""
    names, ctx = [], error.ctx
    while ctx is not None:
        names.append(ctx.info_name if ctx.parent is not None else "cpflow")
        ctx = ctx.parent
    command = " ".join(reversed(names)) or "cpflow"
    message = " ".join(error.format_message().split()).rstrip(".")
    if isinstance(error, click.BadParameter) and not isinstance(error, click.MissingParameter):
        if error.param is not None:
            hint = (
                error.param.opts[0] if error.param.param_type_name == "option" else error.param.make_metavar(error.ctx)
            )
        else:
            hint = error.param_hint if isinstance(error.param_hint, str) else "/".join(error.param_hint or ())
        message = f"{hint}: {' '.join(error.message.split()).rstrip('.')}" if hint else message
    else:
        message = message[:1].lower() + message[1:]
    return f"{command}: {message} (see '{command} -h')"


app = typer.Typer(
    cls=OneLineErrors,
    rich_markup_mode="markdown",
    help="Solve Flow Free / Numberlink puzzles of every kind with OR-Tools CP-SAT.",
    no_args_is_help=True,
    add_completion=False,  # ours below: typer's guessed the shell from the parent process and ignored the one named
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

InputFormat = enum.StrEnum("InputFormat", {name: name for name in FORMATS})
EngineName = enum.StrEnum("EngineName", {name: name for name in ENGINES})
Shape = enum.StrEnum("Shape", {name: name for name in SHAPES})


class OutputFormat(enum.StrEnum):
    auto = "auto"
    terminal = "terminal"
    text = "text"
    json = "json"
    header = "header"


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


def _positive(value: float | None) -> float | None:
    """A time limit is more than 0 seconds (0 would give up before starting)."""
    if value is not None and not value > 0:
        raise typer.BadParameter("must be more than 0 seconds")
    return value


TimeLimit = Annotated[
    float | None, typer.Option(metavar="SECONDS", help="Seconds per puzzle before giving up.", callback=_positive)
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


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        print(f"cpflow {version('cpflow')}")
        raise typer.Exit(0)


class ShellName(enum.StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"
    powershell = "powershell"
    pwsh = "pwsh"


COMPLETE_VAR = "_CPFLOW_COMPLETE"  # the variable the shell's completion script sets when it asks cpflow
completion_init()  # typer answers those questions (add_completion=False left it out)


def _show_completion(shell: ShellName | None) -> None:
    if shell is not None:
        from typer.completion import get_completion_script

        print(get_completion_script(prog_name="cpflow", complete_var=COMPLETE_VAR, shell=shell.value))
        raise typer.Exit(0)


def _install_completion(shell: ShellName | None) -> None:
    if shell is not None:
        from typer.completion import install

        _, path = install(shell=shell.value, prog_name="cpflow", complete_var=COMPLETE_VAR)
        print(f"{shell.value} completion installed in {path}; it works in shells started from now on")
        raise typer.Exit(0)


@app.callback()
def cpflow(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    show_completion: Annotated[
        ShellName | None,
        typer.Option(
            metavar="SHELL",
            callback=_show_completion,
            is_eager=True,
            help="Print the tab completion script for SHELL (bash, zsh, fish, powershell, pwsh) and exit.",
        ),
    ] = None,
    install_completion: Annotated[
        ShellName | None,
        typer.Option(
            metavar="SHELL",
            callback=_install_completion,
            is_eager=True,
            help="Install tab completion of commands and options for SHELL and exit.",
        ),
    ] = None,
) -> None:
    """Solve Flow Free / Numberlink puzzles of every kind with OR-Tools CP-SAT."""


@app.command()
def solve(
    files: Files,
    input_format: InputOption = AUTO,
    format: OutputOption = OutputFormat.auto,
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
    from cpflow import reports

    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        looks, where = reports.Looks(color.value, svg, png), _where(jobs, cluster)
        show = lambda entries: reports.show_solved(entries, format.value, quiet, where, options, looks)  # noqa: E731
        raise typer.Exit(_each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


@app.command()
def unique(
    files: Files,
    input_format: InputOption = AUTO,
    format: OutputOption = OutputFormat.auto,
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
    from cpflow import reports

    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        looks, where = reports.Looks(color.value, svg, png), _where(jobs, cluster)
        show = lambda entries: reports.show_uniqueness(entries, format.value, quiet, where, options, looks)  # noqa: E731
        raise typer.Exit(_each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


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
    from cpflow import reports

    with failures():
        options = {"engine": engine.value, "time_limit": time_limit, "workers": workers}
        where = _where(jobs, cluster)
        show = lambda entries: reports.show_counts(entries, limit, format.value, quiet, where, options)  # noqa: E731
        raise typer.Exit(_each_batch(files, input_format, allow_touch, allow_blanks, play, keep_going, show))


@app.command()
def verify(
    file: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE", help="The puzzle file (a level file carries its own solutions); - for standard input."
        ),
    ],
    solution: Annotated[
        str | None,
        typer.Argument(
            metavar="[SOLUTION]",
            help="The solutions: coloured grids, JSON, or level lines, one per puzzle of PUZZLE in order "
            "(or one for all); - for standard input.",
        ),
    ] = None,
    input_format: InputOption = AUTO,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
) -> None:
    """Check solutions against their puzzles and the rules, and say what is wrong: the first rule
    broken and where (`3:5: path B touches itself`: row 3, column 5), then the others.

    Without SOLUTION, checks the solutions the puzzle file carries (level lines, JSON
    paths). Exit 0 when every solution is right, 1 when one breaks a rule, 2 on bad input.
    """
    from cpflow import reports
    from cpflow.board.grid import Rules

    with failures():
        rules = Rules(touch=allow_touch, blanks=allow_blanks)
        raise typer.Exit(reports.show_verified(file, solution, input_format.value, rules))


@app.command()
def render(
    file: Annotated[str, typer.Argument(metavar="PUZZLE", help="The puzzle file; - for standard input.")],
    out: Annotated[
        Path, typer.Option(metavar="FILE", help="The picture: .svg, .png, or .gif (an animation).", dir_okay=False)
    ],
    solution: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Draw this solution of the puzzle.", dir_okay=False)
    ] = None,
    solve: Annotated[bool, typer.Option("--solve", help="Solve the puzzle and draw the solution.")] = False,
    engine: EngineOption = DEFAULT_ENGINE,
    labels: Annotated[bool, typer.Option(help="Write each colour's name on its endpoints.")] = False,
    animate: Annotated[bool, typer.Option(help="In an .svg, draw the paths in one after another.")] = False,
    index: Annotated[
        int, typer.Option(metavar="N", help="Which puzzle of a file that holds several (from 1).", min=1)
    ] = 1,
    input_format: InputOption = AUTO,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
) -> None:
    """Draw a board as the game shows it, as SVG, PNG or an animated GIF, solved or not.

    A level file carries its solution: without --solution or --solve it is drawn. A .gif
    shows the paths drawn step by step, or with an ilp-* engine one frame per round of
    loop cuts. Exit 0 when drawn, 1 when there is no solution to draw, 2 on bad input or
    a bad --out.
    """
    from dataclasses import replace

    from cpflow import reports
    from cpflow.board.formats import parse_with_solutions
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import text_of

    with failures():
        text, source = text_of(file)
        found = parse_with_solutions(text, source, input_format.value)
        if index > len(found):
            raise PuzzleFormatError.whole(source, f"holds {len(found)} puzzle(s), no puzzle {index}")
        puzzle, carried = found[index - 1]
        puzzle = replace(puzzle, rules=Rules(touch=allow_touch, blanks=allow_blanks))
        entry = reports.Entry(source, index, puzzle)
        drawn = reports.show_rendered(
            entry, out, solution, solve, engine.value, carried, labels=labels, animate=animate
        )
        raise typer.Exit(drawn)


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
    format: OutputOption = OutputFormat.auto,
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
    for a step or a solved play, 1 for a mistake or a puzzle with no solution, 3 when the
    time limit came first, 2 on bad input, 4 for a hint that fails its check (a bug).
    """
    from cpflow.hints import read_play, show_hints
    from cpflow.reports import Looks

    with failures():
        board = read_play(file, index, input_format.value, play)
        raise typer.Exit(show_hints(board, every, format.value, time_limit, Looks(color.value)))


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
        float, typer.Option(metavar="SECONDS", help="Seconds per run before giving up.", callback=_positive)
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
    from cpflow import reports
    from cpflow.engines.registry import available

    with failures():
        names = [e.value for e in engines] if engines else available()
        entries, _ = _load(files, input_format, allow_touch, allow_blanks)
        where = _where(1, cluster)
        raise typer.Exit(reports.show_comparison(entries, names, time_limit, repeat, csv, json_file, where))


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
    from cpflow.engines import registry

    with failures():
        entries, _ = _load([str(file)], input_format)
        if index > len(entries):
            raise PuzzleFormatError.whole(str(file), f"holds {len(entries)} puzzle(s), no puzzle {index}")
        registry.backend(engine.value)
        try:
            registry.export(entries[index - 1].puzzle, out, engine.value)
        except (CpflowError, OSError) as error:
            print(f"{out}: {error}", file=sys.stderr)
            raise typer.Exit(2) from None


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
    from cpflow.reports import show_engines

    raise typer.Exit(show_engines(format.value))


@app.command()
def generate(
    size: Annotated[str, typer.Option(metavar="WxH", help="Board size WIDTHxHEIGHT, e.g. 7x7 or 12x8.")] = "7x7",
    colours: Annotated[
        str | None,
        typer.Option(
            metavar="K[-L]",
            help="Colours: K, or a range K-L (default: 0.8 to 1.2 times the square root of the cell count, "
            "or up to one colour per 11 cells on big boards).",
        ),
    ] = None,
    count: Annotated[int, typer.Option(metavar="N", help="How many puzzles to make.", min=1)] = 1,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Random seed: the same seed makes the same puzzles.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Write NAME.txt and NAME.solution.txt here.", file_okay=False)
    ] = None,
    prefix: Annotated[str, typer.Option(metavar="NAME", help="File names are PREFIX_WxH_NN.")] = "gen",
    force: Annotated[bool, typer.Option(help="Overwrite files that already exist in --out.")] = False,
    time_limit: Annotated[
        float,
        typer.Option(
            metavar="SECONDS", help="Seconds per uniqueness proof before a board is dropped.", callback=_positive
        ),
    ] = 60,
    shape: Annotated[Shape, typer.Option(help="square, or hex (hexagonal cells).")] = Shape.square,
    holes: Annotated[int, typer.Option(metavar="N", help="Cells taken out of each board at random.", min=0)] = 0,
    walls: Annotated[
        int, typer.Option(metavar="N", help="Walls put between cells of each board at random.", min=0)
    ] = 0,
    svg: SvgDir = None,
    png: PngDir = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="N", help="Puzzles made at once, on separate processes.", min=1)
    ] = 1,
    cluster: Cluster = None,
) -> None:
    """Make puzzles with a proven unique solution, and write each with that solution beside it.

    Without --out, prints each puzzle and its solution. Exit 0 when all --count puzzles
    were made, 1 when the generator gave up (too few colours for the board, say), 2 on
    bad usage or when --out holds a file it would overwrite.
    """
    from cpflow import reports
    from cpflow.workflows.generate import check_holes, colour_range, size_of

    with failures():
        width, height = _option("--size", size_of, size)
        _option("--holes", check_holes, width, height, holes)
        wanted = _option("--colours", colour_range, colours, width * height) if colours else None
        looks = reports.Looks(svg=svg, png=png)
        where = _where(jobs, cluster)
        made = reports.show_generated(
            width, height, wanted, count, seed, out, prefix, force, time_limit, shape.value, holes, walls, looks, where
        )
        raise typer.Exit(made)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8000,
    workers: Annotated[
        int | None, typer.Option(metavar="N", help="Worker processes that solve (default: one per core).", min=1)
    ] = None,
    queue: Annotated[
        int | None,
        typer.Option(metavar="N", help="Requests that may wait for a worker (default 32); more answer 503.", min=0),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME[:PORT]",
            help="Also answer requests for this host name (a proxy's, a name in DNS); repeatable. "
            "Others answer 421 (DNS rebinding).",
        ),
    ] = None,
) -> None:
    """Serve the web page (click a puzzle in, solve it, prove it unique, see it drawn) and its JSON API.

    The API's documentation is at /docs. Needs the web extra (pip install 'cpflow[web]').
    Exit 0 when stopped with Ctrl-C; 2 on bad usage, an address that cannot be listened on
    (a port in use, an unknown host) or without the web extra; 1 when the server fails
    to start otherwise.
    """
    from cpflow.web.hosts import read_host
    from cpflow.web.limits import Limits
    from cpflow.web.server import serve as serving

    for name in allowed_host or ():
        try:
            read_host(name)
        except ValueError as error:
            print(f"cpflow serve: --allowed-host: {error}", file=sys.stderr)
            raise typer.Exit(2) from None
    defaults = Limits()
    limits = Limits(workers=workers or defaults.workers, queue=defaults.queue if queue is None else queue)
    raise typer.Exit(serving(host, port, limits, allowed_host or ()))


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
    from cpflow.screenshots import show_imported

    with failures():
        raise typer.Exit(show_imported(shot, out, solve, debug, {"engine": engine.value}))


@contextmanager
def failures() -> Iterator[None]:
    """The one place errors become exit codes: a line on stderr, no traceback."""
    try:
        yield
    except PuzzleFormatError as error:
        print(error, file=sys.stderr)
        raise typer.Exit(2) from None
    except (EngineUnavailable, ModelTooLarge, ClusterUnavailable, RulesUnsupported) as error:
        print(f"cpflow: {error}", file=sys.stderr)
        raise typer.Exit(2) from None
    except InvalidSolution as error:
        print(f"internal error: {error}", file=sys.stderr)
        raise typer.Exit(4) from None
    except GenerationFailed as error:
        print(f"cpflow: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        print("cpflow: interrupted; what is shown above was finished", file=sys.stderr)
        raise typer.Exit(130) from None


def _load(
    files: list[str],
    input_format,
    touch: bool = False,
    blanks: bool = False,
    play: Path | None = None,
    keep_going: bool = False,
):
    """The puzzles named; with `keep_going`, each bad file is reported on stderr and left out."""
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import load_all

    bad: list[PuzzleFormatError] | None = [] if keep_going else None
    entries = load_all(files, input_format.value, Rules(touch=touch, blanks=blanks), play, bad)
    for error in bad or []:
        print(error, file=sys.stderr)
    return entries, bool(bad)


SEVERITY = (4, 2, 1, 3, 0)  # exit codes, the one that outranks the others first


def _each_batch(files: list[str], input_format, touch: bool, blanks: bool, play: Path | None, keep_going: bool, show):
    """Show each batch of puzzles as it is read (a stream's pieces as they arrive; cpflow.workflows.inputs):
    the exit code that outranks the others'; 2 when some file was bad (with --keep-going), unless 4 (a bug)."""
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import batches

    bad: list[PuzzleFormatError] | None = [] if keep_going else None
    codes, said = [0], 0
    for entries in batches(files, input_format.value, Rules(touch=touch, blanks=blanks), play, bad):
        for error in (bad or [])[said:]:
            print(error, file=sys.stderr)
        said = len(bad or [])
        if entries:
            codes.append(show(entries))
        sys.stdout.flush()  # a stream's answers are read as they come
    for error in (bad or [])[said:]:
        print(error, file=sys.stderr)
    code = min(codes, key=SEVERITY.index)
    return code if code == 4 else 2 if bad else code


def _where(jobs: int, cluster: str | None):
    """Where a batch runs, from --jobs and --cluster (a usage error when both are given or the address is bad)."""
    from cpflow.workflows.batch import Where

    return _option("--cluster", Where.of, jobs, cluster)


def _option(hint: str, read, *args):
    """What a library reader makes of an option's text; its ValueError becomes a usage error (exit 2)."""
    try:
        return read(*args)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=hint) from None


def main() -> None:
    signal.signal(signal.SIGTERM, _as_interrupt)  # so that children and scratch folders are ended as on Ctrl-C
    app()


def _as_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt

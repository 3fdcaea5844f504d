"""The designer's commands: `cpflow generate` makes puzzles with a proven unique solution and
prints or writes each with it; `cpflow fix` makes a puzzle with several solutions unique.

Exit codes of generate: 0 all made; 1 the generator gave up (GenerationFailed); 2 bad
usage, an --out that holds a file it would overwrite, or a file that cannot be written.
Each puzzle lands with its solution and their pictures, or none of them (cpflow.outputs). Of fix: 0 unique (fixed, or
already); 1 no single edit fixes it, or no solution; 3 the time limit (for the whole repair) came
first; 2 bad input.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cpflow import outputs
from cpflow.board.formats import picture
from cpflow.cli.group import app, failures
from cpflow.cli.lines import say, stderr
from cpflow.cli.options import (
    AUTO,
    OUTPUT_AUTO,
    SQUARE,
    Cluster,
    ColourMode,
    ColourOption,
    GradeName,
    InputOption,
    OutputOption,
    PngDir,
    Shape,
    SvgDir,
    TimeLimit,
    positive,
)
from cpflow.cli.progress import status_line, with_progress
from cpflow.cli.reading import where
from cpflow.cli.writers import Pictures, writer
from cpflow.errors import OutputError
from cpflow.workflows.inputs import Entry

if TYPE_CHECKING:
    from cpflow.workflows.batch import Where
    from cpflow.workflows.generate.order import Order

MOST = 1_000_000  # puzzles one generate makes: their names are checked against the folder before any is made


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
    count: Annotated[
        int, typer.Option(metavar="N", help="How many puzzles to make (a million at most).", min=1, max=MOST)
    ] = 1,
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
            metavar="SECONDS", help="Seconds per uniqueness proof before a board is dropped.", callback=positive
        ),
    ] = 60,
    shape: Annotated[Shape, typer.Option(help="square, or hex (hexagonal cells).")] = SQUARE,
    touch_proof: Annotated[
        bool,
        typer.Option(
            "--touch-proof", help="Make each puzzle unique also when paths may touch themselves (--allow-touch)."
        ),
    ] = False,
    holes: Annotated[int, typer.Option(metavar="N", help="Cells taken out of each board at random.", min=0)] = 0,
    walls: Annotated[
        int, typer.Option(metavar="N", help="Walls put between cells of each board at random.", min=0)
    ] = 0,
    warps: Annotated[
        int,
        typer.Option(
            metavar="N", help="Warps (a row's or a column's two end cells joined) on each board at random.", min=0
        ),
    ] = 0,
    bridges: Annotated[
        int, typer.Option(metavar="N", help="Bridges (crossings) on each board at random; square boards.", min=0)
    ] = 0,
    grade: Annotated[
        GradeName | None,
        typer.Option(
            help="Only puzzles of this grade, as `cpflow grade` gives it: easy (the rules alone), medium "
            "(what ifs of depth 1), hard (deeper what ifs), expert (a guess). Harder ones are rarer: try "
            "bigger boards or fewer colours."
        ),
    ] = None,
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
    from cpflow.workflows.generate.order import BadOption, Order

    with failures():
        try:
            order = Order.parse(
                size,
                colours,
                shape=shape.value,
                holes=holes,
                walls=walls,
                warps=warps,
                bridges=bridges,
                touch_proof=touch_proof,
                time_limit=time_limit,
                grade=grade.value if grade else None,
            )
        except BadOption as error:
            raise typer.BadParameter(str(error), param_hint=f"--{error.field}") from None
        if "/" in prefix or "\0" in prefix:  # before the folder is made
            raise typer.BadParameter(f"{prefix!r} is no file name (no '/')", param_hint="--prefix")
        pack = Pack(order, count, seed, out, prefix, force, Pictures(svg, png), where(jobs, cluster))
        raise typer.Exit(show_generated(pack))


@dataclass(frozen=True)
class Pack:
    """What `cpflow generate` makes and how it shows it: `count` puzzles of the order from `seed` (a
    random one when None), printed, or written into `out` as PREFIX_WxH_NN.txt with their solutions
    (over files already there only with `force`), drawn as `pictures` asks, made `where`."""

    order: Order
    count: int
    seed: int | None
    out: Path | None
    prefix: str
    force: bool
    pictures: Pictures
    where: Where | int = 1


def show_generated(pack: Pack) -> int:
    """Make the puzzles and print or write each, a puzzle with its solution and their pictures or none
    of them; 0 when made (OutputError when it would overwrite a file unforced, before any is made)."""
    from cpflow.workflows.generate.pack import files, generate_many, name, save

    out, board = pack.out, pack.order.board
    if out:
        outputs.folder(out)
    pack.pictures.ready()
    seed = random.SystemRandom().randrange(2**31) if pack.seed is None else pack.seed
    stems = [name(board.width, board.height, number, pack.prefix) for number in range(1, pack.count + 1)]
    taken = [file for stem in stems for file in files(out, stem) if file.exists()] if out and not pack.force else []
    if taken:
        raise OutputError(str(taken[0]), "file exists; use --force to overwrite it or --prefix to choose other names")
    made = generate_many(pack.order, pack.count, seed, pack.where)
    size = f"{board.width}x{board.height}"
    for stem, one in zip(stems, with_progress(f"making {size}", made, pack.count), strict=True):
        entry = Entry(stem, 1, one.puzzle)
        with outputs.together() as group:
            pack.pictures.draw(entry, group=group)
            pack.pictures.draw(entry, [one.solution], suffix=".solution", group=group)
            if out:
                save(one, out, stem, group)
        if not out:
            say(f"{stem}: {len(one.puzzle.colours)} colours, proven unique in {one.seconds:.3f} s")
            print(f"{picture(one.puzzle)}\n{picture(one.puzzle, one.solution)}")
    stderr(f"made {pack.count} unique {size} puzzle{'s' * (pack.count != 1)}, seed {seed}")
    return 0


FIX_EXIT = {"unique": 0, "fixed": 0, "not fixed": 1, "unsolvable": 1, "unknown": 3}


@app.command()
def fix(
    file: Annotated[str, typer.Argument(metavar="PUZZLE", help="The puzzle file; - for standard input.")],
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the fixed puzzle here.", dir_okay=False)
    ] = None,
    index: Annotated[
        int, typer.Option(metavar="N", help="Which puzzle of a file that holds several (from 1).", min=1)
    ] = 1,
    format: OutputOption = OUTPUT_AUTO,
    time_limit: TimeLimit = None,
    input_format: InputOption = AUTO,
    color: ColourOption = ColourMode.auto,
) -> None:
    """Make a puzzle with more than one solution unique by one edit where two of its solutions
    differ: a wall (on boards with walls), else a pair of endpoints added, else one endpoint
    moved, proven unique after it.

    Prints the edit and the new puzzle with its one solution; --out writes the puzzle. On a
    terminal, stderr follows the proofs. --time-limit is for the whole repair. Exit 0 when the
    puzzle is unique (fixed, or already), 1 when no single edit fixes it or it has no solution,
    3 when the time limit came first, 2 on bad input.
    """
    from cpflow.board.formats import picture
    from cpflow.workflows.inputs import load_all, numbered
    from cpflow.workflows.repair import fix as repair

    with failures():
        outputs.ready([out], [file])
        entries = load_all([file], input_format.value)
        entry = numbered(entries, index, file)
        with status_line("fix: solving the puzzle twice") as show:
            found = repair(entry.puzzle, time_limit, progress=show and (lambda step: show(step.words())))
        writer(format.value, colour=color.value).fixed(entry, found)
        if out and found.verdict == "fixed":
            outputs.write(out, picture(found.puzzle))
            stderr(f"wrote {out}")
        raise typer.Exit(FIX_EXIT[found.verdict])

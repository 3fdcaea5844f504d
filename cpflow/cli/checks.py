"""The commands about one puzzle and its solution: `verify` checks solutions against the rules,
`render` draws a board (solved or not) into a picture file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cpflow import outputs
from cpflow.board.grid import Solution
from cpflow.cli.group import app, failures
from cpflow.cli.lines import say, stderr
from cpflow.cli.options import AUTO, DEFAULT_ENGINE, AllowBlanks, AllowTouch, CountFormat, EngineOption, InputOption
from cpflow.errors import OutputError, PuzzleFormatError
from cpflow.workflows.inputs import Entry


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
    format: Annotated[
        CountFormat, typer.Option("--format", "-f", help="text, or json: a record a puzzle ({valid, mistakes}).")
    ] = CountFormat.text,
) -> None:
    """Check solutions against their puzzles and the rules, and say what is wrong: one line a
    mistake, the cell that explains it first (`r3c5: C breaks path T here`: row 3, column 5).

    Without SOLUTION, checks the solutions the puzzle file carries (level lines, JSON
    paths). Exit 0 when every solution is right, 1 when one breaks a rule, 2 on bad input.
    """
    from cpflow.board.grid import Rules

    with failures():
        rules = Rules(touch=allow_touch, blanks=allow_blanks)
        raise typer.Exit(show_verified(file, solution, input_format.value, rules, format is CountFormat.json))


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
    partial: Annotated[
        bool, typer.Option("--partial", help="A --solution may be unfinished (a play): exit 0 when it is drawn.")
    ] = False,
    input_format: InputOption = AUTO,
    allow_touch: AllowTouch = False,
    allow_blanks: AllowBlanks = False,
) -> None:
    """Draw a board as the game shows it, as SVG, PNG or an animated GIF, solved or not.

    A level file carries its solution: without --solution or --solve it is drawn. A .gif
    shows the paths drawn step by step, or with an ilp-* engine one frame per round of
    loop cuts. A --solution that is not whole is drawn as far as it goes, said "partly drawn"
    (or "not solved" when it breaks a rule) with its mistakes on stderr. Exit 0 when drawn (a
    partly drawn one only with --partial), 1 when there is no solution to draw or the solution
    is not whole, 2 on bad input or a bad --out.
    """
    from dataclasses import replace

    from cpflow.board.formats import parse_with_solutions
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import numbered, text_of

    with failures():
        outputs.ready([out], [file, solution])
        text, source = text_of(file)
        found = parse_with_solutions(text, source, input_format.value)
        puzzle, carried = numbered(found, index, source)
        puzzle = replace(puzzle, rules=Rules(touch=allow_touch, blanks=allow_blanks))
        entry = Entry(source, index, puzzle)
        drawn = show_rendered(
            entry, out, solution, solve, engine.value, carried, partial=partial, labels=labels, animate=animate
        )
        raise typer.Exit(drawn)


def show_verified(file: str, solution_file: str | None, fmt: str, rules=None, as_json: bool = False) -> int:
    """Check the solutions of every puzzle of a file (given in SOLUTION, paired in order when it holds
    as many, or carried by the puzzle file) under the rules; 0 when all are right, 1 when one is not.
    A wrong one is said one line a mistake, each with the cell that explains it (`r3c5: C breaks path
    T here (no path C reaches it)`)."""
    from dataclasses import replace

    from cpflow.board.formats import parse_solution, parse_with_solutions
    from cpflow.board.grid import FLOW
    from cpflow.board.mistakes import mistakes
    from cpflow.workflows import records
    from cpflow.workflows.inputs import STDIN, solution_texts, text_of

    if file == STDIN and solution_file == STDIN:
        raise PuzzleFormatError.whole(STDIN, "the puzzle and the solution cannot both come from standard input")
    text, source = text_of(file)
    found = parse_with_solutions(text, source, fmt)
    given, given_source = text_of(solution_file) if solution_file is not None else ("", "")
    texts = solution_texts(given) if solution_file is not None else []
    if len(texts) > 1 and len(texts) != len(found):  # paired in order: a count that differs pairs none right
        puzzles = f"{len(found)} puzzle{'s' * (len(found) != 1)}"
        raise PuzzleFormatError.whole(given_source, f"holds {len(texts)} solutions, {source} {puzzles}")
    checked = []
    for number, (puzzle, carried) in enumerate(found):
        puzzle = replace(puzzle, rules=rules or FLOW)
        piece = texts[number] if len(texts) == len(found) else given
        solution = carried if solution_file is None else parse_solution(puzzle, piece, given_source)
        if solution is None:
            raise PuzzleFormatError.whole(source, "carries no solution: name a solution file to check")
        checked.append((puzzle, mistakes(puzzle, solution)))
    for number, (puzzle, broken) in enumerate(checked, 1):
        if as_json:
            print(json.dumps(records.verified(source, number, puzzle, broken)))
            continue
        say(f"{puzzle.name}: " + ("valid" if not broken else "invalid"))
        for problem in broken:
            print(f"  {problem.located()}")
    return 1 if any(broken for _, broken in checked) else 0


def show_rendered(
    entry: Entry,
    out: Path,
    solution_file: Path | None,
    solve: bool,
    engine: str,
    carried=None,
    partial: bool = False,
    **drawing,
) -> int:
    """Draw one puzzle (solved, with a given solution, or with the one its file carries) to a picture file;
    0 drawn, 1 no solution to draw or a given one not whole (a partly drawn one is 0 with `partial`)."""
    from cpflow.board.formats import load_solution
    from cpflow.board.mistakes import is_partial, mistakes
    from cpflow.engines.catalog import entry_of
    from cpflow.engines.pipeline import solve as solve_with
    from cpflow.pictures.files import SUFFIXES, write_picture

    if out.suffix.lower() not in SUFFIXES:
        raise OutputError(str(out), f"cannot tell the picture format; use {', '.join(SUFFIXES)}")
    solutions: list[Solution] = []
    said, code = "solved", 0
    given, source = (load_solution(entry.puzzle, solution_file), str(solution_file)) if solution_file else (None, "")
    if given is None and not solve and carried is not None:  # a level's own solution: verified as any other
        given, source = carried, entry.source
    if given is not None:
        solutions = [given]
        found = mistakes(entry.puzzle, given)
        if found:
            said = "partly drawn" if is_partial(found) else "not solved"
            code = 0 if partial and is_partial(found) else 1
        for problem in found if code else ():
            stderr(f"{source}: {problem.located()}")
    elif solve:
        rounds: list[dict] = []
        if out.suffix.lower() == ".gif" and entry_of(engine).rounds:
            drawing["rounds"] = rounds
            result = solve_with(entry.puzzle, engine, on_round=rounds.append)
        else:
            result = solve_with(entry.puzzle, engine)
        if result.solution is None:
            stderr(f"{entry.puzzle.name}: {result.status.value}: nothing to draw")
            return 1
        solutions = [result.solution]
    write_picture(out, entry.puzzle, solutions, **drawing)
    say(f"{out}: {entry.puzzle.width}x{entry.puzzle.height}, {said if solutions else 'puzzle only'}")
    return code

"""How answers are printed: one writer per output format, chosen once per command (`writer`).

- Terminal: boards drawn in colour with rich, highlights and marks;
- Text: boards as text that reads back as a solution (a remark starts with `# `);
- Header: the Go solver's stream (`W H` and the rows, or IMPOSSIBLE), text otherwise;
- Json: one record per line (cpflow.workflows.records, the web API's too);
- Quiet: one line per puzzle;
- Pictures: beside any of them, each board drawn as SVG or PNG into a folder.

A writer prints; it decides nothing and computes nothing: whatever it prints was worked out
before it (an unsolvable puzzle's why by cpflow.workflows.unsolvable, when `explains` asks for
it), and it imports no engine, no deduction and no workflow's work (tests/test_writers.py).
Each method takes one answer: `solved` a solve, `uniqueness` a proof, `counted` a count,
`hinted` a hint, `graded` a chain's summary and `grade` a puzzle's grade (`cpflow grade`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from cpflow import outputs
from cpflow.board.formats import picture
from cpflow.board.grid import Cell, Puzzle, Solution, cell_of
from cpflow.cli.lines import say
from cpflow.results import SolveResult, Status
from cpflow.workflows import records

if TYPE_CHECKING:  # answers' types, and rich: imported only by the commands that use them (start-up time)
    from rich.console import Console

    from cpflow.workflows.hints import Grade, Hint
    from cpflow.workflows.inputs import Entry
    from cpflow.workflows.repair import Fixed
    from cpflow.workflows.unique import Count, Uniqueness
    from cpflow.workflows.unsolvable import Reason


RICH_FORCES = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")  # variables that make rich see a terminal


def console_for(colour: str = "auto") -> Console:
    """A console honouring --color: auto (NO_COLOR, and whether stdout is a terminal), always, never."""
    from rich.console import Console

    if colour == "auto":
        return Console(highlight=False)
    return Console(highlight=False, force_terminal=colour == "always", no_color=colour == "never")


def writer(shown: str = "auto", quiet: bool = False, colour: str = "auto") -> Writer:
    """The writer of an output format (auto: terminal on a terminal, else text); Quiet when `quiet`."""
    if quiet:
        return Quiet(colour)
    if shown == "auto":
        shown = "terminal" if _on_terminal(colour) else "text"
    return OUTPUT_WRITERS[shown](colour)


def _on_terminal(colour: str) -> bool:
    """Whether stdout is a terminal as rich sees it; rich is imported only where it could say yes
    (start-up time: a board piped or written to a file pays nothing for it)."""
    forced = colour == "always" or any(os.environ.get(name) for name in RICH_FORCES)
    return (forced or sys.stdout.isatty()) and console_for(colour).is_terminal


class Writer:
    """An output format: each kind of answer, printed."""

    explains: tuple[str, ...] = ("solved", "uniqueness")  # the answers whose why (unsolvable) it prints

    def __init__(self, colour: str = "auto"):
        self.colour = colour

    @cached_property
    def console(self) -> Console:
        """The rich console of --color (only the terminal writer draws with it)."""
        return console_for(self.colour)

    def solved(self, entry: Entry, result: SolveResult, reason: Reason | None = None) -> None:
        raise NotImplementedError

    def uniqueness(self, entry: Entry, found: Uniqueness, reason: Reason | None = None) -> None:
        raise NotImplementedError

    def counted(self, entry: Entry, found: Count) -> None:
        raise NotImplementedError

    def hinted(self, found: Hint, number: int | None = None) -> None:
        raise NotImplementedError

    def graded(self, summary: Grade) -> None:
        raise NotImplementedError

    def grade(self, entry: Entry, summary: Grade) -> None:
        """One line: the puzzle, its grade (or how its chain ended) and the steps it took."""
        say(f"{entry.puzzle.name}: {summary.grade or summary.end} ({_steps(summary)}) {summary.seconds:.2f} s")

    def fixed(self, entry: Entry, found: Fixed) -> None:
        raise NotImplementedError


def _steps(summary: Grade) -> str:
    """A chain's steps in words, e.g. `63 steps: degree 52, corner 7, what if 4; depth 1`."""
    counts = ", ".join(f"{kind} {n}" for kind, n in summary.kinds.items() if n)
    deepest = f"; depth {summary.depth}" if summary.what_ifs else ""
    return f"{summary.steps} steps: {counts or 'none'}{deepest}"


class Quiet(Writer):
    """One line per puzzle: its name, verdict (or count) and seconds."""

    explains = ()

    def solved(self, entry: Entry, result: SolveResult, reason: Reason | None = None) -> None:
        say(f"{entry.puzzle.name} {result.status.value} {result.seconds:.3f}")

    def uniqueness(self, entry: Entry, found: Uniqueness, reason: Reason | None = None) -> None:
        say(f"{entry.puzzle.name} {found.verdict.value} {found.seconds:.3f}")

    def counted(self, entry: Entry, found: Count) -> None:
        exact = "exact" if found.exact else "at-least"
        say(f"{entry.puzzle.name} {found.number} {exact} {found.seconds:.3f}")

    def grade(self, entry: Entry, summary: Grade) -> None:
        say(f"{entry.puzzle.name} {summary.grade or summary.end} {summary.seconds:.3f}")

    def fixed(self, entry: Entry, found: Fixed) -> None:
        say(f"{entry.puzzle.name} {found.verdict.replace(' ', '-')} {found.seconds:.3f}")


class Json(Writer):
    """One JSON record per line, as the web API answers."""

    def solved(self, entry: Entry, result: SolveResult, reason: Reason | None = None) -> None:
        record = records.solved(entry.source, entry.index, entry.puzzle, result)
        print(json.dumps(record | records.why(reason)))

    def uniqueness(self, entry: Entry, found: Uniqueness, reason: Reason | None = None) -> None:
        record = records.uniqueness(entry.source, entry.index, entry.puzzle, found)
        print(json.dumps(record | records.why(reason)))

    def counted(self, entry: Entry, found: Count) -> None:
        print(json.dumps(records.counted(entry.source, entry.index, found)))

    def hinted(self, found: Hint, number: int | None = None) -> None:
        print(json.dumps(records.hinted(found)), flush=True)

    def graded(self, summary: Grade) -> None:
        print(json.dumps(records.graded(summary)))

    def grade(self, entry: Entry, summary: Grade) -> None:
        print(json.dumps(records.puzzle_graded(entry.source, entry.index, entry.puzzle, summary)))

    def fixed(self, entry: Entry, found: Fixed) -> None:
        print(json.dumps(records.fixed(entry.source, entry.index, entry.puzzle, found)))


class Text(Writer):
    """Boards as text: a solution's rows read back as a solution, so what is said of it is a remark."""

    remark = "# "

    def solved(self, entry: Entry, result: SolveResult, reason: Reason | None = None) -> None:
        say(f"{self.remark}{entry.puzzle.name}: {result.status.value} in {result.seconds:.3f} s")
        if reason:
            self.why(entry.puzzle, reason, self.remark)
        if result.solution:
            self.board(entry.puzzle, result.solution)

    def uniqueness(self, entry: Entry, found: Uniqueness, reason: Reason | None = None) -> None:
        say(f"{entry.puzzle.name}: {found.verdict.value} in {found.seconds:.3f} s")
        if reason:
            self.why(entry.puzzle, reason)
        self.solutions(entry.puzzle, found.solutions, found.differences())

    def solutions(self, puzzle: Puzzle, solutions: Sequence[Solution], differ: Sequence[Cell]) -> None:
        """The solutions found (two of a puzzle that has several), then where they differ."""
        from cpflow.board.grid import differ as differ_cells

        same_colours = len(solutions) == 2 and bool(differ) and not differ_cells(*solutions)
        if same_colours:
            print("the two solutions colour every cell alike; their paths take different steps:")
        for number, solution in enumerate(solutions, 1):
            if len(solutions) > 1:
                print(f"solution {number}:")
            self.one_of_two(puzzle, solution, differ, same_colours)
        if differ:
            self.differences(puzzle, differ)

    def counted(self, entry: Entry, found: Count) -> None:
        how = "exactly" if found.exact else "at least"
        say(f"{entry.puzzle.name}: {how} {found.number} solution{'s' * (found.number != 1)}")

    def hinted(self, found: Hint, number: int | None = None) -> None:
        from cpflow.workflows.hints import MISTAKE, STEP, UNKNOWN

        step, head = found.step, f"{number}. " if number else ""
        if step:
            print(f"{head}step ({step.kind}): {step.colour} at {found.where()}")
            print(f"  {found.reason}")
            if step.because:
                print(f"  because of {found.forced_by()}")
            for line in found.explained:  # hint --explain: a what if step by step
                print(f"    {line}")
        elif found.status == MISTAKE:
            print(f"{head}mistake: {found.where()}")
            print(f"  {found.reason}")
        else:
            print(f"{head}{found.status}: {found.reason}")
        if found.solutions:  # not-unique: two solutions of the play and where they differ, as `unique` shows them
            self.solutions(found.play, found.solutions, [cell_of(node) for node in found.differ])
        elif found.status != UNKNOWN and not (number and found.status == STEP and not self.draws_every_step):
            self.play(found)

    def graded(self, summary: Grade) -> None:
        print(f"{_steps(summary)}; grade: {summary.grade or 'none (' + summary.end + ')'}")

    def fixed(self, entry: Entry, found: Fixed) -> None:
        """A repair: the verdict and the edit in one line, then the puzzle after it and its solution."""
        said = {
            "unique": "unique already; nothing to fix",
            "fixed": f"not unique; fixed: {found.edit.words() if found.edit else ''}",
            "not fixed": "not unique, and no single edit tried makes it unique",
            "unsolvable": "no solution at all; nothing to fix",
            "unknown": f"the time limit ran out before {found.short_of}",
        }[found.verdict]
        say(f"{entry.puzzle.name}: {said} ({found.tried} proof{'s' * (found.tried != 1)}, {found.seconds:.2f} s)")
        if found.verdict == "fixed" and found.solution:
            print(picture(found.puzzle), end="")
            print()
            self.board(found.puzzle, found.solution)

    # -- boards, which the terminal draws instead -------------------------------

    draws_every_step = False  # in `hint --all`, each step's board (else only the last)

    def board(self, puzzle: Puzzle, solution: Solution) -> None:
        print(picture(puzzle, solution), end="")

    def one_of_two(self, puzzle: Puzzle, solution: Solution, differ: Sequence[Cell], same_colours: bool) -> None:
        """One of two solutions; when they colour every cell alike, its paths drawn (letters show nothing)."""
        if same_colours:
            from cpflow.pictures.terminal import terminal

            print(terminal(puzzle, solution, colour=False).plain, end="")
        else:
            print(picture(puzzle, solution), end="")

    def differences(self, puzzle: Puzzle, differ: Sequence[Cell]) -> None:
        from cpflow.pictures.terminal import differences_grid

        print("differences:\n" + "\n".join(differences_grid(puzzle, differ)))

    def why(self, puzzle: Puzzle, reason: Reason, remark: str = "") -> None:
        """Why an unsolvable puzzle has no solution: a sentence, then the board with the cells that must be
        covered as `*` and the endpoints of the colours that must connect."""
        found = reason.why
        print(f"{remark}why: {reason.sentence}")
        if found is None:
            return
        cover = {cell_of(node) for node in found.cover}
        self.marked(puzzle, cover, {cell_of(n) for c in found.connect for n in puzzle.endpoints[c]}, remark)

    def marked(self, puzzle: Puzzle, cover: set[Cell], ends: set[Cell], remark: str) -> None:
        owner = {cell_of(n): c for n, c in puzzle.endpoint_colour().items()}
        for row in puzzle.array():
            marks = "".join(" " if cell is None else "*" if cell in cover else owner.get(cell, ".") for cell in row)
            print(f"{remark}{marks}")

    def play(self, found: Hint) -> None:
        print("\n".join(records.play_rows(found.play)))


class Header(Text):
    """The Go solver's stream for solves (thomasahle/numberlink): `W H` and the solved rows, or IMPOSSIBLE
    (UNKNOWN when the time limit came first); text for everything else."""

    explains = ("uniqueness",)

    def solved(self, entry: Entry, result: SolveResult, reason: Reason | None = None) -> None:
        print(as_stream(entry.puzzle, result))


class Terminal(Text):
    """Boards drawn in colour in the terminal, a step's or a difference's cells highlighted."""

    remark = ""
    draws_every_step = True

    def board(self, puzzle: Puzzle, solution: Solution) -> None:
        self.draw(puzzle, solution)

    def one_of_two(self, puzzle: Puzzle, solution: Solution, differ: Sequence[Cell], same_colours: bool) -> None:
        self.draw(puzzle, solution, highlight=differ)

    def differences(self, puzzle: Puzzle, differ: Sequence[Cell]) -> None:
        pass  # highlighted on each board

    def marked(self, puzzle: Puzzle, cover: set[Cell], ends: set[Cell], remark: str) -> None:
        self.draw(puzzle, highlight=cover, marked=ends)

    def play(self, found: Hint) -> None:
        step = found.step
        highlight = [cell_of(node) for node in (step.cells if step else found.wrong or found.differ)]
        marked = [cell_of(node) for node in step.because] if step else []
        self.draw(found.play, play=found.play.drawn, highlight=highlight, marked=marked)

    def draw(self, puzzle: Puzzle, solution: Solution | None = None, **looks) -> None:
        from cpflow.pictures.terminal import terminal

        colour = self.console.color_system is not None
        drawing = terminal(puzzle, solution, width=self.console.width, colour=colour, **looks)
        self.console.print(drawing, end="", soft_wrap=True)


# The output formats, named here alone (cli.options.OutputFormat offers these and `auto`).
OUTPUT_WRITERS: dict[str, type[Writer]] = {"terminal": Terminal, "text": Text, "json": Json, "header": Header}


class Pictures(NamedTuple):  # a named tuple, not a dataclass: cheaper to define (start-up time)
    """Beside any output format: each board drawn as SVG and/or PNG into a folder (--svg DIR, --png DIR)."""

    svg: Path | None = None
    png: Path | None = None

    def ready(self, inputs: Sequence[str] = ()) -> None:
        """Each folder asked for made, before any work; OutputError naming one that cannot be, or a
        picture that would be drawn over an input (`solve shot.png --png .`)."""
        for folder, kind in ((self.svg, ".svg"), (self.png, ".png")):
            if folder:
                outputs.folder(folder)
                outputs.refuse_inputs([folder / (Path(name).stem + kind) for name in inputs], inputs)

    def draw(
        self,
        entry: Entry,
        solutions: Sequence[Solution] = (),
        highlight=(),
        suffix: str = "",
        group: outputs.Group | None = None,
    ) -> None:
        """The board (with its solutions side by side, differing cells marked) into each folder asked for,
        alone or with a `group` of files that land together (cpflow.outputs)."""
        if not (self.svg or self.png):
            return
        from cpflow.pictures.files import write_picture

        stem = Path(entry.source).stem + (f"-{entry.index}" if "#" in entry.puzzle.name else "") + suffix
        for folder, kind in ((self.svg, ".svg"), (self.png, ".png")):
            if folder:
                outputs.folder(folder)
                write_picture(folder / (stem + kind), entry.puzzle, solutions, highlight, group=group)


def as_stream(puzzle: Puzzle, result: SolveResult) -> str:
    """One puzzle's answer as the Go solver of thomasahle/numberlink writes it: `W H` and the
    solved rows, or `IMPOSSIBLE` (`UNKNOWN` when the time limit came first)."""
    if result.solution:
        return picture(puzzle, result.solution, "header")
    return "IMPOSSIBLE\n" if result.status is Status.UNSOLVABLE else "UNKNOWN\n"

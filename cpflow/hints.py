"""What `cpflow hint` prints: the next step of a play (or every step, and the grade), a mistake,
or why there is no step. The reasoning is cpflow.deduce's; this module reads and prints.

Exit codes: 0 a step or a solved play; 1 a mistake or a puzzle with no solution; 3 the
time limit came first; 2 bad input (cli.failures); 4 a hint that fails its check (a bug).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

from cpflow import records
from cpflow.board.errors import PuzzleFormatError
from cpflow.board.formats import decode, load_play, parse_play
from cpflow.board.grid import Puzzle, cell_of
from cpflow.deduce import sentences
from cpflow.deduce.hints import MISTAKE, SOLVED, STEP, UNKNOWN, Hint, chain, grade
from cpflow.reports import Looks
from cpflow.workflows.inputs import STDIN, load_all

EXIT = {STEP: 0, SOLVED: 0, MISTAKE: 1, UNKNOWN: 3}  # any other status (unsolvable): 1


def read_play(file: str, index: int, fmt: str, play: str | None) -> Puzzle:
    """Puzzle `index` (from 1) of the file, with the play drawn so far (a file, or - for stdin)."""
    entries = load_all([file], fmt)
    if index > len(entries):
        raise PuzzleFormatError.whole(file, f"holds {len(entries)} puzzle(s), no puzzle {index}")
    puzzle = entries[index - 1].puzzle
    if play is None:
        return puzzle
    if play == STDIN:
        if file == STDIN:
            raise PuzzleFormatError.whole(STDIN, "the puzzle and the play cannot both come from standard input")
        drawn = parse_play(puzzle, decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
    else:
        drawn = load_play(puzzle, Path(play))
    return replace(puzzle, drawn=drawn)


def show_hints(play: Puzzle, every: bool, shown: str, time_limit: float | None, looks: Looks | None = None) -> int:
    """Print the next hint (with `every`, the whole chain and its grade); the exit code of the first
    hint (of the last, with `every`)."""
    console = (looks or Looks()).console()
    shown = shown if shown != "auto" else ("terminal" if console.is_terminal else "text")
    hints = chain(play, time_limit)
    given: list[Hint] = []
    for found in hints:
        given.append(found)
        if shown == "json":
            print(json.dumps(records.hinted(found)), flush=True)
        else:
            _print(console, found, shown, len(given) if every else None)
        if not every:
            break
    if every:
        summary = grade(given)
        if shown == "json":
            print(json.dumps(records.graded(summary)))
        else:
            counts = ", ".join(f"{kind} {n}" for kind, n in summary.kinds.items() if n)
            print(f"{summary.steps} steps ({counts or 'none'}); grade: {summary.grade}")
    return EXIT.get(given[-1].status, 1)


def _print(console, found: Hint, shown: str, number: int | None) -> None:
    """One hint as text, or drawn in the terminal with the step's cells highlighted and its cause underlined."""
    step = found.step
    head = f"{number}. " if number else ""
    if step:
        title = f"{head}step ({step.kind}): {step.colour} at {sentences.cells(step.cells)}"
        print(title)
        print(f"  {found.reason}")
        if step.because:
            print(f"  because of {sentences.cells(step.because)}")
    elif found.status == MISTAKE:
        print(f"{head}mistake: {sentences.cells(found.wrong)}")
        print(f"  {found.reason}")
    else:
        print(f"{head}{found.status}: {found.reason}")
    if found.status in (UNKNOWN,) or (number and found.status == STEP and shown != "terminal"):
        return
    if shown == "terminal":
        from cpflow.pictures.terminal import terminal

        highlight = [cell_of(node) for node in (step.cells if step else found.wrong)]
        marked = [cell_of(node) for node in step.because] if step else []
        drawing = terminal(
            found.play,
            width=console.width,
            colour=console.color_system is not None,
            play=found.play.drawn,
            highlight=highlight,
            marked=marked,
        )
        console.print(drawing, end="", soft_wrap=True)
    else:
        print("\n".join(records.play_rows(found.play)))

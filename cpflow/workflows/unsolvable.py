"""Why a puzzle a command found unsolvable has no solution, for every face (CLI, web, hints).

The explanation is part of a command's work, done before anything is printed: `solved` and
`proven` give the answer and, for an unsolvable puzzle when `explain` asks for it, why
(`Explained`, its `Reason`). A batch runs them as each item's work (cpflow.workflows.batch), so the
explanation is made where the answer is, on a pool or a cluster too; a writer prints it.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from cpflow.board.grid import Cell, Puzzle, cell_of
from cpflow.engines.pipeline import solve
from cpflow.results import SolveResult, Status

if TYPE_CHECKING:  # the explanation's model and words only for an unsolvable puzzle, proofs only for `unique`
    from cpflow.engines.why import Why
    from cpflow.workflows.unique import Uniqueness

SECONDS = 5  # the most an explanation may take after the verdict, within what the time limit leaves (a terminal waits)
Answer = TypeVar("Answer", SolveResult, "Uniqueness")
# Without OR-Tools no smallest reason is looked for: what to do instead, where cpflow runs (in a browser, under Pyodide,
# a player cannot install it).
WITHOUT_CPSAT = (
    "a browser cannot run OR-Tools, which finds it: `cpflow solve` or `cpflow serve` on a computer marks its cells"
    if sys.platform == "emscripten"
    else "that needs OR-Tools, not installed here"
)


class Reason(NamedTuple):  # a named tuple, not a dataclass: a third of the cost to define (start-up time)
    """Why a puzzle has no solution, as every face shows it: a smallest set of requirements that
    cannot hold together, each with its witness (cpflow.engines.why), and that set in words: the
    shape it has (`kind`: cpflow.deduce.sentences.SHAPES, or "" for none of them) and the cells to
    draw (those to cover and the ends of the colours to connect). `why` is None when none was
    found in the time given; the sentence says so."""

    why: Why | None
    sentence: str
    kind: str = ""
    cells: tuple[Cell, ...] = ()


class Explained(NamedTuple, Generic[Answer]):
    """An answer (a solve's result or a uniqueness proof) and, for an unsolvable puzzle, its reason:
    None when not asked for, not unsolvable, or none found in time."""

    answer: Answer
    reason: Reason | None = None


def explanation(puzzle: Puzzle, status: Status, seconds: float = SECONDS) -> Reason | None:
    """For an unsolvable puzzle, a smallest set of requirements that cannot hold (cpflow.engines.why)
    and its sentence, looked for for `seconds` at most (a set the time limit stopped shrinking is
    said to be not minimal; none found, the sentence says that); None for any other status, or
    when no time is left."""
    if status is not Status.UNSOLVABLE or seconds <= 0:
        return None
    from cpflow.engines.catalog import ENGINES

    if not ENGINES["cpsat"].available():  # its proofs are CP-SAT's (in the browser, no OR-Tools)
        return Reason(None, f"unsolvable; no smallest reason looked for: {WITHOUT_CPSAT}")
    from cpflow.deduce.sentences import shaped
    from cpflow.engines.why import why

    began = time.monotonic()
    found = why(puzzle, seconds)
    took = time.monotonic() - began
    if found is None:
        return Reason(None, f"unsolvable; no smallest reason found in {took:.1f} s")
    kind, sentence = shaped(puzzle, found.connect, found.cover)
    if not found.minimal:
        sentence += f" (not minimal: the time limit came first, after {took:.1f} s)"
    ends = [node for colour in found.connect for node in puzzle.endpoints[colour]]
    cells = tuple(dict.fromkeys(cell_of(node) for node in [*found.cover, *ends]))
    return Reason(found, sentence, kind, cells)


def solved(puzzle: Puzzle, explain: bool = True, **options) -> Explained[SolveResult]:
    """The puzzle solved (`pipeline.solve` options) and, when unsolvable and `explain` asks, why."""
    began = time.monotonic()
    result = solve(puzzle, **options)
    return Explained(result, explanation(puzzle, result.status, left(began, options)) if explain else None)


def proven(puzzle: Puzzle, explain: bool = True, **options) -> Explained[Uniqueness]:
    """The puzzle's uniqueness verdict (`unique.uniqueness` options) and, when unsolvable and `explain`
    asks, why."""
    from cpflow.workflows.unique import Verdict, uniqueness

    began = time.monotonic()
    found = uniqueness(puzzle, **options)
    status = Status.UNSOLVABLE if found.verdict is Verdict.UNSOLVABLE else Status.UNKNOWN
    return Explained(found, explanation(puzzle, status, left(began, options)) if explain else None)


def left(began: float, options: dict) -> float:
    """The seconds an explanation may take: SECONDS, or what the command's time limit leaves of
    itself since `began` when that is less (the explanation is part of the command's work)."""
    limit = options.get("time_limit")
    return SECONDS if limit is None else min(SECONDS, limit - (time.monotonic() - began))

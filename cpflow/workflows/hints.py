"""Hints for a play: the next step, checked; the cells to take back; the whole chain and its grade.

A play is the puzzle with the cells the player has coloured (`puzzle.drawn`). `hint`
solves it once with the default engine, whose answer the verifier has passed: a
solution the play extends. The next step (cpflow.deduce.steps) must agree with it, and
the play with the step must still pass the verifier with that solution: a step that
does not is a bug (InvalidSolution), like a wrong solution. A play no solution extends
is a `mistake`: the fewest of the player's cells to take back (cpflow.engines.closest),
checked the same way; so is a play that paints an endpoint over (`painted_over`), which
names it. Where no rule decides the next cell, a play with more than one solution is said
to be one (`not-unique`, with two solutions and where they differ) instead of a guess; the
check runs only then, so a puzzle whose chain needs no guess pays nothing for it. `chain` gives
every step from the play to the end, and `grade` sums them up.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from cpflow.board.grid import Colour, Node, Puzzle, Solution
from cpflow.board.verify import violations
from cpflow.deduce import sentences
from cpflow.deduce.rulebook import GRADES
from cpflow.deduce.rules import applies
from cpflow.deduce.steps import STEP_KINDS, Step, conflict, next_step, with_step
from cpflow.errors import InvalidSolution, RulesUnsupported
from cpflow.results import Status
from cpflow.workflows.unsolvable import SECONDS, Reason, explanation

STEP, MISTAKE, SOLVED, UNSOLVABLE, UNKNOWN = "step", "mistake", "solved", "unsolvable", "unknown"
NOT_UNIQUE = "not-unique"  # the play has more than one solution (the spelling of `cpflow unique`)


@dataclass(frozen=True)
class Hint:
    """What to tell the player: `status` (step, mistake, solved, unsolvable, not-unique, unknown),
    the play (after the step, for a step), the step, the cells to take back (a mistake), and why;
    for a what if its chains step by step (`explained`); for a play of several solutions, two of
    them and the cells where they differ."""

    status: str
    play: Puzzle
    reason: str
    step: Step | None = None
    wrong: tuple[Node, ...] = ()
    why: Reason | None = None  # for an unsolvable puzzle: why, as solve says it (cpflow.workflows.unsolvable)
    explained: tuple[str, ...] = ()  # a what if step by step (sentences.chain_lines)
    differ: tuple[Node, ...] = ()  # not-unique: the cells two solutions colour differently
    solutions: tuple[Solution, ...] = ()  # not-unique: two solutions of the play

    def where(self) -> str:
        """The cells the hint points at, in words ('r1c1 and r1c2'): the step's, a mistake's to take
        back, or where two solutions differ."""
        return sentences.cells(self.step.cells if self.step else self.wrong or self.differ)

    def forced_by(self) -> str:
        """The cells that force the step, in words; '' when none do."""
        return sentences.cells(self.step.because) if self.step and self.step.because else ""


@dataclass(frozen=True)
class Grade:
    """A chain summed up: steps of each kind (STEP_KINDS order), the deepest what if, and the grade
    (rulebook.GRADES): easy when the rules alone finish it, medium with what ifs of depth 1, hard with
    deeper ones, expert when it needs a guess."""

    kinds: dict[str, int]
    depth: int
    grade: str | None  # None when the chain did not reach a solution (see `end`)
    end: str = SOLVED  # how the chain ended: solved, or the status of the hint that stopped it
    seconds: float = 0.0

    @property
    def steps(self) -> int:
        return sum(self.kinds.values())

    @property
    def what_ifs(self) -> int:
        return self.kinds["what if"]

    @property
    def guesses(self) -> int:
        return self.kinds["guess"]


def hint(play: Puzzle, time_limit: float | None = None) -> Hint:
    """The next step of the play, or why there is none."""
    return next(chain(play, time_limit))


def chain(play: Puzzle, time_limit: float | None = None, known: Solution | None = None) -> Iterator[Hint]:
    """Every step from the play to the solution, one hint each; or the one hint that says why
    there is no step (solved, a mistake, unsolvable, unknown). `known`: a solution of the play
    that the verifier has passed, when the caller has one (else the default engine finds one)."""
    if not applies(play):
        raise RulesUnsupported("hints follow Flow Free's rules: every cell covered, no path touching itself")
    if over := painted_over(play):
        yield _painted(play, over, time_limit)
        return
    from cpflow.engines import pipeline

    if known is None:
        began = time.perf_counter()
        found = pipeline.solve(play, time_limit=time_limit)
        if found.status is Status.UNKNOWN:
            yield Hint(UNKNOWN, play, "the time limit came before a solution was found")
            return
        if found.status is Status.UNSOLVABLE:
            left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - began))
            yield _mistake(play, left)
            return
        known = found.solution
        assert known is not None  # solved: a solution came with it
    elif wrong := violations(play, known):
        raise InvalidSolution("hint (the solution given)", wrong)
    unique = False  # the play is proven to have one solution (then so has every play after it)
    while (step := next_step(play, known)) is not None:
        if step.kind == "guess" and not unique:
            several = _several(play, time_limit)
            if several:
                yield several
                return
            unique = True  # or the time limit came first: the guess stands
        play = _checked(play, step, known)
        explained = tuple(sentences.chain_lines(play, step)) if step.assumptions else ()
        yield Hint(STEP, play, sentences.step_sentence(play, step), step, explained=explained)
    yield Hint(SOLVED, play, "every cell is coloured and every rule holds")


def painted_over(play: Puzzle) -> dict[Node, Colour]:
    """The endpoints the play paints another colour (`hint --play` reads them as drawn), each with
    the colour painted."""
    owner = play.endpoint_colour()
    return {node: c for node, c in play.drawn.items() if owner.get(node, c) != c}


def _painted(play: Puzzle, over: dict[Node, Colour], time_limit: float | None) -> Hint:
    """A play with endpoints painted over: a mistake naming them, with the other cells to take back
    when the rest cannot be finished either (the hint on the rest, checked as every hint is)."""
    rest = replace(play, drawn={node: c for node, c in play.drawn.items() if node not in over})
    found = hint(rest, time_limit)
    if found.status in (UNSOLVABLE, UNKNOWN):
        return replace(found, play=play)
    wrong = tuple(over) + (found.wrong if found.status == MISTAKE else ())
    return Hint(MISTAKE, play, sentences.painted_sentence(play, over, wrong), wrong=wrong)


def _several(play: Puzzle, time_limit: float | None) -> Hint | None:
    """The hint that the play has more than one solution, with two and where they differ; None when
    it has one (or the time limit came before the proof)."""
    from cpflow.workflows.unique import Verdict, uniqueness

    found = uniqueness(play, time_limit=time_limit)
    if found.verdict is not Verdict.NOT_UNIQUE:
        return None
    differ = tuple(found.differences())
    return Hint(NOT_UNIQUE, play, sentences.several_sentence(differ), differ=differ, solutions=found.solutions)


def _checked(play: Puzzle, step: Step, known: Solution) -> Puzzle:
    """The play after the step, which the known solution must still extend; else InvalidSolution."""
    after = with_step(play, step)
    wrong = violations(after, known)
    if wrong:
        raise InvalidSolution(f"hint ({step.kind})", wrong)
    return after


def _mistake(play: Puzzle, time_limit: float | None) -> Hint:
    """The fewest cells of the play to take back, checked; or the puzzle has no solution at all."""
    from cpflow.engines.closest import closest

    found = closest(play, play.drawn, time_limit)
    if found.status is Status.UNSOLVABLE:
        seconds = SECONDS if time_limit is None else min(SECONDS, time_limit)
        why = explanation(play, Status.UNSOLVABLE, seconds)  # the puzzle's, not the play's (why leaves it out)
        said = why.sentence if why else ""
        return Hint(UNSOLVABLE, play, f"the puzzle has no solution, whatever is drawn. {said}".strip(), why=why)
    if found.status is Status.UNKNOWN:
        return Hint(UNKNOWN, play, "the time limit came before the mistake was found")
    assert found.solution is not None  # neither unsolvable nor unknown: solved, with a solution
    kept = replace(play, drawn={node: c for node, c in play.drawn.items() if node not in found.changed})
    wrong = violations(kept, found.solution)
    if wrong or not found.changed:
        raise InvalidSolution("hint (mistake)", wrong or ["no cell to take back, yet the play cannot be finished"])
    reason = sentences.mistake_sentence(found.changed, conflict(play))
    return Hint(MISTAKE, play, reason, wrong=found.changed)


def grade(hints: Sequence[Hint], seconds: float = 0.0) -> Grade:
    """Steps of each kind in a chain, the deepest what if, and the grade they give (None unless the
    chain reached a solution)."""
    steps = [h.step for h in hints if h.step]
    counted = Counter(step.kind for step in steps)
    depth = max((step.depth for step in steps), default=0)
    end = hints[-1].status if hints else SOLVED
    name = GRADES[3 if counted["guess"] else min(depth, 2)] if end == SOLVED else None
    return Grade({kind: counted[kind] for kind in STEP_KINDS}, depth, name, end, seconds)


def graded(play: Puzzle, time_limit: float | None = None, known: Solution | None = None) -> Grade:
    """The grade of the chain from the play to the end (`time_limit`: on the solve it starts from;
    `known`: a solution, as `chain` takes)."""
    began = time.perf_counter()
    hints = list(chain(play, time_limit, known))
    return grade(hints, time.perf_counter() - began)

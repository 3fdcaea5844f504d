"""A tiny engine, to show that an engine is one module and one catalog entry (tests/test_tiny_engine.py).

Its model is the puzzle itself and its search tries every combination of simple paths
(tests/brute.py): boards of a few dozen cells at most. It has no `count` (the pipeline
counts it by exclusion) and no `export`; its entry, `ENTRY`, is added to the catalog for a
test with `cpflow.engines.catalog.added`, and cpflow is not edited.
"""

from __future__ import annotations

from collections.abc import Sequence

from brute import brute_solutions

from cpflow.board.grid import Puzzle, Solution, differ
from cpflow.clock import Deadline
from cpflow.deduce.rules import Partial
from cpflow.engines.base import Answer
from cpflow.engines.catalog import Engine
from cpflow.results import Status

ENTRY = Engine(
    name="tiny",
    family="brute force",
    module="tiny_engine",
    formulation="brute",
    needs="cpflow",
    summary="every combination of simple paths, for boards of a few dozen cells",
    rule_sets=("flow",),
    kinds=(),
)


def available() -> bool:
    """Nothing to install: the search is Python's."""
    return True


def build(puzzle: Puzzle, deadline: Deadline, root: Partial | None = None) -> Puzzle:
    """The model is the puzzle: brute force needs nothing built (nor the front end's `root`); OutOfTime
    when the deadline has passed already."""
    deadline.check()
    return puzzle


def search(
    puzzle: Puzzle, deadline: Deadline, *, exclude: Sequence[Solution] = (), workers: int | None = None
) -> Answer:
    """The first combination of paths the verifier accepts that is none of `exclude`."""
    for solution in brute_solutions(puzzle):
        if deadline.left() == 0:
            return Answer(Status.UNKNOWN, None, {"stopped": "searching"})
        if all(differ(solution, other) for other in exclude):
            return Answer(Status.SOLVED, solution, {"by": "brute force"})
    return Answer(Status.UNSOLVABLE)

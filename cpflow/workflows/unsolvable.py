"""Why a puzzle a command found unsolvable has no solution, for every face (CLI, web, hints)."""

from __future__ import annotations

from cpflow.board.grid import Puzzle
from cpflow.engines.why import Why, why
from cpflow.results import Status

SECONDS = 10  # the most an explanation may take after the verdict


def explanation(puzzle: Puzzle, status: Status) -> Why | None:
    """For an unsolvable puzzle, a smallest set of requirements that cannot hold (cpflow.engines.why);
    None for any other status, or when none was found in time."""
    return why(puzzle, SECONDS) if status is Status.UNSOLVABLE else None

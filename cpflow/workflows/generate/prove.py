"""A puzzle proven unique from a cover of the board: the cover's ends become the endpoints; while
the solver finds a second solution, a path through a cell where the two differ is split in two."""

from __future__ import annotations

import string
import time
from dataclasses import dataclass, replace
from random import Random

from cpflow.board.grid import Path, Puzzle, Rules, Solution
from cpflow.board.verify import violations
from cpflow.errors import GenerationFailed, InvalidSolution
from cpflow.workflows.generate.cover import cover, kept, split
from cpflow.workflows.generate.order import TRIES, Order
from cpflow.workflows.unique import SAME_EACH_RUN, Verdict, uniqueness

GRADE_TRIES = 300  # covers per puzzle of a grade asked for (each graded by its hint chain)
# The game's letters first; '0' is left out, as a file of letters and '0' reads as the zero format.
GAME = "RBYGOCMmPAWgTbcp"
NAMES = GAME + "".join(c for c in string.ascii_letters + string.digits[1:] if c not in GAME)


@dataclass(frozen=True)
class Generated:
    """A puzzle proven unique, its solution, and what it took to make."""

    puzzle: Puzzle
    solution: Solution
    covers: int  # random covers tried
    repairs: int  # paths split to remove second solutions
    seconds: float


def generate(order: Order, board: Puzzle, rng: Random, tries: int = TRIES) -> Generated:
    """One puzzle of the order on the board (the order's, carved), proven unique (and of its grade:
    covers are made until one grades so, GRADE_TRIES at most)."""
    began = time.perf_counter()
    tries = min(tries, GRADE_TRIES) if order.grade else tries
    for covers in range(1, tries + 1):
        made = make_unique(order, board, cover(board, order.colours, rng, tries), rng)
        if made and (order.grade is None or _grade(*made[:2]) == order.grade):
            puzzle, solution, repairs = made
            return Generated(puzzle, solution, covers, repairs, time.perf_counter() - began)
    low, high = order.colours
    size = f"{board.width}x{board.height}"
    if order.grade:
        raise GenerationFailed(
            f"no unique {size} puzzle of grade {order.grade} with {low}-{high} colours in {tries} covers; "
            "harder puzzles come more often on bigger boards with fewer colours"
        )
    raise GenerationFailed(f"no unique {size} puzzle with {low}-{high} colours in {tries} covers")


def _grade(puzzle: Puzzle, solution: Solution) -> str | None:
    """The grade of a puzzle's hint chain (cpflow.workflows.hints), from its solution."""
    from cpflow.workflows.hints import graded

    return graded(puzzle, known=solution).grade


def make_unique(order: Order, board: Puzzle, paths: list[Path], rng: Random) -> tuple[Puzzle, Solution, int] | None:
    """The puzzle of a cover, repaired until unique: (puzzle, solution, repairs), or None.

    While the solver finds a second solution (one that may touch itself, for a touch-proof
    order), a path through a cell where the two differ is split in two. None when that
    would need more than the order's colours, or when a uniqueness proof runs out of time.
    """
    paths, repairs = list(paths), 0
    rules = Rules(touch=order.touch_proof)
    while len(paths) <= order.colours[1]:
        puzzle, solution = puzzle_of(board, paths)
        found = uniqueness(replace(puzzle, rules=rules), time_limit=order.time_limit, workers=1, **SAME_EACH_RUN)
        if found.verdict is Verdict.UNIQUE:
            return puzzle, solution, repairs
        if found.verdict is not Verdict.NOT_UNIQUE or not split(paths, set(found.differences()), rng, kept(board)):
            return None
        repairs += 1
    return None


def puzzle_of(board: Puzzle, paths: list[Path]) -> tuple[Puzzle, Solution]:
    """The puzzle whose endpoints are the paths' ends, colours named in reading order."""
    oriented = sorted(path if path[0] < path[-1] else path[::-1] for path in paths)
    names = NAMES if len(oriented) <= len(NAMES) else [str(i) for i in range(1, len(oriented) + 1)]
    solution = Solution({names[i]: path for i, path in enumerate(oriented)})
    puzzle = replace(board, endpoints={k: (p[0], p[-1]) for k, p in solution.paths.items()}, name="")
    found = violations(puzzle, solution)
    if found:
        raise InvalidSolution("generate", found)
    return puzzle, solution

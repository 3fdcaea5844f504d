"""Solving many puzzles: one after another, or on a pool of processes, results in input order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from cpflow.board.grid import Puzzle
from cpflow.engines.registry import solve
from cpflow.engines.result import SolveResult


def solve_all(puzzles: Sequence[Puzzle], jobs: int = 1, **options) -> Iterator[SolveResult]:
    """Each puzzle's result, in the order given; `jobs` > 1 solves on that many processes.

    Each process imports the solver once (about 0.3 s), so a pool pays off on batches
    whose solving takes longer than that; see README's performance section.
    """
    work = partial(_solve, options=options)
    if jobs <= 1 or len(puzzles) <= 1:
        yield from map(work, puzzles)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(puzzles))) as pool:
        yield from pool.map(work, puzzles)


def _solve(puzzle: Puzzle, options: dict) -> SolveResult:
    return solve(puzzle, **options)

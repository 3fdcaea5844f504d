"""Solving many puzzles: one after another, or on a pool of processes, results in input order."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator, Sequence
from functools import partial

from cpflow.board.grid import Puzzle
from cpflow.engines.registry import solve
from cpflow.engines.result import SolveResult


def solve_all(puzzles: Sequence[Puzzle], jobs: int = 1, **options) -> Iterator[SolveResult]:
    """Each puzzle's result, in the order given; `jobs` > 1 solves on that many processes.

    Each process imports the solver once (about 0.3 s), so a pool pays off on batches
    whose solving takes longer than that; see README's performance section. Ctrl-C
    (KeyboardInterrupt in this process) ends the pool's processes at once.
    """
    work = partial(_solve, options=options)
    if jobs <= 1 or len(puzzles) <= 1:
        yield from map(work, puzzles)
        return
    pool = multiprocessing.Pool(min(jobs, len(puzzles)), initializer=_leave_interrupts_to_the_parent)
    try:
        yield from pool.imap(work, puzzles)
        pool.close()
    finally:
        pool.terminate()  # at once, on an interrupt or an error; a no-op once closed and done
        pool.join()


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _solve(puzzle: Puzzle, options: dict) -> SolveResult:
    return solve(puzzle, **options)

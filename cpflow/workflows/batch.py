"""Working through many puzzles: one after another, or on a pool of processes, in input order."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

from cpflow.board.grid import Puzzle
from cpflow.engines.registry import solve
from cpflow.engines.result import SolveResult
from cpflow.workflows.unique import Count, Uniqueness, count, uniqueness

Answer = TypeVar("Answer")


def each(work: Callable[[Puzzle], Answer], puzzles: Sequence[Puzzle], jobs: int = 1) -> Iterator[Answer]:
    """`work` done on each puzzle, answers in the order given; `jobs` > 1 works on that many processes.

    Each process imports the solver once (about 0.3 s), so a pool pays off on batches
    whose work takes longer than that; see README's performance section. Ctrl-C
    (KeyboardInterrupt in this process) ends the pool's processes at once.
    """
    if jobs <= 1 or len(puzzles) <= 1:
        yield from map(work, puzzles)
        return
    with _interrupts_held():
        pool = multiprocessing.Pool(min(jobs, len(puzzles)), initializer=_leave_interrupts_to_the_parent)
    try:
        yield from pool.imap(work, puzzles)
        pool.close()
    finally:
        pool.terminate()  # at once, on an interrupt or an error; nothing left to end after a close
        pool.join()


def solve_all(puzzles: Sequence[Puzzle], jobs: int = 1, **options) -> Iterator[SolveResult]:
    """Each puzzle solved (`registry.solve` options), in the order given."""
    return each(partial(_solve, options=options), puzzles, jobs)


def uniqueness_all(puzzles: Sequence[Puzzle], jobs: int = 1, **options) -> Iterator[Uniqueness]:
    """Each puzzle's uniqueness verdict (`unique.uniqueness` options), in the order given."""
    return each(partial(_uniqueness, options=options), puzzles, jobs)


def count_all(puzzles: Sequence[Puzzle], limit: int, jobs: int = 1, **options) -> Iterator[Count]:
    """Each puzzle's solutions counted up to `limit` (`unique.count` options), in the order given."""
    return each(partial(_count, limit=limit, options=options), puzzles, jobs)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT waits (where POSIX allows) while processes start, so none takes it before it ignores it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


# Module-level, so that a pool can pickle them.
def _solve(puzzle: Puzzle, options: dict) -> SolveResult:
    return solve(puzzle, **options)


def _uniqueness(puzzle: Puzzle, options: dict) -> Uniqueness:
    return uniqueness(puzzle, **options)


def _count(puzzle: Puzzle, limit: int, options: dict) -> Count:
    return count(puzzle, limit, **options)

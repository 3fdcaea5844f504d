"""Working through many items (puzzles, runs, boards to make): here one after another, on a pool
of processes, or on a Dask cluster; answers always come back in input order, as they finish.

Glossary
- work: a module-level function of one item (so that it pickles), e.g. `partial(_solve, options=...)`
- Where: where a batch runs, from `--jobs N` and `--cluster ADDRESS`, e.g. `Where(jobs=2)`,
  `Where(cluster="local:2")`, `Where(cluster="tcp://10.0.0.5:8786")`
- Failed: the answer for an item whose work was refused on bad input (a board too large for free
  memory, an engine not installed); it stands in that item's place and the others go on
"""

from __future__ import annotations

import multiprocessing
import re
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from cpflow.board.errors import EngineUnavailable, ModelTooLarge, PuzzleFormatError
from cpflow.board.grid import Puzzle
from cpflow.engines.children import sweep
from cpflow.engines.registry import solve
from cpflow.engines.result import SolveResult
from cpflow.workflows.unique import Count, Uniqueness, count, uniqueness

Item = TypeVar("Item")
Answer = TypeVar("Answer")
LOCAL = "local"  # --cluster local[:N]: a LocalCluster of N worker processes on this machine
REFUSED = (PuzzleFormatError, ModelTooLarge, EngineUnavailable)  # bad input for one item: exit 2, the rest go on


@dataclass(frozen=True)
class Where:
    """Where a batch runs: here (jobs 1), on a pool of `jobs` processes, or on the Dask cluster at
    `cluster` (a scheduler address such as 'tcp://host:8786', or 'local' / 'local:N')."""

    jobs: int = 1
    cluster: str | None = None

    @classmethod
    def of(cls, jobs: int = 1, cluster: str | None = None) -> Where:
        """From the command line's --jobs and --cluster; ValueError on a cluster address that cannot be one,
        or on both at once."""
        if cluster is None:
            return cls(jobs)
        if jobs > 1:
            raise ValueError("use --jobs N or --cluster ADDRESS, not both")
        if not re.fullmatch(rf"{LOCAL}(:[1-9]\d*)?|([a-z]+://)?[\w.\-\[\]:]+:\d+", cluster.strip()):
            raise ValueError(f"{cluster!r} is not 'local', 'local:N' or a scheduler address like tcp://host:8786")
        return cls(1, cluster.strip())


@dataclass(frozen=True)
class Failed:
    """An item's work refused on bad input: the one line that says why, as the CLI prints it."""

    line: str


def each(
    work: Callable[[Item], Answer],
    items: Sequence[Item],
    where: Where | int = 1,
    setup: Callable[[], object] | None = None,
) -> Iterator[Answer | Failed]:
    """`work` done on each item, answers (or Failed) in the order given, each as soon as it and those
    before it are done. `where` is a Where or a number of jobs; `setup` runs once in each process
    that works (a warm-up), before its first item.

    Each process imports the solver once (about 0.3 s), so a pool pays off on batches
    whose work takes longer than that; see README's performance section. Ctrl-C
    (KeyboardInterrupt in this process) ends the pool's processes, or cancels the
    cluster's tasks, at once.
    """
    where = where if isinstance(where, Where) else Where(where)
    guarded = partial(_guarded, work)
    if where.cluster is not None:
        from cpflow.workflows.cluster import each_on_cluster  # Dask is imported only here

        label = getattr(getattr(work, "func", work), "__name__", "work").strip("_")  # solve, attempt, ...
        yield from each_on_cluster(guarded, items, where.cluster, setup, label)
        return
    if where.jobs <= 1 or len(items) <= 1:
        if setup:
            setup()
        yield from map(guarded, items)
        return
    with _interrupts_held():
        pool = multiprocessing.Pool(
            min(where.jobs, len(items)), initializer=partial(_leave_interrupts_to_the_parent, setup)
        )
    try:
        yield from pool.imap(guarded, items)
        pool.close()
    finally:
        pool.terminate()  # at once, on an interrupt or an error; nothing left to end after a close
        pool.join()
        sweep()  # the scratch folders of workers ended mid-solve


def solve_all(puzzles: Sequence[Puzzle], where: Where | int = 1, **options) -> Iterator[SolveResult | Failed]:
    """Each puzzle solved (`registry.solve` options), in the order given."""
    return each(partial(_solve, options=options), puzzles, where)


def uniqueness_all(puzzles: Sequence[Puzzle], where: Where | int = 1, **options) -> Iterator[Uniqueness | Failed]:
    """Each puzzle's uniqueness verdict (`unique.uniqueness` options), in the order given."""
    return each(partial(_uniqueness, options=options), puzzles, where)


def count_all(puzzles: Sequence[Puzzle], limit: int, where: Where | int = 1, **options) -> Iterator[Count | Failed]:
    """Each puzzle's solutions counted up to `limit` (`unique.count` options), in the order given."""
    return each(partial(_count, limit=limit, options=options), puzzles, where)


def _guarded(work: Callable[[Item], Answer], item: Item) -> Answer | Failed:
    """The work's answer, or Failed when it refuses the item on bad input; other errors (a bug, a
    generator giving up) go on up and stop the batch."""
    try:
        return work(item)
    except PuzzleFormatError as error:
        return Failed(str(error))
    except REFUSED as error:
        return Failed(f"cpflow: {error}")


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


def _leave_interrupts_to_the_parent(setup: Callable[[], object] | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's terminate() ends a worker at once
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if setup:
        setup()


# Module-level, so that a pool can pickle them.
def _solve(puzzle: Puzzle, options: dict) -> SolveResult:
    return solve(puzzle, **options)


def _uniqueness(puzzle: Puzzle, options: dict) -> Uniqueness:
    return uniqueness(puzzle, **options)


def _count(puzzle: Puzzle, limit: int, options: dict) -> Count:
    return count(puzzle, limit, **options)

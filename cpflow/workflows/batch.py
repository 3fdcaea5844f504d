"""Working through many items (puzzles, runs, boards to make): here one after another, on a pool
of processes, or on a Dask cluster; answers always come back in input order, as they finish.

Glossary
- work: a module-level function of one item (so that it pickles), e.g. `partial(_solve, options=...)`
- Where, Failed: where a batch runs, and an item's answer when its work gave none (cpflow.workflows.items)
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cpflow.board.grid import Puzzle
from cpflow.outputs import interrupts_held
from cpflow.results import SolveResult
from cpflow.workflows.items import BUG, Failed, Where, guarded, name_of
from cpflow.workflows.unsolvable import Explained, proven, solved

if TYPE_CHECKING:  # proofs' and counts' types: `cpflow solve` imports no proof (start-up time)
    from cpflow.workflows.unique import Count, Uniqueness

Item = TypeVar("Item")
Answer = TypeVar("Answer")


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
    whose work takes longer than that; see docs/benchmarks.md. Ctrl-C
    (KeyboardInterrupt in this process) ends the pool's processes, or cancels the
    cluster's tasks, at once.
    """
    where = where if isinstance(where, Where) else Where(where)
    safe = partial(guarded, work)
    if where.cluster is not None:
        from cpflow.workflows.cluster import each_on_cluster  # Dask is imported only here

        label = getattr(getattr(work, "func", work), "__name__", "work").strip("_")  # solve, attempt, ...
        yield from each_on_cluster(safe, items, where.cluster, setup, label)
        return
    if where.jobs <= 1 or len(items) <= 1:
        if setup:
            setup()
        yield from map(safe, items)
        return
    yield from _on_processes(safe, items, min(where.jobs, len(items)), setup)


def _on_processes(
    work: Callable[[Item], Answer | Failed], items: Sequence[Item], jobs: int, setup: Callable[[], object] | None
) -> Iterator[Answer | Failed]:
    """`work` on each item on `jobs` processes of this machine, answers in input order. A process that
    dies in an item (killed for memory, a crash in a solver's native code) leaves that item a Failed
    and a new process takes its place: a multiprocessing.Pool would wait for the lost item forever.
    (multiprocessing and the children's sweep are imported here, by the batches that use them: one
    board pays nothing for them.)"""
    import multiprocessing.connection

    from cpflow.engines.children import sweep

    with interrupts_held():
        workers = [_Worker(work, setup) for _ in range(jobs)]
    answers: dict[int, Answer | Failed] = {}  # by item number, until those before are given out
    given = done = 0
    try:
        while done < len(items):
            for worker in workers:
                if worker.number is None and given < len(items):
                    worker.give(given, items[given])
                    given += 1
            busy = [worker for worker in workers if worker.number is not None]
            multiprocessing.connection.wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
            for k, worker in enumerate(workers):
                # A worker is replaced only once it holds no item, so none is lost: a process that died
                # between two looks is answered (Failed) first, at the next round if not at this one.
                # And one that was dying at the look (alive, its pipe at EOF) is replaced too, once
                # answered: given another item, it failed that item as well (EPIPE, or a second death).
                alive = worker.process.is_alive()
                if worker.number is not None and (worker.connection.poll() or not alive):
                    number, answer = worker.answer(items)
                    answers[number] = answer
                if worker.number is None and not worker.process.is_alive():
                    worker.end()
                    with interrupts_held():
                        workers[k] = _Worker(work, setup)
            while done in answers:
                answer = answers.pop(done)
                if isinstance(answer, _Raised):
                    raise answer.error
                yield answer
                done += 1
    finally:  # done, interrupted or abandoned: at once
        for worker in workers:
            worker.end()
        sweep()  # the scratch folders of workers ended mid-solve


class _Worker:
    """One process of `_on_processes`: an item at a time in through a pipe, its answer back."""

    def __init__(self, work: Callable, setup: Callable[[], object] | None):
        import multiprocessing

        self.connection, theirs = multiprocessing.Pipe()
        # The worker's parent is this process unless a fork server starts it (its parent then): the worker
        # dies with whichever it is, and the fork server ends when this process does.
        parent = None if multiprocessing.get_start_method() == "forkserver" else os.getpid()
        self.process = multiprocessing.Process(target=_serve, args=(theirs, work, setup, parent), daemon=True)
        self.process.start()
        theirs.close()
        self.number: int | None = None  # the item it works on

    def give(self, number: int, item) -> None:
        self.connection.send(item)
        self.number = number

    def answer(self, items: Sequence) -> tuple[int, Any]:
        """The item's number and its answer, or a Failed when the process died in it (asked only of a
        worker given an item)."""
        number, self.number = cast(int, self.number), None
        try:
            return number, self.connection.recv()
        except (EOFError, OSError):
            self.process.join(1)
            return number, Failed(f"{name_of(items[number])}: error: {_death(self.process.exitcode)}; {BUG}", bug=True)

    def end(self) -> None:
        self.process.terminate()
        self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


def _serve(connection, work: Callable, setup: Callable[[], object] | None, parent: int | None) -> None:
    """A worker process: items in, answers out, until the pipe closes; it dies with its parent, even one
    killed with SIGKILL (Linux), rather than live on as an orphan."""
    from cpflow.engines.children import die_with_parent

    die_with_parent(parent)
    _leave_interrupts_to_the_parent(setup)
    while True:
        try:
            item = connection.recv()
        except EOFError:
            return
        try:
            answer = work(item)
        except Exception as error:  # the work's answer by exception (ANSWERS): raised again in the parent
            answer = _Raised(error)
        connection.send(answer)


@dataclass(frozen=True)
class _Raised:
    """What a worker process's work raised, carried back to be raised in the parent as a pool would."""

    error: Exception


def _death(exitcode: int | None) -> str:
    """How a worker process ended, e.g. `its process was killed (SIGKILL: out of memory?)`."""
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        return f"its process was killed ({name}{': out of memory?' if name == 'SIGKILL' else ''})"
    return f"its process ended (exit code {exitcode})"


def solve_all(
    puzzles: Sequence[Puzzle], where: Where | int = 1, explain: bool = False, **options
) -> Iterator[Explained[SolveResult] | Failed]:
    """Each puzzle solved (`pipeline.solve` options), in the order given; with `explain`, an unsolvable
    one with why (cpflow.workflows.unsolvable), worked out as part of its item."""
    return each(partial(solved, explain=explain, **options), puzzles, where)


def uniqueness_all(
    puzzles: Sequence[Puzzle], where: Where | int = 1, explain: bool = False, **options
) -> Iterator[Explained[Uniqueness] | Failed]:
    """Each puzzle's uniqueness verdict (`unique.uniqueness` options), in the order given; with `explain`,
    an unsolvable one with why."""
    return each(partial(proven, explain=explain, **options), puzzles, where)


def count_all(puzzles: Sequence[Puzzle], limit: int, where: Where | int = 1, **options) -> Iterator[Count | Failed]:
    """Each puzzle's solutions counted up to `limit` (`unique.count` options), in the order given."""
    return each(partial(_count, limit=limit, options=options), puzzles, where)


def grade_all(puzzles: Sequence[Puzzle], where: Where | int = 1, time_limit: float | None = None) -> Iterator:
    """Each puzzle's hint chain graded (deduce.hints.Grade), in the order given."""
    return each(partial(_grade, time_limit=time_limit), puzzles, where)


def _leave_interrupts_to_the_parent(setup: Callable[[], object] | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's terminate() ends a worker at once
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if setup:
        setup()


# Module-level, so that a pool can pickle them.
def _count(puzzle: Puzzle, limit: int, options: dict) -> Count:
    from cpflow.workflows.unique import count  # only counting needs it (start-up time)

    return count(puzzle, limit, **options)


def _grade(puzzle: Puzzle, time_limit: float | None):
    from cpflow.workflows.hints import graded  # only grading needs the hint chain (start-up time)

    return graded(puzzle, time_limit)

"""The front end's search goes on while an engine solves, when its budget ran out before it
answered (cpflow.engines.front): the first to answer wins, and the other stops.

Neither is sure to win: on most boards of 40x20 to 50x50 the search answers first, on some
the engine does by seconds (models/forced.md, "The race"). A search that lets go of the
interpreter (`in_thread`: the compiled one) runs in a thread of its own from the hand-over,
while the engine builds its model and while it solves. The Python search would slow the
engine's Python down, so it runs in the engine's waits instead: while it waits for its
solver (CP-SAT lets go of the interpreter while it searches), the engine gives the search
slices of its waiting time (`spend`). When the search answers, the engine's deadlines are
called off (cpflow.clock.stopped_by) and it stops within a slice; when the
engine answers, the search's thread is stopped and joined before the solve returns:
nothing of the race outlives it. Only an engine that waits so (`Engine.races`) is raced.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cpflow.board.grid import Solution
from cpflow.clock import Deadline, OutOfTime, stopped_by
from cpflow.engines.front import answer, first_new
from cpflow.results import SolveResult, Status

if TYPE_CHECKING:
    from cpflow.deduce.search import Searching

ENDLESS = 1 << 62  # branches: the search goes on until it answers or its slice ends


class Rival:
    """The search beside an engine: in a thread of its own (`run`, stopped by `quit`), or in the
    slices of the engine's waits it is given (`work`)."""

    def __init__(self, search: Searching, exclude: Sequence[Solution], deadline: Deadline):
        self.search, self.exclude, self.deadline = search, exclude, deadline
        self.done = threading.Event()  # set when the search has answered
        self.found: Solution | None = None
        self.quit = threading.Event()  # set when the engine has answered: the search's thread stops

    def run(self) -> None:
        """Search on until an answer, the deadline or `quit` (in a thread of its own)."""
        try:
            self.found = first_new(self.search, self.exclude, ENDLESS, self.deadline.until(self.quit))
        except Exception:  # OutOfTime, or the search failed (MemoryError): the engine answers alone
            return
        self.done.set()

    def work(self, seconds: float) -> None:
        """Search on for up to `seconds` (never past the deadline); set `done` on an answer."""
        left = self.deadline.left()
        piece = Deadline(seconds if left is None else min(seconds, left))
        try:
            self.found = first_new(self.search, self.exclude, ENDLESS, piece)
        except OutOfTime:
            return
        self.done.set()

    def result(self, began: float) -> SolveResult:
        """The search's answer, timed from `began`."""
        status = Status.SOLVED if self.found else Status.UNSOLVABLE
        return answer(status, self.found, began, by="search beside the engine")


_thread = threading.local()  # `rival`: the search beside the engine running in this thread


@contextmanager
def beside(rival: Rival | None) -> Iterator[None]:
    """Within: the engine's waits go to the rival's search, whose answer calls off its deadlines."""
    if rival is None:
        yield
        return
    thread = None
    if rival.search.in_thread:
        thread = threading.Thread(target=rival.run, name="cpflow-search", daemon=True)
        thread.start()
    else:
        _thread.rival = rival
    try:
        with stopped_by(rival.done):
            yield
    finally:
        if thread is None:
            del _thread.rival
        else:
            rival.quit.set()
            thread.join()  # within a slice of the compiled search (cpflow.deduce.compiled.SLICE)


def spend(seconds: float) -> bool:
    """Spend `seconds` of an engine's wait on the search beside it, if one still runs: whether it did."""
    rival: Rival | None = getattr(_thread, "rival", None)
    if rival is None or rival.done.is_set():
        return False
    rival.work(seconds)
    return True

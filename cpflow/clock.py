"""A time limit that building a model keeps, as the solver keeps its own.

Building a big model in Python can take longer than the whole limit (a 50x50 board's
ILP took 16 s under a 1 s limit). The builders call `check()` as they go; past the
deadline it raises OutOfTime, which the engine turns into an `unknown` answer. What
must happen after a stop (freeing a big model, a solver that stops late) is kept out
of the limit with `earlier`.

A deadline can also be called off early by an event (`until`): the race of the front
end's search and an engine (cpflow.engines.race) stops the loser so. An engine builds its
own deadlines from a time limit; those made in a thread running `stopped_by(event)` are
called off by that event too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class OutOfTime(Exception):
    """The time limit passed while a model was being built; engines catch it."""


class Deadline:
    """`time_limit` seconds after `began` (a perf_counter reading), or never for None."""

    def __init__(self, time_limit: float | None = None, began: float | None = None):
        start = time.perf_counter() if began is None else began
        self.at = None if time_limit is None else start + time_limit
        self.stop: threading.Event | None = getattr(_thread, "stop", None)  # calls the deadline off when set

    def left(self) -> float | None:
        """Seconds left (0 when past or called off), or None when there is no limit."""
        if self.stop is not None and self.stop.is_set():
            return 0.0
        return None if self.at is None else max(0.0, self.at - time.perf_counter())

    def earlier(self, seconds: float) -> Deadline:
        """The deadline `seconds` before this one."""
        sooner = Deadline()
        sooner.at = None if self.at is None else self.at - seconds
        sooner.stop = self.stop
        return sooner

    def within(self, seconds: float) -> Deadline:
        """This deadline, or `seconds` from now if that comes first (called off as this one is)."""
        piece = self.earlier(0.0)
        end = time.perf_counter() + seconds
        piece.at = end if piece.at is None else min(piece.at, end)
        return piece

    def until(self, stop: threading.Event) -> Deadline:
        """This deadline, also called off when `stop` is set (one event: this one's is replaced)."""
        called = Deadline()
        called.at, called.stop = self.at, stop
        return called

    def check(self) -> None:
        """Raise OutOfTime when the deadline has passed or been called off."""
        if (self.at is not None and time.perf_counter() > self.at) or (self.stop is not None and self.stop.is_set()):
            raise OutOfTime


_thread = threading.local()  # `stop`: the event that calls off the deadlines made in this thread


@contextmanager
def stopped_by(stop: threading.Event) -> Iterator[None]:
    """Within: every Deadline made in this thread is called off when `stop` is set."""
    _thread.stop = stop
    try:
        yield
    finally:
        del _thread.stop


NEVER = Deadline()

"""A time limit that building a model keeps, as the solver keeps its own.

Building a big model in Python can take longer than the whole limit (a 50x50 board's
ILP took 16 s under a 1 s limit). The builders call `check()` as they go; past the
deadline it raises OutOfTime, which the engine turns into an `unknown` answer. What
must happen after a stop (freeing a big model, a solver that stops late) is kept out
of the limit with `earlier`.
"""

from __future__ import annotations

import time


class OutOfTime(Exception):
    """The time limit passed while a model was being built; engines catch it."""


class Deadline:
    """`time_limit` seconds after `began` (a perf_counter reading), or never for None."""

    def __init__(self, time_limit: float | None = None, began: float | None = None):
        start = time.perf_counter() if began is None else began
        self.at = None if time_limit is None else start + time_limit

    def left(self) -> float | None:
        """Seconds left (0 when past), or None when there is no limit."""
        return None if self.at is None else max(0.0, self.at - time.perf_counter())

    def earlier(self, seconds: float) -> Deadline:
        """The deadline `seconds` before this one."""
        sooner = Deadline()
        sooner.at = None if self.at is None else self.at - seconds
        return sooner

    def check(self) -> None:
        """Raise OutOfTime when the deadline has passed."""
        if self.at is not None and time.perf_counter() > self.at:
            raise OutOfTime


NEVER = Deadline()

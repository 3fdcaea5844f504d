"""What a server accepts: caps on board size, request size, time, counting, the queue, the
bytes of request bodies held at once, open connections, and how long a client may take to
send a request or to take its answer.

The defaults keep one request within a few seconds and a few hundred MiB on a small
machine, and drop a client that stalls (one byte a second holds nothing for long);
`cpflow serve` can change the worker and queue counts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The caps of one server."""

    max_cells: int = 2_500  # e.g. 50x50: a CP-SAT solve of a few seconds
    max_side: int = 125  # so that thin boards such as 125x2 pass
    max_bytes: int = 256 * 1024  # a request's body
    max_image_bytes: int = 16 * 1024 * 1024  # a screenshot's body (/api/import): a phone's PNG is a few MiB
    max_buffered: int = 64 * 1024 * 1024  # the bodies of every request at once (screenshots: 3/4 of it); 503 past it
    max_connections: int = 1_000  # open at once: a new one closes the oldest idle one, or answers 503
    time_limit: float = 10.0  # seconds, when a request names none
    max_time_limit: float = 30.0  # seconds: a request asking more is refused
    grace: float = 5.0  # seconds past its time limit before a job is stopped by force
    max_count: int = 1_000  # solutions counted at most
    workers: int = max(1, os.cpu_count() or 1)  # worker processes
    queue: int = 32  # requests waiting for a worker beyond those running; more answer 503
    header_timeout: float = 10.0  # seconds to send a request's line and headers, from connecting (or its first byte)
    body_timeout: float = 60.0  # seconds for its body to arrive (16 MiB at 280 KB/s); 408 past it
    stall_timeout: float = 60.0  # seconds an answer may wait for a client that does not read it
    idle_timeout: float = 5.0  # seconds a kept-alive connection may wait for its next request
    max_header_bytes: int = 16 * 1024  # a request's line and headers

    def size_problem(self, width: int, height: int) -> str | None:
        """Why a board of this size is refused, or None when it is accepted."""
        if width * height > self.max_cells or max(width, height) > self.max_side:
            return (
                f"board of {width}x{height} is over this server's limit "
                f"({self.max_cells} cells, {self.max_side} a side)"
            )
        return None

"""What request bodies may hold of the server's memory, and giving it back after large ones.

A body is read in pieces as it arrives (never more than its path's cap), and every piece
counts against one `Budget` shared by all the requests in hand: past it, the request answers
503. Bodies to a path with a larger cap (screenshots) leave a quarter of the budget to the
others, so that a few stalled uploads cannot turn away every solve.

glibc keeps memory it was given back in its heap (a 16 MiB screenshot read as 64 KiB pieces
leaves holes between smaller allocations), so that a server that took many at once stayed at
its peak: `give_back()` asks it to return what is free to the system (`malloc_trim`).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

LARGE = 1024 * 1024  # bytes held by one request past which its end gives memory back


class Budget:
    """The bytes of request bodies held at once, across requests, and their cap."""

    def __init__(self, most: int):
        self.most, self.held = most, 0

    def room(self, large: bool) -> int:
        """The bytes a body may still take (one to a larger cap leaves a quarter of the budget)."""
        return self.most - (self.most // 4 if large else 0) - self.held

    def take(self, size: int, large: bool) -> bool:
        """Hold `size` more bytes if they fit; whether they did."""
        if size > self.room(large):
            return False
        self.held += size
        return True

    def give(self, size: int) -> None:
        self.held -= size


def give_back() -> None:
    """Return the heap's free memory to the system (glibc's malloc_trim; nothing elsewhere)."""
    trim = _trim()
    if trim is not None:
        trim(0)


@cache
def _trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc (musl, macOS, Windows)
        return None

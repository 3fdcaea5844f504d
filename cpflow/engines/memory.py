"""The memory guard: a model that would not fit in free memory is refused before it is built.

What a model takes is the catalog's (`Engine.model_bytes`, from figures measured in
models/memory.md); what is free is the kernel's (Linux's MemAvailable).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from cpflow.board.grid import Puzzle
from cpflow.errors import ModelTooLarge

if TYPE_CHECKING:
    from cpflow.engines.catalog import Engine


def free_memory() -> int | None:
    """The bytes of memory free for a new model (Linux's MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_fits(entry: Engine, puzzle: Puzzle) -> None:
    """ModelTooLarge, before anything is built, when the engine's model of the puzzle would not fit
    in free memory."""
    need, free = entry.model_bytes(puzzle), free_memory()
    if free is not None and need > free:
        raise ModelTooLarge(
            f"{puzzle.name}: the {entry.name} model of this {puzzle.width}x{puzzle.height} board "
            f"with {len(puzzle.colours)} colours needs about {need / 2**30:.1f} GiB, "
            f"and {free / 2**30:.1f} GiB is free"
        )

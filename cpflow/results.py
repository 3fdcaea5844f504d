"""The one result type every engine returns."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from cpflow.board.grid import Solution


class Status(enum.StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # proven: no solution exists
    UNKNOWN = "unknown"  # the time limit came first


@dataclass(frozen=True)
class SolveResult:
    """What an engine found, how long it took (wall seconds) and the engine's own figures."""

    status: Status
    solution: Solution | None
    seconds: float  # build + solve
    build_seconds: float
    engine: str  # the catalog name, e.g. "cpsat" or "ilp-highs"
    stats: dict = field(default_factory=dict)

    @property
    def solve_seconds(self) -> float:
        return self.seconds - self.build_seconds

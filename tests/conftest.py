"""Shared fixtures: the project's puzzles, the shared benchmark sets, and board helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpflow.board.formats import load, parse
from cpflow.board.grid import Puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SHARED = ROOT.parent / "shared" / "puzzles"
ZUCKER = SHARED / "zucker"
LARGE = SHARED / "large"
VARIANTS = SHARED / "variants"


def board(text: str) -> Puzzle:
    """The one puzzle drawn in `text` (leading indentation and blank lines ignored)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return parse("\n".join(lines) + "\n", "<test>")[0]


def project_puzzles(solvable: bool = True) -> list[Path]:
    """The puzzles in puzzles/: those with a stored solution, or those without one."""
    found = [p for p in sorted(PUZZLES.glob("*.txt")) if not p.name.endswith(".solution.txt")]
    return [p for p in found if p.with_suffix(".solution.txt").exists() == solvable]


def cells(path: Path) -> int:
    """The number of cells of the (first) puzzle in a file."""
    puzzle = load(path)[0]
    return puzzle.width * puzzle.height


def zucker_puzzles() -> list[Path]:
    return sorted(ZUCKER.glob("*.txt")) if ZUCKER.is_dir() else []


needs_zucker = pytest.mark.skipif(not ZUCKER.is_dir(), reason="../shared/puzzles/zucker is absent")


def variant_levels() -> list[Path]:
    """The game's variant levels in ../shared (holes, walls, warps, bridges, hexagons, mixes)."""
    return sorted(VARIANTS.glob("*.level")) if VARIANTS.is_dir() else []


needs_variants = pytest.mark.skipif(not VARIANTS.is_dir(), reason="../shared/puzzles/variants is absent")

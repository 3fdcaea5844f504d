"""Shared by the bench scripts: time each puzzle in-process, time whole CLI runs, print tables."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "puzzles"


def puzzles(folder: str) -> list[Path]:
    """The puzzle files of a shared set, solutions left out; exits if the set is absent."""
    directory = SHARED / folder
    if not directory.is_dir():
        sys.exit(f"{directory} is absent: nothing to measure")
    return [p for p in sorted(directory.glob("*.txt")) if not p.name.endswith(".sol.txt")]


def boards(folder: str) -> list:
    """The first puzzle of each file of a shared set, its level files included."""
    from cpflow.board.formats import load

    paths = puzzles(folder) + sorted((SHARED / folder).glob("*.level"))
    return [puzzle for path in paths for puzzle in load(path)[:1]]


def time_puzzles(paths: list[Path], progress: bool = False, **options) -> list[dict]:
    """One row per puzzle: size, colours, build/solve/total seconds, status (printed as it goes if asked)."""
    from cpflow.board.formats import load
    from cpflow.engines.pipeline import solve

    warm()
    rows = []
    for path in paths:
        (puzzle,) = load(path)
        result = solve(puzzle, **options)
        rows.append(
            {
                "puzzle": path.stem,
                "size": f"{puzzle.width}x{puzzle.height}",
                "cells": puzzle.width * puzzle.height,
                "colours": len(puzzle.colours),
                "build": result.build_seconds,
                "solve": result.solve_seconds,
                "total": result.seconds,
                "status": result.status.value,
                "conflicts": result.stats.get("conflicts", 0),
            }
        )
        if progress:
            print(f"  {path.stem}: {result.status.value} in {result.seconds:.3f} s", file=sys.stderr, flush=True)
    return rows


def warm() -> None:
    """Import what solving may load (OR-Tools and the models), so no puzzle's time includes it."""
    from cpflow.engines import catalog

    for name in ("cpsat", "cpsat-circuit"):
        catalog.warm(name)


def time_command(args: list[str], repeat: int) -> tuple[list[float], int]:
    """Wall seconds of each of `repeat` runs of a command, and the largest peak RSS (KiB) of any."""
    seconds = []
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, check=False)
        seconds.append(time.perf_counter() - began)
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def peak_memory(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (MiB) of one run of a command."""
    began = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - began, usage.ru_maxrss // 1024


def print_rows(rows: list[dict], columns: list[str]) -> None:
    """A markdown table of the rows, then totals, medians and the worst puzzle."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(_cell(row[c]) for c in columns) + " |")
    worst = max(rows, key=lambda r: r["total"])
    total = sum(r["total"] for r in rows)
    build = sum(r["build"] for r in rows)
    median = statistics.median(r["total"] for r in rows)
    print(
        f"\n{len(rows)} puzzles: total {total:.3f} s (build {build:.3f} s), median {median:.3f} s, "
        f"worst {worst['total']:.3f} s ({worst['puzzle']})"
    )
    statuses = {s: sum(r["status"] == s for r in rows) for s in {r["status"] for r in rows}}
    print("statuses: " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))


def _cell(value) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)

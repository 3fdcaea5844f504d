"""Shared by the bench scripts: time each puzzle in-process, time whole CLI runs, print tables, and
save a table that README or docs quote (`--save`: docs/figures/NAME.md, with its date and command)."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "puzzles"
ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"


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


def saving(parser: argparse.ArgumentParser) -> None:
    """Give a bench script the `--save` option (see `recorded`)."""
    parser.add_argument(
        "--save", action="store_true", help="also write the output to docs/figures/, with the date and the command"
    )


@contextlib.contextmanager
def recorded(name: str, save: bool, note: str = "") -> Iterator[None]:
    """Print as usual; with `save`, also write what was printed to docs/figures/NAME.md under the
    date, the command (less --save), the commit and the machine (its load: other work slows a run), and
    `note` (a subset run, say).
    README and docs quote their figures from these files (tests/test_docs.py checks them)."""
    if not save:
        yield
        return
    began, load = datetime.date.today(), os.getloadavg()[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(_Tee(sys.stdout, printed)):
        yield
    command = shlex.join(["python", f"bench/{Path(sys.argv[0]).name}", *(a for a in sys.argv[1:] if a != "--save")])
    header = [
        f"# {name}",
        "",
        f"<!-- written by {command.split()[1]} --save: run it again rather than edit this file -->",
        "",
        f"- date: {began.isoformat()}",
        f"- command: `{command}`",
        f"- commit: {_commit()}",
        f"- machine: {os.cpu_count()} cores, load {load:.1f} at the start and {os.getloadavg()[0]:.1f} at the end, "
        f"Python {platform.python_version()}",
    ]
    FIGURES.mkdir(parents=True, exist_ok=True)
    text = "\n".join(header + ([f"- note: {note}"] if note else []) + ["", printed.getvalue().rstrip("\n"), ""])
    (FIGURES / f"{name}.md").write_text(text)


class _Tee(io.TextIOBase):
    """A stream that writes to several."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def package_at(against: str, into: Path | None = None) -> Path:
    """A folder (`into`, or a temporary one) holding cpflow/ as it was at a commit, or as a folder's
    cpflow/ is (its bytecode caches left out), with the C core as built here copied in (its source
    seldom changes): put it first on PYTHONPATH to run that cpflow in a process of its own. The caller
    removes the folder."""
    folder = into or Path(tempfile.mkdtemp(prefix="cpflow-at-"))
    folder.mkdir(exist_ok=True)
    if Path(against).is_dir():
        shutil.copytree(Path(against) / "cpflow", folder / "cpflow", ignore=shutil.ignore_patterns("__pycache__"))
    else:
        archive = subprocess.run(["git", "archive", against, "cpflow"], cwd=ROOT, capture_output=True, check=True)
        tarfile.open(fileobj=io.BytesIO(archive.stdout)).extractall(folder, filter="data")
    for built in (ROOT / "cpflow").rglob("*.so"):
        shutil.copy(built, folder / built.relative_to(ROOT))
    return folder


def _commit() -> str:
    """The commit measured, and the folders whose files differ from it (docs/figures aside)."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/figures"],
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    folders = sorted({line[3:].split("/")[0] + "/" * ("/" in line[3:]) for line in changed})
    return (head or "unknown") + (f", changed: {', '.join(folders)}" if folders else "")

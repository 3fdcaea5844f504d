"""Start-up: how long a whole `cpflow` process takes on one small board, side by side with
another commit, beside the bare interpreter.

    python bench/startup.py [--against COMMIT] [--runs 20] [--puzzle puzzles/starter_7x7.txt] [--shot PICTURE] [--save]

Each tree runs as a normal install (`pip install .`) would: its cpflow/ copied into a scratch
folder and compiled to bytecode, as pip does when it installs (without it every process compiles
cpflow's modules from source again, as an editable install does under PYTHONDONTWRITEBYTECODE),
then run as the `cpflow` script pip writes runs it (`python -S -P -c SCRIPT ARGUMENTS`) with
PYTHONPATH that folder and the environment's site-packages: no editable-install finder (an import
hook that costs every process of `pip install -e` more than 0.01 s) and no .pth file runs. The
tree measured is this folder's cpflow/ as it stands; with --against, also that commit's (exported
by `git archive`, this folder's compiled core copied beside it). The runs alternate between the
trees, --runs of each command; the table gives the median wall seconds and the median CPU seconds
(user and system, which other work on the machine disturbs less). Output goes to a pipe, as when
a script reads it. The board is small so that what is measured is the start-up: solving a 7x7
takes about a millisecond. With --shot, a whole `cpflow import PICTURE` instead (a phone screenshot:
its imports, OpenCV's and numpy's start, and the reading; its table is startup_import).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from common import ROOT, package_at, recorded, saving


def commands(puzzle: str, shot: str | None = None) -> dict[str, list[str]]:
    """Each command measured, by the name the table gives it (cpflow's arguments, or None: the interpreter)."""
    bare: dict[str, list[str]] = {"python -S -c pass": []}
    if shot:
        return bare | {f"cpflow import {Path(shot).name}": ["import", str(Path(shot).resolve())]}
    return bare | {
        "cpflow --version": ["--version"],
        f"cpflow solve {puzzle} -q": ["solve", puzzle, "-q"],
        f"cpflow solve {puzzle}": ["solve", puzzle],
        f"cpflow solve {puzzle} --format json": ["solve", puzzle, "--format", "json"],
        f"cpflow hint {puzzle}": ["hint", puzzle],
    }


def installed(commit: str | None, into: Path) -> Path:
    """cpflow/ as installed in a folder of its own, compiled to bytecode: this folder's (None), or the
    commit's with this folder's compiled core (start-up does not depend on which build of it loads)."""
    package_at(commit or str(ROOT), into)
    compileall.compile_dir(into / "cpflow", quiet=1)
    return into


SCRIPT = "import re, sys\nfrom cpflow.cli import main\nsys.argv[0] = 'cpflow'\nsys.exit(main())"  # as pip writes it


def run(tree: Path, arguments: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process: `cpflow ARGUMENTS` from the tree (the bare interpreter
    when there are no arguments), its output into a pipe."""
    site = sysconfig.get_paths()["purelib"]
    environment = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{site}"}
    command = [sys.executable, "-S", "-P", "-c", *([SCRIPT, *arguments] if arguments else ["pass"])]
    began = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{' '.join(command)} failed in {tree}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="COMMIT", help="also time this commit's cpflow/, turn about")
    parser.add_argument("--runs", type=int, default=20, help="runs of each command in each tree")
    parser.add_argument("--puzzle", default="puzzles/starter_7x7.txt")
    parser.add_argument("--shot", metavar="PICTURE", help="also time `cpflow import PICTURE`")
    saving(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cpflow-startup-") as scratch:
        trees = {"now": installed(None, Path(scratch) / "now")}
        if args.against:
            label = subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", args.against],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            trees = {label: installed(args.against, Path(scratch) / "before"), **trees}
        note = f"{args.runs} runs of each, turn about"
        table = recorded("startup_import", args.save, note) if args.shot else recorded("startup", args.save, note)
        with table:
            measure(trees, commands(args.puzzle, args.shot), args.runs)


def measure(trees: dict[str, Path], named: dict[str, list[str]], runs: int) -> None:
    """Print the table: for each command, each tree's median wall and CPU seconds."""
    for tree in trees.values():  # warm the disk cache and the bytecode of each tree
        for arguments in named.values():
            run(tree, arguments)
    heads = [f"{label} {kind}" for kind in ("wall s", "CPU s") for label in trees]
    print("| command | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(heads))
    for name, arguments in named.items():
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
        for _ in range(runs):
            for label, tree in trees.items():
                times[label].append(run(tree, arguments))
        walls = [statistics.median(w for w, _ in times[label]) for label in trees]
        cpus = [statistics.median(c for _, c in times[label]) for label in trees]
        print(f"| `{name}` | " + " | ".join(f"{s:.3f}" for s in walls + cpus) + " |", flush=True)


if __name__ == "__main__":
    main()

"""Why unsolvable boards have no solution: the explanation `solve` gives, board by board (issue 39).

python bench/why.py [--community DIR] [--shared DIR] [--seconds 5] [--against COMMIT] [--save]

Reads the community's unsolvable boards (inputs2, inputs5, inputs7 of thomasahle/numberlink, read
with cpflow's own readers; those the front end proves unsolvable) and 20 unsolvable boards made from
larger solvable ones by swapping the second endpoints of two colours (the first pair that makes the
board unsolvable, each solved to its end): the shared set's 50x50, 40x20 and 30x30 boards and the project's gen_30x30,
gen_24x12 and gen_20x20. Prints a row per board: size, colours, the seconds `explanation` took (as
`solve` gives it, `--seconds` at most) and the CPU seconds it used (far fewer on a loaded machine),
the set's size, whether it is minimal, its shape and where it was proven (the radius of the part, or
`board`). With `--against COMMIT`, that commit's
cpflow runs first on every board in a process of its own (the same seconds), and its columns stand beside.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from common import ROOT, SHARED, package_at, recorded, saving, warm

from cpflow.board.formats import load
from cpflow.board.grid import Puzzle
from cpflow.engines.pipeline import solve
from cpflow.results import Status
from cpflow.workflows.unsolvable import explanation

COMMUNITY = Path("/work/data/thomasahle+numberlink/puzzles")
MADE = [
    ("large", "ahle-gen_50x50_00[1-4].txt"),
    ("large", "ahle-gen_40x20_00[1-4].txt"),
    ("large", "adc2015_30x30_Q14.txt"),
    ("project", "gen_30x30_0[1-5].txt"),
    ("project", "gen_24x12_0[1-3].txt"),
    ("project", "gen_20x20_0[1-3].txt"),
]


def community(folder: Path) -> list[tuple[str, Puzzle]]:
    """The unsolvable boards of inputs2, inputs5 and inputs7."""
    found = []
    for name in ("inputs2", "inputs5", "inputs7"):
        for index, puzzle in enumerate(load(folder / name), 1):
            if solve(puzzle, time_limit=30).status is Status.UNSOLVABLE:
                found.append((f"{name} #{index}", puzzle))
    return found


def swapped(puzzle: Puzzle) -> Puzzle | None:
    """The board with two colours' second endpoints swapped, the first such pair (in the file's order)
    that is unsolvable: each pair solved to its end, with no time limit (the set does not depend on
    how loaded the machine is)."""
    colours = list(puzzle.endpoints)
    for a, b in zip(colours, colours[1:], strict=False):
        (a1, a2), (b1, b2) = puzzle.endpoints[a], puzzle.endpoints[b]
        made = replace(puzzle, endpoints={**puzzle.endpoints, a: (a1, b2), b: (b1, a2)})
        if solve(made).status is Status.UNSOLVABLE:
            return made
    return None


def made(shared: Path) -> list[tuple[str, Puzzle]]:
    boards = []
    for where, pattern in MADE:
        folder = shared / "large" if where == "large" else ROOT / "puzzles"
        for path in sorted(folder.glob(pattern)):
            board = swapped(load(path)[0])
            if board is not None:
                boards.append((f"{path.stem} swapped", board))
    return boards[:20]


def before(commit: str, args: argparse.Namespace) -> dict[str, dict]:
    """Each board's result as `commit`'s cpflow gives it, run first in a process of its own (this script
    with --rows, that cpflow first on its path), by board name."""
    folder = package_at(commit)
    try:
        command = [sys.executable, __file__, "--community", str(args.community), "--shared", str(args.shared)]
        command += ["--seconds", str(args.seconds), "--rows"]
        environment = {**os.environ, "PYTHONPATH": str(folder)}
        done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {row["board"]: row for row in map(json.loads, done.stdout.splitlines())}


def _seconds(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value:.2f}"


def explain(name: str, puzzle: Puzzle, seconds: float) -> dict:
    """The explanation `solve` gives on one board: its seconds, CPU seconds, set, and whether minimal."""
    began, spent = time.perf_counter(), cpu()
    reason = explanation(puzzle, Status.UNSOLVABLE, seconds)
    took, spent = time.perf_counter() - began, cpu() - spent
    found = reason.why if reason else None
    where = "-" if found is None else "board" if found.radius is None else f"part r{found.radius}"
    size = len(found.connect) + len(found.cover) if found else "-"
    kind = reason.kind if reason and reason.kind else "-"
    minimal = bool(found and found.minimal)
    return {"board": name, "s": took, "cpu": spent, "set": size, "minimal": minimal, "kind": kind, "where": where}


def cpu() -> float:
    """Seconds of CPU this process has used (every thread: CP-SAT's workers too)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--community", type=Path, default=COMMUNITY)
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--against", metavar="COMMIT", help="a commit (or a folder with cpflow/) run first, beside")
    parser.add_argument("--rows", action="store_true", help=argparse.SUPPRESS)  # the process of --against
    saving(parser)
    args = parser.parse_args()
    warm()
    boards = community(args.community) + made(args.shared)
    if args.rows:
        for name, puzzle in boards:
            print(json.dumps(explain(name, puzzle, args.seconds)), flush=True)
        return
    old = before(args.against, args) if args.against else None
    with recorded("why", args.save, f"{len(boards)} unsolvable boards, {args.seconds:g} s each at most"):
        head = ["board", "size", "colours", "s", "cpu s", "set", "minimal", "shape", "proven on"]
        head += [f"s at {args.against}", f"cpu s at {args.against}", f"set at {args.against}"] if old else []
        head += [f"minimal at {args.against}"] if old else []
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        within = 0
        for name, puzzle in boards:
            now = explain(name, puzzle, args.seconds)
            row = [name, f"{puzzle.width}x{puzzle.height}", len(puzzle.colours), f"{now['s']:.2f}", f"{now['cpu']:.2f}"]
            row += [now["set"], "yes" if now["minimal"] else "no", now["kind"], now["where"]]
            within += now["minimal"] and now["s"] <= args.seconds + 0.5
            if old:
                then = old.get(name) or {"s": "-", "cpu": "-", "set": "-", "minimal": False}
                row += [_seconds(then["s"]), _seconds(then["cpu"]), then["set"], "yes" if then["minimal"] else "no"]
            print("| " + " | ".join(str(v) for v in row) + " |", flush=True)
        print(f"\n{within} of {len(boards)} boards: a minimal why with witnesses within {args.seconds:g} s")


if __name__ == "__main__":
    sys.exit(main())

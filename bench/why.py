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
engines/why.py runs beside it on each board (its own model, the same seconds).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
import types
from dataclasses import replace
from pathlib import Path

from common import ROOT, SHARED, recorded, saving, warm

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


def before(commit: str) -> types.ModuleType:
    """engines/why.py as it was at `commit`, as a module."""
    text = subprocess.run(
        ["git", "show", f"{commit}:cpflow/engines/why.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = sys.modules["why_before"] = types.ModuleType("why_before")  # dataclasses look their module up
    exec(compile(text, f"{commit}:cpflow/engines/why.py", "exec"), module.__dict__)  # noqa: S102
    return module


def cpu() -> float:
    """Seconds of CPU this process has used (every thread: CP-SAT's workers too)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--community", type=Path, default=COMMUNITY)
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--against", metavar="COMMIT")
    saving(parser)
    args = parser.parse_args()
    warm()
    old = before(args.against) if args.against else None
    boards = community(args.community) + made(args.shared)
    with recorded("why", args.save, f"{len(boards)} unsolvable boards, {args.seconds:g} s each at most"):
        head = ["board", "size", "colours", "s", "cpu s", "set", "minimal", "shape", "proven on"]
        head += [f"s at {args.against}", f"cpu s at {args.against}", f"set at {args.against}"] if old else []
        head += [f"minimal at {args.against}"] if old else []
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        within = 0
        for name, puzzle in boards:
            began, spent = time.perf_counter(), cpu()
            reason = explanation(puzzle, Status.UNSOLVABLE, args.seconds)
            took, spent = time.perf_counter() - began, cpu() - spent
            found = reason.why if reason else None
            where = "-" if found is None else "board" if found.radius is None else f"part r{found.radius}"
            row = [name, f"{puzzle.width}x{puzzle.height}", len(puzzle.colours), f"{took:.2f}", f"{spent:.2f}"]
            row += [len(found.connect) + len(found.cover), "yes" if found.minimal else "no"] if found else ["-", "no"]
            row += [reason.kind if reason and reason.kind else "-", where]
            within += bool(found and found.minimal and took <= args.seconds + 0.5)
            if old:
                began, spent = time.perf_counter(), cpu()
                then = old.why(puzzle, args.seconds)
                row += [f"{time.perf_counter() - began:.2f}", f"{cpu() - spent:.2f}"]
                row += [len(then.connect) + len(then.cover), "yes" if then.minimal else "no"] if then else ["-", "no"]
            print("| " + " | ".join(str(v) for v in row) + " |", flush=True)
        print(f"\n{within} of {len(boards)} boards: a minimal why with witnesses within {args.seconds:g} s")


if __name__ == "__main__":
    sys.exit(main())

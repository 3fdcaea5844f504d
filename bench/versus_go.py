"""cpflow beside the Go search of thomasahle/numberlink, side by side in one run (issue 25's table).

    python bench/versus_go.py GO_BINARY COLLECTION [--runs 3] [--save]

GO_BINARY is that repository's solver, built beforehand (this script builds nothing): with
Debian's golang-go, `go mod init numberlink && go build` in its src/numberlink. COLLECTION
is the repository's puzzles/ folder, the Numberlink community's files. cpflow is the one
installed (`cpflow` beside this interpreter): run the bench with a normal install's
interpreter (`pip install .`, which compiles the modules once), not an editable one. Rows:

- whole processes, summed over the set's boards or files, the median of --runs runs each:
  the 31 large boards of ../shared/puzzles/large (one process a board), the collection (one
  process a file: every file cpflow reads; inputs6, a 1002x1002 board, is over cpflow's size
  limit), all of it but inputs10 (eleven 50x50 boards), its files inputs9, janko and
  inputs10, one classic board (5x5 to 14x14, the slowest of ../shared/puzzles/zucker for cpflow);
- in-process, per board, the median over the boards: the collection's boards of 15x15 to 30x30.
  cpflow is timed in this process (solve, verify included); Go on a file of the board
  repeated, less an empty file, divided by the copies;
- `--allow-touch`, cpflow alone (the Go search has no such rule): inputs2 #2 and #3.

cpflow's processes run `cpflow solve --quiet`: a verdict a board, as Go gives, without the
explanation of an unsolvable board (up to 10 s more each). Every verdict of cpflow is
checked against Go's (solved or impossible); a disagreement is printed and makes the exit
code 1. --save also writes the table to docs/figures/versus_go.md, which README and docs quote.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import SHARED, recorded, saving

from cpflow.board.formats import load, picture
from cpflow.board.grid import Puzzle
from cpflow.engines.catalog import warm
from cpflow.engines.pipeline import solve
from cpflow.errors import PuzzleFormatError

CPFLOW = str(Path(sys.executable).with_name("cpflow"))
COPIES = 20  # of a board, for Go's in-process time
MID = (15, 30)  # the in-process row's sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("go", help="the Go solver's binary")
    parser.add_argument("collection", type=Path, help="thomasahle/numberlink's puzzles/ folder")
    parser.add_argument("--runs", type=int, default=3)
    saving(parser)
    args = parser.parse_args()
    with recorded("versus_go", args.save):
        wrong = measure(args)
    sys.exit(1 if wrong else 0)


def measure(args: argparse.Namespace) -> list[str]:
    """The table, row by row; the boards on which Go and cpflow disagree."""
    runs, go = args.runs, args.go
    files, skipped = readable(sorted(p for p in args.collection.iterdir() if p.is_file()))
    large = [p for p in sorted((SHARED / "large").glob("*.txt")) if not p.name.endswith(".sol.txt")]
    classic = slowest_classic()
    wrong: list[str] = []

    print("| set | boards | Go s | cpflow s | ratio |")
    print("|---|---|---|---|---|")
    row(f"large ({len(large)} boards, a process each)", len(large), runs, go_on(go, large), cpflow_on(large))
    note = f"; {', '.join(skipped)} over the size limit" if skipped else ""
    slow = [p for p in files if p.name == "inputs10"]  # eleven 50x50 boards: the Go search's own slow file
    for name, chosen, checked in [
        (f"the collection ({len(files)} files{note})", files, wrong),
        ("of which all but inputs10", [p for p in files if p not in slow], None),
        *((f"of which {p.name}", [p], None) for p in files if p.name in ("inputs9", "janko", "inputs10")),
    ]:
        boards = sum(len(load(p)) for p in chosen)
        row(name, boards, runs, go_on(go, chosen, checked), cpflow_on(chosen))
    row(f"one classic board ({classic.stem}), a process", 1, runs, go_on(go, [classic]), cpflow_on([classic]))
    mid = [b for p in files for b in load(p) if MID[0] <= min(b.width, b.height) and max(b.width, b.height) <= MID[1]]
    go_each = [go_in_process(go, b, runs) for b in mid]
    cpflow_each = [cpflow_in_process(b, runs) for b in mid]
    a, b = statistics.median(go_each), statistics.median(cpflow_each)
    print(
        f"| {len(mid)} boards {MID[0]}x{MID[0]} to {MID[1]}x{MID[1]}, in-process, median a board | {len(mid)} "
        f"| {a * 1000:.2f} ms | {b * 1000:.2f} ms | {b / a:.0f}x |"
    )
    for path in (p for p in files if p.name == "inputs2"):
        for n in (2, 3):
            seconds = median(
                runs, functools.partial(run, [CPFLOW, "solve", "--allow-touch", "-"], go_text([load(path)[n - 1]]))
            )
            print(f"| `--allow-touch`, {path.name} #{n}, a process | 1 | - | {seconds:.3f} | - |", flush=True)
    print("\n" + ("\n".join(wrong) if wrong else "every Go verdict agrees with cpflow's"))
    return wrong


def readable(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """The files cpflow reads, and the names of those it refuses (over its size limit)."""
    kept, skipped = [], []
    for path in paths:
        try:
            load(path)
            kept.append(path)
        except PuzzleFormatError:
            skipped.append(path.name)
    return kept, skipped


def slowest_classic() -> Path:
    """The classic board cpflow takes longest on, in-process."""
    warm()
    paths = sorted((SHARED / "zucker").glob("*.txt"))
    return max((p for p in paths if p.name != "SOURCE.md"), key=lambda p: cpflow_in_process(load(p)[0], 1))


def row(name: str, boards: int, runs: int, go: Callable[[], float], cpflow: Callable[[], float]) -> None:
    a, b = median(runs, go), median(runs, cpflow)
    print(f"| {name} | {boards} | {a:.3f} | {b:.3f} | {b / a:.1f}x |", flush=True)


def median(runs: int, timed: Callable[[], float]) -> float:
    return statistics.median(timed() for _ in range(runs))


def run(command: list[str], stdin: str | None = None) -> float:
    """Wall seconds of a whole process; one that fails (beyond cpflow's 1, a board it did not
    solve) stops the bench."""
    began = time.perf_counter()
    done = subprocess.run(command, input=stdin, text=True, capture_output=True)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr}")
    return time.perf_counter() - began


def go_text(puzzles: list[Puzzle]) -> str:
    """Boards as the Go solver reads them: header blocks, then `0 0`."""
    return "".join(picture(p, None, "header").rstrip("\n") + "\n" for p in puzzles) + "0 0\n"


def go_on(go: str, paths: list[Path], wrong: list[str] | None = None) -> Callable[[], float]:
    """A timer of one Go process a file, summed; its verdicts checked against cpflow's once, into `wrong`."""
    texts = [(path, go_text(load(path))) for path in paths]
    if wrong is not None:
        for path, text in texts:
            wrong += disagreements(go, path, text)
    return lambda: sum(run([go], text) for _, text in texts)


def disagreements(go: str, path: Path, text: str) -> list[str]:
    out = subprocess.run([go], input=text, text=True, capture_output=True, check=True).stdout
    verdicts = [block.strip() == "IMPOSSIBLE" for block in out.split("\n\n") if block.strip()]
    found = []
    for n, (puzzle, impossible) in enumerate(zip(load(path), verdicts, strict=True), 1):
        mine = solve(puzzle).status.value
        if mine != ("unsolvable" if impossible else "solved"):
            found.append(f"{path.name} #{n}: cpflow {mine}, Go {'impossible' if impossible else 'solved'}")
    return found


def cpflow_on(paths: list[Path]) -> Callable[[], float]:
    """A timer of one `cpflow solve --quiet` process a file, summed: verdicts, as Go prints (without
    --quiet an unsolvable board is also explained, for up to 10 s: inputs2 #3 takes them all)."""
    return lambda: sum(run([CPFLOW, "solve", "--quiet", str(path)]) for path in paths)


def go_in_process(go: str, puzzle: Puzzle, runs: int) -> float:
    """Go's seconds on one board: COPIES of it in one process, less an empty process, a copy."""
    many, empty = go_text([puzzle] * COPIES), "0 0\n"
    return max(0.0, median(runs, lambda: run([go], many)) - median(runs, lambda: run([go], empty))) / COPIES


def cpflow_in_process(puzzle: Puzzle, runs: int) -> float:
    """cpflow's seconds on one board in this process (verified), the median of `runs`."""
    return median(runs, lambda: _timed_solve(puzzle))


def _timed_solve(puzzle: Puzzle) -> float:
    began = time.perf_counter()
    solve(puzzle)
    return time.perf_counter() - began


if __name__ == "__main__":
    main()

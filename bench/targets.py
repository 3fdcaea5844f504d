"""The speed targets of issue 14, measured beside the Go solver of thomasahle/numberlink.

python bench/targets.py [--go BINARY] [--repeat 3] [--targets 12345]

1. one classic board, whole process (every board, one process each); the classic set in
   one process; the classic set in-process;
2. each mid board of the large set (all but the 50x50s) in-process;
3. the large set in-process, and a scaling table of puzzles/scaling (generated boards up
   to 100x100, sparse and dense);
4. uniqueness proofs against plain solves on each set;
5. the design brief's circuit model (engine `cpsat-circuit`, no front end) against the
   default engine and against the label model alone, on the classic set.
The Go binary (built as bench/numberlink.py says) is timed on the same boards, one
process per board or per set, as the issue measured it; without --go its columns are
left out. Every cpflow answer is verified (the pipeline's `solve`).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import SHARED, puzzles, time_command, time_puzzles, warm

SCALING = Path(__file__).resolve().parent.parent / "puzzles" / "scaling"
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--go", help="the Go solver's binary")
    parser.add_argument("--repeat", type=int, default=3, help="whole-process runs, the median kept")
    parser.add_argument("--targets", default="12345")
    args = parser.parse_args()
    warm()
    go = Go(args.go) if args.go else None
    for target in args.targets:
        print(f"\n## Target {target}\n")
        TARGETS[target](go, args.repeat)


class Go:
    """The Go solver, fed puzzles in its `W H` format on stdin; seconds are wall time of the process."""

    def __init__(self, binary: str):
        self.binary = binary

    def seconds(self, paths: list[Path], repeat: int = 1) -> float:
        text = "".join(go_text(path) for path in paths) + "0 0\n"
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            out = subprocess.run([self.binary], input=text, capture_output=True, text=True, check=True).stdout
            times.append(time.perf_counter() - began)
        if out.count("IMPOSSIBLE") > sum(path.stem.startswith("unsolvable") for path in paths):
            sys.exit(f"the Go solver found no solution to a solvable board among {paths[0].parent}")
        return statistics.median(times)


def go_text(path: Path) -> str:
    """A plain board in the Go solver's format: `W H`, then rows of `.` and one label per colour."""
    from cpflow.board.formats import load

    (puzzle,) = load(path)
    label = {colour: LABELS[i] for i, colour in enumerate(puzzle.colours)}
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    for colour, ends in puzzle.endpoints.items():
        for row, col in ends:
            grid[row][col] = label[colour]
    return f"{puzzle.width} {puzzle.height}\n" + "".join("".join(row) + "\n" for row in grid)


def cpflow_seconds(files: list[Path], repeat: int) -> float:
    """Median wall seconds of `cpflow solve --quiet FILES` as a whole process."""
    seconds, _ = time_command([sys.executable, "-m", "cpflow", "solve", "--quiet", *map(str, files)], repeat)
    return statistics.median(seconds)


def classic(go: Go | None, repeat: int) -> None:
    paths = puzzles("zucker")
    each = [cpflow_seconds([path], repeat) for path in paths]
    go_each = [go.seconds([path], repeat) for path in paths] if go else []
    rows = [("one board, one process each: median", statistics.median(each), _median(go_each))]
    rows.append(("one board, one process each: worst", max(each), max(go_each, default=None)))
    rows.append(("the set in one process", cpflow_seconds(paths, repeat), go.seconds(paths, repeat) if go else None))
    inside = time_puzzles(paths)
    rows.append(("the set in-process (cpflow)", sum(r["total"] for r in inside), None))
    _table(["classic 29", "cpflow s", "Go s", "cpflow / Go"], rows)
    worst = max(inside, key=lambda r: r["total"])
    print(f"\nin-process worst board: {worst['puzzle']} {worst['total']:.3f} s; target: one board < 0.3 s, ")
    print("the set in one process < 0.5 s, in-process < 0.1 s")


def mid_boards(go: Go | None, repeat: int) -> None:
    paths = [p for p in puzzles("large") if "50x50" not in p.name]
    rows = time_puzzles(paths)
    print("| board | size | colours | cpflow s | Go s (one process) | status |")
    print("|---|---|---|---|---|---|")
    for path, row in zip(paths, rows, strict=True):
        theirs = f"{go.seconds([path], repeat):.3f}" if go else "-"
        print(
            f"| {row['puzzle']} | {row['size']} | {row['colours']} | {row['total']:.3f} | {theirs} | {row['status']} |"
        )
    under = sum(r["total"] < 0.05 for r in rows)
    print(f"\n{under} of {len(rows)} mid boards under 50 ms in-process (target: all)")


def large(go: Go | None, repeat: int) -> None:
    paths = puzzles("large")
    rows = time_puzzles(paths)
    total, worst = sum(r["total"] for r in rows), max(rows, key=lambda r: r["total"])
    theirs = go.seconds(paths, 1) if go else None
    _table(
        ["large 31", "cpflow s", "Go s", "cpflow / Go"],
        [("the set, in-process (Go: one process)", total, theirs)]
        + [
            (r["puzzle"], r["total"], go.seconds([p], 1) if go else None)
            for p, r in zip(paths, rows, strict=True)
            if "50x50" in p.name
        ],
    )
    print(f"\nworst board {worst['puzzle']} {worst['total']:.3f} s (targets: set < 10 s, worst < 3 s)")
    raced = time_puzzles(paths, workers=2)
    worst = max(raced, key=lambda r: r["total"])
    print(
        f"with --workers 2 (two search orders raced on two cores): set {sum(r['total'] for r in raced):.3f} s, "
        f"worst {worst['puzzle']} {worst['total']:.3f} s"
    )
    scaling = sorted(SCALING.glob("*.txt"), key=_scaling_order)
    scaling = [p for p in scaling if not p.name.endswith(".solution.txt")]
    if not scaling:
        return
    print(
        "\nscaling, puzzles/scaling (generated; sparse: side to 1.5 side colours, dense: 1 per 11 cells), in-process:\n"
    )
    print("| board | cells | colours | cells/colour | seconds | status |")
    print("|---|---|---|---|---|---|")
    for row in time_puzzles(scaling):
        print(
            f"| {row['puzzle']} | {row['cells']} | {row['colours']} | {row['cells'] / row['colours']:.0f} "
            f"| {row['total']:.3f} | {row['status']} |"
        )


def uniqueness(go: Go | None, repeat: int) -> None:
    from cpflow.board.formats import load
    from cpflow.engines.pipeline import solve
    from cpflow.workflows.unique import uniqueness as unique

    sets = {"classic": puzzles("zucker"), "large": puzzles("large")}
    variants = sorted((SHARED / "variants").glob("*.level"))
    if variants:
        sets["variants"] = variants
    print("| set | boards | solve s | unique s | ratio | boards over 1.5x (over 10 ms) | worst board ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, paths in sets.items():
        solved = proved = 0.0
        over, worst = [], (0.0, "")
        for path in paths:
            for puzzle in load(path):
                first = solve(puzzle).seconds
                second = unique(puzzle).seconds
                solved, proved = solved + first, proved + second
                ratio = second / max(first, 1e-9)
                if first >= 0.01 and ratio > 1.5:
                    over.append(path.stem)
                if first >= 0.01:
                    worst = max(worst, (ratio, path.stem))
        print(
            f"| {name} | {len(paths)} | {solved:.3f} | {proved:.3f} | {proved / solved:.2f} "
            f"| {len(over)} | {f'{worst[0]:.2f} ({worst[1]})' if worst[1] else '-'} |"
        )
    print("\ntarget: uniqueness at most 1.5x the solve time on every set")


def circuit(go: Go | None, repeat: int) -> None:
    paths = puzzles("zucker")
    rows = []
    for label, options in (
        ("engine cpsat (front end, label model)", {"engine": "cpsat"}),
        ("label model alone (no front end)", {"engine": "cpsat", "forced": False}),
        ("engine cpsat-circuit: the brief's model alone", {"engine": "cpsat-circuit"}),
    ):
        timed = time_puzzles(paths, **options)
        rows.append((label, sum(r["total"] for r in timed), sum(r["build"] for r in timed)))
    print("| classic 29, in-process | total s | build s | / engine cpsat |")
    print("|---|---|---|---|")
    for label, total, build in rows:
        print(f"| {label} | {total:.3f} | {build:.3f} | {total / rows[0][1]:.1f}x |")
    print(f"\ncircuit / label, models alone: {rows[2][1] / rows[1][1]:.1f}x (target: the brief's model within 3x)")


def _table(columns: list[str], rows: list[tuple]) -> None:
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for name, ours, theirs in rows:
        ratio = f"{ours / theirs:.0f}x" if theirs else "-"
        print(f"| {name} | {ours:.3f} | {'-' if theirs is None else f'{theirs:.3f}'} | {ratio} |")


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _scaling_order(path: Path) -> tuple:
    kind, size, _ = path.stem.split("_")
    return kind, int(size.split("x")[0])


TARGETS = {"1": classic, "2": mid_boards, "3": large, "4": uniqueness, "5": circuit}

if __name__ == "__main__":
    main()

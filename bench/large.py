"""Times the large boards (../shared/puzzles/large, 23x21 to 50x50) in-process, one by one; with
--size-limit, whole `cpflow solve` processes on boards at the size limit (65,536 cells) instead.

python bench/large.py [--engine cpsat|cpsat-circuit|...] [--time-limit 60] [--workers N] [--save] [NAME_FILTER]
python bench/large.py --size-limit [--engine cpsat] [--time-limit 60] [FILE ...]

The size-limit boards are made here: one colour from corner to corner on 250x250 and 256x256
(no solution under the game's rules: it would touch itself; a Hamiltonian path with
--allow-touch) and a colour a row on 256x256; FILEs (say, a board of `cpflow generate`) are
run after them. Each row is one process: its exit code, its verdict (or its one line on
stderr), wall seconds and peak resident memory. --save also writes the output to docs/figures/large.md
(or large-size-limit.md), which README and docs quote.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import peak_memory, print_rows, puzzles, recorded, saving, time_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="cpsat")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--size-limit", action="store_true", help="whole processes on boards of 65,536 cells")
    parser.add_argument(
        "only", nargs="*", default=[""], help="only boards whose name contains this (FILEs with --size-limit)"
    )
    saving(parser)
    args = parser.parse_args()
    if args.size_limit:
        with recorded("large-size-limit", args.save):
            size_limit(args.engine, args.time_limit, [Path(f) for f in args.only if f])
        return
    with recorded("large", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """The large boards in-process, then whole processes on the 50x50 ones."""
    args.only = args.only[0]
    paths = [p for p in puzzles("large") if args.only in p.name]
    rows = time_puzzles(paths, progress=True, engine=args.engine, workers=args.workers, time_limit=args.time_limit)
    for row in rows:
        row["cells/colour"] = f"{row['cells'] / row['colours']:.0f}"
    print_rows(rows, ["puzzle", "size", "colours", "cells/colour", "build", "solve", "total", "status"])
    print("\nwhole process and peak memory, `cpflow solve --quiet FILE`, boards of 2,500 cells or more:")
    for path, row in zip(paths, rows, strict=True):
        if row["cells"] >= 2500:
            seconds, mib = peak_memory([sys.executable, "-m", "cpflow", "solve", "--quiet", str(path)])
            print(f"  {row['puzzle']}: {seconds:.2f} s, peak {mib} MiB")


def size_limit(engine: str, time_limit: float, files: list[Path]) -> None:
    """One `cpflow solve` process per board at the size limit: exit code, verdict, seconds, peak memory."""
    from cpflow.board.formats import load, picture
    from cpflow.board.grid import Puzzle

    def corner(side: int) -> Puzzle:
        return Puzzle.build(side, side, {"A": ((0, 0), (side - 1, side - 1))})

    made = {
        "corner_250x250": (corner(250), []),
        "corner_256x256": (corner(256), []),
        "corner_256x256 --allow-touch": (corner(256), ["--allow-touch"]),
        "rows_256x256": (Puzzle.build(256, 256, {f"r{r}": ((r, 0), (r, 255)) for r in range(256)}), []),
    }
    print(f"`cpflow solve --quiet --engine {engine} --time-limit {time_limit:g} [OPTIONS] FILE`, one process each:\n")
    print("| board | cells | colours | options | exit | verdict | seconds | peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        runs = []
        for name, (puzzle, options) in made.items():
            path = Path(folder) / (name.split()[0] + ".txt")
            path.write_text(picture(puzzle))
            runs.append((name, puzzle, path, options))
        runs += [(path.stem, load(path)[0], path, []) for path in files]
        for name, puzzle, path, options in runs:
            args = ["solve", "--quiet", "--engine", engine, "--time-limit", str(time_limit), *options, str(path)]
            code, said, seconds, mib = one_process(args)
            board = f"| {name.split()[0]} | {puzzle.width * puzzle.height:,} | {len(puzzle.colours)} "
            print(f"{board}| {' '.join(options) or '-'} | {code} | {said} | {seconds:.2f} | {mib} |")


def one_process(args: list[str]) -> tuple[int, str, float, int]:
    """`cpflow ARGS` in a process of its own: exit code, verdict (or the first line on stderr), wall
    seconds and peak resident memory in MiB."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "cpflow", *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - began
        out.seek(0)
        err.seek(0)
        words, line = out.read().split(), (err.read().splitlines() or [""])[0]
    said = words[1] if len(words) > 1 else line.split(": ", 2)[-1][:100]  # past "cpflow: FILE: "
    return os.waitstatus_to_exitcode(status), said, seconds, usage.ru_maxrss // 1024


if __name__ == "__main__":
    main()

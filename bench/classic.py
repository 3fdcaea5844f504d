"""Times the 29 classic boards (../shared/puzzles/zucker): per puzzle in-process, and whole CLI runs.

python bench/classic.py [--engine cpsat|cpsat-circuit|...] [--workers N] [--repeat 3] [--save]

--save also writes the output to docs/figures/classic.md (README's and docs' figures for the set).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from common import print_rows, puzzles, recorded, saving, time_command, time_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="cpsat")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="whole-process runs of the CLI")
    saving(parser)
    args = parser.parse_args()
    with recorded("classic", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """The boards in-process, then whole `cpflow solve` processes on the set."""
    paths = puzzles("zucker")
    began = time.perf_counter()
    from cpflow.engines import catalog

    catalog.warm(args.engine)  # import cost reported apart
    print(f"import the engine and OR-Tools: {time.perf_counter() - began:.3f} s\n")
    rows = time_puzzles(paths, engine=args.engine, workers=args.workers)
    print_rows(rows, ["puzzle", "size", "colours", "build", "solve", "total", "status"])
    command = [sys.executable, "-m", "cpflow", "solve", "--quiet", "--engine", args.engine, *map(str, paths)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    seconds, peak = time_command(command, args.repeat)
    print(
        f"\nwhole process, `cpflow solve ZUCKER/*.txt --quiet` ({args.repeat} runs): "
        f"median {statistics.median(seconds):.3f} s, min {min(seconds):.3f} s, peak RSS {peak / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()

"""How closely each engine keeps to --time-limit on the large boards, building included.

python bench/timelimits.py [--engine NAME ...] [--limits 1 5] [NAME_FILTER]

A run honours a limit L when its wall time, from building the model to the verified
answer, is at most L + 0.5 s. Prints, per engine and limit: runs, runs cut short by the
limit (unknown), runs over the allowance, the worst overshoot (wall time - L) and its
board, then the machine's load average (other work running beside it slows the runs).
Exits 1 when a run is over.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from common import puzzles

ALLOWANCE = 0.5  # seconds past the limit a run may take


def main() -> None:
    from cpflow.board.formats import load
    from cpflow.engines import catalog, pipeline

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", help="repeat for several (default: every installed engine)")
    parser.add_argument("--limits", type=float, nargs="+", default=[1.0])
    parser.add_argument("only", nargs="?", default="", help="only boards whose name contains this")
    args = parser.parse_args()
    boards = [(p.stem, load(p)[0]) for p in puzzles("large") if args.only in p.name]
    print(f"| engine | limit s | runs | unknown | over L + {ALLOWANCE} s | worst overshoot s | worst board |")
    print("|---|---|---|---|---|---|---|")
    failed, load = False, os.getloadavg()[0]
    for engine in args.engine or catalog.available():
        pipeline.solve(boards[0][1], engine, time_limit=0.1)  # imports and one-off set-up, off the clock
        for limit in args.limits:
            walls, unknown = [], 0
            for name, puzzle in boards:
                began = time.perf_counter()
                result = pipeline.solve(puzzle, engine, time_limit=limit)
                walls.append((time.perf_counter() - began, name))
                unknown += result.status.value == "unknown"
                print(f"  {engine} {limit:g} s {name}: {result.status.value} {walls[-1][0]:.2f} s", file=sys.stderr)
            over = sum(wall > limit + ALLOWANCE for wall, _ in walls)
            worst, board = max(walls)
            failed |= over > 0
            row = [engine, f"{limit:g}", len(walls), unknown, over, f"{worst - limit:+.2f}", board]
            print(f"| {' | '.join(map(str, row))} |", flush=True)
    print(f"\n(1-minute load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

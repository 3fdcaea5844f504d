"""Times the large boards (../shared/puzzles/large, 23x21 to 50x50) in-process, one by one.

python bench/large.py [--engine cpsat|cpsat-circuit|...] [--time-limit 60] [--workers N] [NAME_FILTER]
"""

from __future__ import annotations

import argparse
import sys

from common import peak_memory, print_rows, puzzles, time_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="cpsat")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("only", nargs="?", default="", help="only boards whose name contains this")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()

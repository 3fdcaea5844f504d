"""Times the ILP engine per puzzle: each MIP solver with each connectivity method, median of repeats.

python bench/ilp.py [--set zucker|project] [--max-cells N] [--repeat 3] [--time-limit 120]
                    [--solvers cbc,highs] [--connectivity flow,lazy]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from common import puzzles

PROJECT = Path(__file__).resolve().parent.parent / "puzzles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="zucker", help="a folder of ../shared/puzzles, or 'project'")
    parser.add_argument("--max-cells", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--solvers", default="cbc,highs")
    parser.add_argument("--connectivity", default="flow,lazy")
    args = parser.parse_args()
    from cpflow.board.formats import load
    from cpflow.engines.pipeline import solve

    paths = sorted(p for p in PROJECT.glob("*.txt") if ".solution" not in p.name) if args.set == "project" else None
    boards = [load(p)[0] for p in paths or puzzles(args.set)]
    boards = [b for b in boards if args.max_cells is None or b.width * b.height <= args.max_cells]
    columns = [(s, c) for s in args.solvers.split(",") for c in args.connectivity.split(",")]
    print("| puzzle | " + " | ".join(f"{s} {c}" for s, c in columns) + " |")
    print("|---|" + "---|" * len(columns))
    totals = dict.fromkeys(columns, 0.0)
    for board in boards:
        cells = []
        for solver, connectivity in columns:
            runs = [
                solve(board, f"ilp-{solver}", connectivity=connectivity, time_limit=args.time_limit)
                for _ in range(args.repeat)
            ]
            seconds = statistics.median(r.seconds for r in runs)
            totals[solver, connectivity] += seconds
            rounds = max(r.stats["rounds"] for r in runs)
            mark = "" if runs[0].status.value != "unknown" else " (unknown)"
            cells.append(f"{seconds:.2f}" + (f" r{rounds}" if rounds > 1 else "") + mark)
        print(f"| {Path(board.name).stem} ({board.width}x{board.height}) | " + " | ".join(cells) + " |", flush=True)
    print("| **total** | " + " | ".join(f"**{totals[c]:.2f}**" for c in columns) + " |")
    print(f"\nmedian of {args.repeat} runs, seconds (build + all solve rounds); rN = N solve rounds", file=sys.stderr)


if __name__ == "__main__":
    main()

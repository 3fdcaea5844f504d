"""What the front end (forced moves and a short search, cpflow.engines.front) does for each engine:
per set and engine, the total seconds of the engine's model alone and after the front end,
side by side in one run, and how many boards the front end answered with no model at all.

python bench/front.py [--sets zucker,variants] [--engines cpsat,cpsat-circuit,ilp-cbc,...]
                      [--time-limit 60] [--save]

Every answer passes the verifier (the pipeline's); in-process, imports left out. --save also writes
the output to docs/figures/front.md.
"""

from __future__ import annotations

import argparse
import time

from common import boards, recorded, saving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="zucker,variants")
    parser.add_argument("--engines", default=None, help="default: every engine installed")
    parser.add_argument("--time-limit", type=float, default=60.0)
    saving(parser)
    args = parser.parse_args()
    with recorded("front", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """Each engine on each set, alone and after the front end, a row each."""
    from cpflow.engines import catalog, pipeline

    engines = args.engines.split(",") if args.engines else catalog.available()
    for name in engines:
        catalog.warm(name)
    print("| set | engine | alone s | unknown | after the front end s | unknown | answered by it | x |")
    print("|---|---|---|---|---|---|---|---|")
    for folder in args.sets.split(","):
        found = boards(folder)
        for engine in engines:
            runs = {forced: run(pipeline, found, engine, forced, args.time_limit) for forced in (False, True)}
            (alone, lost_alone, _), (fronted, lost, by_front) = runs[False], runs[True]
            print(
                f"| {folder} ({len(found)}) | {engine} | {alone:.2f} | {lost_alone} | {fronted:.2f} | "
                f"{lost} | {by_front} | {alone / fronted:.1f} |",
                flush=True,
            )


def run(pipeline, puzzles, engine: str, forced: bool, time_limit: float) -> tuple[float, int, int]:
    """Total seconds, boards left unknown, boards the front end answered alone."""
    total, unknown, by_front = 0.0, 0, 0
    for puzzle in puzzles:
        began = time.perf_counter()
        result = pipeline.solve(puzzle, engine, time_limit=time_limit, forced=forced)
        total += time.perf_counter() - began
        unknown += result.status.value == "unknown"
        by_front += result.stats.get("by") == "forced moves"
    return total, unknown, by_front


if __name__ == "__main__":
    main()

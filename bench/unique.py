"""Uniqueness proofs against plain solves, per puzzle, in-process (default: the classic set).

python bench/unique.py [--set zucker|large] [--engine cpsat|cpsat-circuit|...]
"""

from __future__ import annotations

import argparse

from common import puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="zucker")
    parser.add_argument("--engine", default="cpsat")
    args = parser.parse_args()
    from cpflow.board.formats import load
    from cpflow.engines.pipeline import solve
    from cpflow.workflows.unique import uniqueness

    print("| puzzle | size | colours | solve s | unique s | ratio | verdict |")
    print("|---|---|---|---|---|---|---|")
    total_solve = total_unique = 0.0
    for path in puzzles(args.set):
        (puzzle,) = load(path)
        solved = solve(puzzle, args.engine)
        found = uniqueness(puzzle, engine=args.engine)
        total_solve, total_unique = total_solve + solved.seconds, total_unique + found.seconds
        print(
            f"| {path.stem} | {puzzle.width}x{puzzle.height} | {len(puzzle.colours)} | {solved.seconds:.3f} | "
            f"{found.seconds:.3f} | {found.seconds / solved.seconds:.1f} | {found.verdict.value} |",
            flush=True,
        )
    print(f"\ntotal: solve {total_solve:.3f} s, uniqueness {total_unique:.3f} s ({total_unique / total_solve:.1f}x)")


if __name__ == "__main__":
    main()

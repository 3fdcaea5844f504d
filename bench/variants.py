"""Times the game's variant levels (../shared/puzzles/variants) in-process: solve and uniqueness, per engine.

python bench/variants.py [--engine NAME ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from common import SHARED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", help="repeat for several (default: every engine installed)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from cpflow.board.formats import load_with_solutions
    from cpflow.engines.catalog import available, backend
    from cpflow.engines.pipeline import solve
    from cpflow.workflows.unique import uniqueness

    folder = SHARED / "variants"
    if not folder.is_dir():
        sys.exit(f"{folder} is absent: nothing to measure")
    engines = args.engine or available()
    for name in engines:
        backend(name)
    print("| level | kind | nodes | colours | " + " | ".join(engines) + " | unique (cpsat) | same as the game's |")
    print("|---|---|---|---|" + "---|" * len(engines) + "---|---|")
    totals = dict.fromkeys(engines, 0.0)
    worst = dict.fromkeys(engines, (0.0, ""))
    for path in sorted(folder.glob("*.level")):
        ((puzzle, own),) = load_with_solutions(path)
        cells, same = [], True
        for name in engines:
            results = [solve(puzzle, name) for _ in range(args.repeat)]
            seconds = statistics.median(r.seconds for r in results)
            same &= all(r.solution == own for r in results)
            totals[name] += seconds
            worst[name] = max(worst[name], (seconds, path.stem))
            cells.append(f"{seconds:.4f}")
        proof = uniqueness(puzzle)
        kind = path.stem.split("_")[-2]
        row = [path.stem, kind, len(puzzle.nodes), len(puzzle.colours), *cells, f"{proof.seconds:.4f} {proof.verdict}"]
        print("| " + " | ".join(map(str, row)) + f" | {'yes' if same else 'NO'} |", flush=True)
    print()
    for name in engines:
        print(f"{name}: total {totals[name]:.3f} s, worst {worst[name][0]:.4f} s ({worst[name][1]})")


if __name__ == "__main__":
    main()

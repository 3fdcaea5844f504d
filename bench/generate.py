"""Times the generator: unique puzzles per second at each size (default colour range).

python bench/generate.py [--count 10] [--seed 2026] [--touch-proof] [SIZE ...]   e.g. 7x7 30x30 40x10
"""

from __future__ import annotations

import argparse
import statistics
import time

SIZES = ["5x5", "7x7", "10x10", "14x14", "20x20", "30x30", "12x8", "24x12", "40x10"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--touch-proof", action="store_true", help="unique also when paths may touch themselves")
    parser.add_argument("sizes", nargs="*", default=SIZES)
    args = parser.parse_args()
    from cpflow.workflows.generate.order import Order, default_colours, plain, size_of
    from cpflow.workflows.generate.pack import generate_many

    list(
        generate_many(Order(plain(4, 4), (2, 3)), 1, 0)
    )  # the first solve of a process pays one-off costs: not in the table
    columns = "size, colours asked, colours made, puzzles, seconds, puzzles/s, median s, worst s, covers, repairs"
    print("| " + " | ".join(columns.split(", ")) + " |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        width, height = size_of(size)
        low, high = default_colours(width, height)
        began = time.perf_counter()
        made = list(
            generate_many(Order(plain(width, height), (low, high), touch_proof=args.touch_proof), args.count, args.seed)
        )
        seconds = time.perf_counter() - began
        each = [m.seconds for m in made]
        colours = sorted(len(m.puzzle.colours) for m in made)
        print(
            f"| {size} | {low}-{high} | {colours[0]}-{colours[-1]} | {len(made)} | {seconds:.2f} | "
            f"{len(made) / seconds:.1f} | "
            f"{statistics.median(each):.3f} | {max(each):.3f} | {sum(m.covers for m in made)} | "
            f"{sum(m.repairs for m in made)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

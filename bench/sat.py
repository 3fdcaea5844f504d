"""The SAT engines beside CP-SAT, side by side in one run: per set, each contender's verdicts,
total, median and worst seconds (in-process, imports left out), and the SAT rounds and loop cuts.

python bench/sat.py [--sets zucker,large,variants] [--contenders cpsat,sat,sat:alone,...]
                    [--time-limit 60] [--repeat 1] [--save]

A contender is an engine name, with `:alone` for its model without the front end's forced moves.
Every answer passes the verifier (the pipeline's). --save also writes the output to docs/figures/sat.md.
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import boards, recorded, saving

CONTENDERS = "cpsat,cpsat:alone,sat,sat:alone,sat-glucose:alone,sat-minisat:alone"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="zucker,large,variants")
    parser.add_argument("--contenders", default=CONTENDERS)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--repeat", type=int, default=1, help="runs per puzzle; the median is kept")
    saving(parser)
    args = parser.parse_args()
    with recorded("sat", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """Each contender on each set, a row each."""
    from cpflow.engines import catalog, pipeline

    contenders = args.contenders.split(",")
    for name in {c.split(":")[0] for c in contenders}:
        catalog.warm(name)
    print("| set | contender | solved | unsolvable | unknown | total s | median s | worst s | rounds | cuts |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for folder in args.sets.split(","):
        found = boards(folder)
        for contender in contenders:
            engine, _, mode = contender.partition(":")
            options = {"forced": False} if mode == "alone" else {}
            verdicts, seconds, rounds, cuts = [], [], 0, 0
            for puzzle in found:
                runs = []
                for _ in range(args.repeat):
                    began = time.perf_counter()
                    result = pipeline.solve(puzzle, engine, time_limit=args.time_limit, **options)
                    runs.append(time.perf_counter() - began)
                seconds.append(statistics.median(runs))
                verdicts.append(result.status.value)
                rounds += result.stats.get("rounds", 0)
                cuts += result.stats.get("cuts", 0)
            worst = max(range(len(found)), key=seconds.__getitem__)
            print(
                f"| {folder} ({len(found)}) | {contender} | {verdicts.count('solved')} | "
                f"{verdicts.count('unsolvable')} | {verdicts.count('unknown')} | {sum(seconds):.2f} | "
                f"{statistics.median(seconds):.3f} | {seconds[worst]:.2f} ({found[worst].name.split('/')[-1]}) | "
                f"{rounds if engine.startswith('sat') else '-'} | {cuts if engine.startswith('sat') else '-'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""Alternatives of the SAT encoding side by side: each variant on each board in turn (the clauses alone,
CaDiCaL, one solution), and the total seconds per variant.

python bench/sat_encodings.py [SET ...] [--max-nodes 1300]     (SET: a folder of ../shared/puzzles)

Variants are made by swapping a clause family of cpflow.engines.cnf for the run.
"""

from __future__ import annotations

import argparse
import time

from common import puzzles


def degrees_by_counting(v) -> None:
    """Degree by a sequential counter over the steps at each node; turn variables fixed false."""
    from pysat.card import CardEnc, EncType

    for u in v.puzzle.nodes:
        steps = [v.step(u, w) for w in v.steps_from(u)]
        if u in v.owner:
            v.exactly_one(steps)
        else:
            v.clauses.extend(CardEnc.equals(steps, 2, vpool=v.pool, encoding=EncType.seqcounter).clauses)
            v.clauses.extend([-turn] for turn in v.turns_at[u].values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=["zucker", "large"])
    parser.add_argument("--max-nodes", type=int, default=1300)
    args = parser.parse_args()
    from cpflow.board.formats import load
    from cpflow.clock import NEVER
    from cpflow.engines import cnf, sat

    variants = {
        "turns and ring limits (kept)": (cnf.add_degrees, cnf.add_ring_limits),
        "turns, no ring limits": (cnf.add_degrees, lambda v: None),
        "degree by a counter over the steps, ring limits": (degrees_by_counting, cnf.add_ring_limits),
    }
    boards = [load(path)[0] for folder in args.sets for path in puzzles(folder)]
    boards = [b for b in boards if len(b.nodes) <= args.max_nodes]
    totals = dict.fromkeys(variants, 0.0)
    for puzzle in boards:
        for name, (degrees, ring_limits) in variants.items():
            cnf.add_degrees, cnf.add_ring_limits = degrees, ring_limits
            began = time.perf_counter()
            found, finished, _ = sat.solutions(cnf.build(puzzle), sat.DEFAULT, 1, (), NEVER)
            totals[name] += time.perf_counter() - began
            assert found or finished
    print(f"| variant ({len(boards)} boards) | total seconds |")
    print("|---|---|")
    for name, seconds in totals.items():
        print(f"| {name} | {seconds:.1f} |")


if __name__ == "__main__":
    main()

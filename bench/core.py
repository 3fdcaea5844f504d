"""The front end's search in Python and in C (cpflow/deduce/core.c) side by side, on the same boards
in one run: per set, the seconds each takes to the end of its search (every solution, or --budget
branches), in-process, and how many times slower Python is. Both find the same solutions after the
same branches (tests/test_compiled.py), so the ratio is the cost of a branch.

python bench/core.py [--sets puzzles,zucker,large,variants] [--nodes 1600] [--budget 200000] [--save]

A set is a folder of ../shared/puzzles, or `puzzles` (the project's collection); boards of more
than --nodes nodes are left out (the Python search takes seconds on each). --save also writes the
output to docs/figures/core.md, which README and docs quote.
"""

from __future__ import annotations

import argparse
import time

from common import ROOT, boards, recorded, saving

from cpflow.board.formats import load
from cpflow.board.grid import Puzzle
from cpflow.deduce import compiled
from cpflow.deduce.rules import Contradiction, Exhausted
from cpflow.deduce.search import Search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="puzzles,zucker,large,variants")
    parser.add_argument("--nodes", type=int, default=1600, help="boards of more nodes are left out")
    parser.add_argument("--budget", type=int, default=200_000, help="branches, at most, a board")
    saving(parser)
    args = parser.parse_args()
    if not compiled.takes(load(ROOT / "puzzles" / "starter_5x5.txt")[0]):
        raise SystemExit("the compiled core is not built: nothing to compare")
    with recorded("core", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """A row a set: boards, Python's seconds, C's, the ratio."""
    print("| set | boards | Python s | C s | Python / C |\n|---|---|---|---|---|")
    for folder in args.sets.split(","):
        found = [p for p in collection(folder) if len(p.nodes) <= args.nodes and compiled.takes(p)]
        python = sum(seconds(Search, p, args.budget) for p in found)
        core = sum(seconds(compiled.CompiledSearch, p, args.budget) for p in found)
        print(f"| {folder} | {len(found)} | {python:.2f} | {core:.3f} | {python / core:.0f}x |", flush=True)


def collection(folder: str) -> list[Puzzle]:
    """The first puzzle of each file of a set: the project's `puzzles`, or a folder of ../shared."""
    if folder != "puzzles":
        return boards(folder)
    paths = [p for p in sorted((ROOT / "puzzles").glob("*.txt")) if not p.name.endswith(".solution.txt")]
    return [load(path)[0] for path in paths]


def seconds(kind, puzzle: Puzzle, budget: int) -> float:
    """Wall seconds of one search of `kind` on the board, from settling its start to its end."""
    began = time.perf_counter()
    try:
        for _ in kind(puzzle).solutions(budget):
            pass
    except (Contradiction, Exhausted):
        pass
    return time.perf_counter() - began


if __name__ == "__main__":
    main()

"""What-if steps as a player reads them, on 100 of the game's levels: how long their reasons are,
how many cells they name, and whether every chain still reaches the game's own solution.

python bench/whatifs.py [--levels DIR] [--seed N] [--per-pack N] [--save]

The levels: `--per-pack` (5) drawn with `--seed` (2026) from each of PACKS, twenty of the game's
packs (nubango/FlowFree's Assets/Levels/levelpack_*.txt, read from outside the repository) that
hold every kind of board: square and rectangles, bridges, hexagons, walls, warps, holes.
Each level's hint chain runs from the bare puzzle to its end (cpflow.workflows.hints.chain),
every step checked against the level's solution. Per pack and overall: the what-if steps, the
median, 95th percentile and longest reason (characters), the share at most 200 characters, the
median and most cells a what-if names (its cells, its reason's and the cells that force it), the
what-if steps whose every chain is true as written (each link replayed from the position and the
assumption by its own rule, then the contradiction: cpflow.deduce.replay), and the chains right to
the end. Exits 1 if a chain does not reach the solution, a step disagrees or a chain is not true as
written.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

from common import ROOT, recorded, saving

LEVELS = ROOT.parent / "data" / "nubango+FlowFree" / "FlowFree" / "Assets" / "Levels"
PACKS = (  # every kind of board the game has; the packs of 'jumbo' boards for the longest chains
    "0", "2", "5", "10", "14", "15", "16", "18", "21", "23_hexes", "24_rectangle", "25_mania15",
    "26_courtyard", "27_warps", "28_party", "29_jumboRectangle", "33_variety", "35_worm",
    "37_jumboCourtyard", "40_jumboRainbow",
)  # fmt: skip
SHORT = 200  # characters: a reason read in one breath
CELL = re.compile(r"\br\d+c\d+\b")


def drawn(levels: Path, pack: str, seed: int, count: int) -> list[tuple[str, object, object]]:
    """`count` levels of a pack, drawn with the seed (the same ones every run): (name, puzzle, solution)."""
    from cpflow.board.formats import load_with_solutions

    loaded = load_with_solutions(levels / f"levelpack_{pack}.txt")
    chosen = sorted(random.Random(f"{seed}:{pack}").sample(range(len(loaded)), min(count, len(loaded))))
    return [(f"{pack}#{i + 1}", *loaded[i]) for i in chosen]


def true_as_written(before, step) -> bool:
    """Whether every chain of a what-if step replays link by link from the play before it."""
    from functools import partial

    from cpflow.deduce.replay import replays
    from cpflow.deduce.rulebook import ALL
    from cpflow.deduce.rules import Graph, Partial
    from cpflow.deduce.settle import settle

    g = Graph(before)
    settled = g.start()
    settle(settled)
    for a in step.assumptions:
        if step.origin is not None:
            i, j = g.index[step.origin], g.index[a.toward]
            move = partial(Partial.join, edge=next(e for k, e in g.adjacent[i] if k == j))
        else:
            move = partial(Partial.paint, node=g.index[step.cells[0]], c=g.colours.index(a.colour))
        followed, met = a.followed, a.conflict
        if not any(replays(settled, move, followed, met.rule, met.nodes, allow) for allow in (0, ALL)):
            return False
    return True


def measured(puzzle, solution) -> tuple[list[tuple[int, int, bool]], bool, float]:
    """Each what-if step's reason length, cells named and whether it is true as written; whether the
    chain was right to the end; seconds."""
    from cpflow.deduce.sentences import at
    from cpflow.workflows.hints import SOLVED, chain

    began = time.perf_counter()
    hints = list(chain(puzzle))
    seconds = time.perf_counter() - began
    colour_of = solution.colour_of()
    right = hints[-1].status == SOLVED and all(
        colour_of[cell] == h.step.colour for h in hints if h.step for cell in h.step.cells
    )
    steps = []
    for before, h in zip([puzzle] + [h.play for h in hints], hints, strict=False):
        if h.step and h.step.kind == "what if":
            named = set(CELL.findall(h.reason)) | {at(n) for n in h.step.cells} | {at(n) for n in h.step.because}
            steps.append((len(h.reason), len(named), true_as_written(before, h.step)))
    return steps, right, seconds


def percentile(values: list[int], share: float) -> int:
    """The value `share` of the values are at most (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-int(share * 100) * len(ordered) // 100) - 1)]


def row(name: str, steps: list[tuple[int, int, bool]], levels: int, right: int, seconds: float) -> str:
    lengths, named = [n for n, _, _ in steps], [c for _, c, _ in steps]
    if not steps:
        figures = ["0", "-", "-", "-", "-", "-", "-", "-"]
    else:
        short = sum(n <= SHORT for n in lengths) / len(lengths)
        figures = [str(len(steps)), f"{statistics.median(lengths):.0f}", str(percentile(lengths, 0.95))]
        figures += [str(max(lengths)), f"{short:.0%}", f"{statistics.median(named):.0f}", str(max(named))]
        figures.append(f"{sum(true for _, _, true in steps)}/{len(steps)}")
    return "| " + " | ".join([name, str(levels), *figures, f"{right}/{levels}", f"{seconds:.1f}"]) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=Path, default=LEVELS, help="the folder of levelpack_*.txt")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-pack", type=int, default=5)
    saving(parser)
    args = parser.parse_args()
    if not args.levels.is_dir():
        sys.exit(f"{args.levels} is absent: nothing to measure")
    columns = ["pack", "levels", "what ifs", "median chars", "95% chars", "most chars", f"<= {SHORT}"]
    columns += ["median cells", "most cells", "true as written", "right to the end", "seconds"]
    every: list[tuple[int, int, bool]] = []
    total_right = total_levels = 0
    total_seconds = 0.0
    with recorded("whatifs", args.save):
        print("| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
        for pack in PACKS:
            steps, right, seconds = [], 0, 0.0
            levels = drawn(args.levels, pack, args.seed, args.per_pack)
            for _, puzzle, solution in levels:
                found, ok, took = measured(puzzle, solution)
                steps += found
                right += ok
                seconds += took
            print(row(pack, steps, len(levels), right, seconds), flush=True)
            every += steps
            total_right, total_levels, total_seconds = (
                total_right + right,
                total_levels + len(levels),
                total_seconds + seconds,
            )
        print(row("all", every, total_levels, total_right, total_seconds))
    sys.exit(0 if total_right == total_levels and all(true for _, _, true in every) else 1)


if __name__ == "__main__":
    main()

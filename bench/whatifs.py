"""What-if steps as a player reads them, on 100 of the game's levels: how long their reasons are,
how many cells they name, and whether every chain still reaches the game's own solution.

python bench/whatifs.py [--levels DIR] [--seed N] [--per-pack N] [--against WORKTREE]... [--save]

The levels: `--per-pack` (5) drawn with `--seed` (2026) from each of PACKS, twenty of the game's
packs (nubango/FlowFree's Assets/Levels/levelpack_*.txt, read from outside the repository) that
hold every kind of board: square and rectangles, bridges, hexagons, walls, warps, holes.
Each level's hint chain runs from the bare puzzle to its end (cpflow.workflows.hints.chain),
every step checked against the level's solution. Per pack and overall: the what-if steps, the
median, 95th percentile and longest reason (characters), the share at most 200 characters, the
median and most cells a what-if names (its cells, its reason's and the cells that force it), the
what-if steps whose every chain is true as written (each link replayed from the position and the
assumption by its own rule, then the contradiction: cpflow.deduce.replay), what ifs per level's chain,
the guesses and the levels whose chain needs one (a poor hint: a player is told to try a colour), and
the chains right to the end. `--against WORKTREE` (again for more): the same levels measured beside
with another commit's cpflow (a `git worktree` of it, with cpflow/deduce/replay.py copied in if it
predates it): its what ifs, those true as written and the levels needing a guess. Exits 1 if a chain
does not reach the solution, a step disagrees or a chain is not true as written.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
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


def measured(puzzle, solution) -> tuple[list[tuple[int, int, bool]], int, bool, float]:
    """Each what-if step's reason length, cells named and whether it is true as written; the guesses;
    whether the chain was right to the end; seconds."""
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
    return steps, sum(1 for h in hints if h.step and h.step.kind == "guess"), right, seconds


def percentile(values: list[int], share: float) -> int:
    """The value `share` of the values are at most (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-int(share * 100) * len(ordered) // 100) - 1)]


def row(name: str, steps: list[tuple[int, int, bool]], guesses: list[int], right: int, seconds: float) -> str:
    levels = len(guesses)
    lengths, named = [n for n, _, _ in steps], [c for _, c, _ in steps]
    if not steps:
        figures = ["0", "-", "-", "-", "-", "-", "-", "-"]
    else:
        short = sum(n <= SHORT for n in lengths) / len(lengths)
        figures = [str(len(steps)), f"{statistics.median(lengths):.0f}", str(percentile(lengths, 0.95))]
        figures += [str(max(lengths)), f"{short:.0%}", f"{statistics.median(named):.0f}", str(max(named))]
        figures.append(f"{sum(true for _, _, true in steps)}/{len(steps)}")
    figures += [f"{len(steps) / levels:.1f}", str(sum(guesses)), str(sum(n > 0 for n in guesses))]
    return "| " + " | ".join([name, str(levels), *figures, f"{right}/{levels}", f"{seconds:.1f}"]) + " |"


Measured = tuple[list[tuple[int, int, bool]], list[int], int, float]  # what-if steps, guesses a level, right, s


def pack_measured(levels: Path, pack: str, seed: int, count: int) -> Measured:
    """A pack's what-if steps (`measured`), guesses per level, levels right to the end and seconds."""
    steps: list[tuple[int, int, bool]] = []
    guesses, right, seconds = [], 0, 0.0
    for _, puzzle, solution in drawn(levels, pack, seed, count):
        found, guessed, ok, took = measured(puzzle, solution)
        steps += found
        guesses.append(guessed)
        right += ok
        seconds += took
    return steps, guesses, right, seconds


def against(worktree: Path, args: argparse.Namespace, pack: str) -> subprocess.Popen:
    """This script on one pack with another commit's cpflow first on PYTHONPATH, answering in JSON."""
    env = {**os.environ, "PYTHONPATH": str(worktree)}
    asked = [sys.executable, __file__, "--levels", str(args.levels), "--seed", str(args.seed)]
    asked += ["--per-pack", str(args.per_pack), "--one-pack", pack]
    return subprocess.Popen(asked, env=env, stdout=subprocess.PIPE, text=True)


def commit(worktree: Path) -> str:
    git = ["git", "-C", str(worktree), "rev-parse", "--short", "HEAD"]
    return subprocess.run(git, capture_output=True, text=True).stdout.strip() or worktree.name


def compared(results: list[Measured]) -> list[str]:
    """Another commit's what ifs, those true as written and the levels needing a guess, per result."""
    return [
        f"{len(steps)} | {sum(true for _, _, true in steps)}/{len(steps)} | {sum(n > 0 for n in guesses)}"
        for steps, guesses, _, _ in results
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=Path, default=LEVELS, help="the folder of levelpack_*.txt")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-pack", type=int, default=5)
    parser.add_argument("--against", type=Path, action="append", default=[], metavar="WORKTREE")
    parser.add_argument("--one-pack", help=argparse.SUPPRESS)  # what --against runs in each worktree
    saving(parser)
    args = parser.parse_args()
    if not args.levels.is_dir():
        sys.exit(f"{args.levels} is absent: nothing to measure")
    if args.one_pack:
        print(json.dumps(pack_measured(args.levels, args.one_pack, args.seed, args.per_pack)))
        return
    columns = ["pack", "levels", "what ifs", "median chars", "95% chars", "most chars", f"<= {SHORT}"]
    columns += ["median cells", "most cells", "true as written", "what ifs per level", "guesses", "needs a guess"]
    columns += ["right to the end", "seconds"]
    for name in map(commit, args.against):
        columns += [f"what ifs at {name}", f"true at {name}", f"needs a guess at {name}"]
    every: list[Measured] = []
    others: list[list[Measured]] = [[] for _ in args.against]
    with recorded("whatifs", args.save):
        print("| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
        for pack in PACKS:
            running = [against(worktree, args, pack) for worktree in args.against]  # beside this one
            mine = pack_measured(args.levels, pack, args.seed, args.per_pack)
            theirs = [json.loads(run.communicate()[0]) for run in running]
            print(row(pack, *mine).rstrip(" |") + "".join(f" | {c}" for c in compared(theirs)) + " |", flush=True)
            every.append(mine)
            for kept, result in zip(others, theirs, strict=True):
                kept.append(result)
        total = [summed(results) for results in (every, *others)]
        print(row("all", *total[0]).rstrip(" |") + "".join(f" | {c}" for c in compared(total[1:])) + " |")
    steps, guesses, right, _ = total[0]
    sys.exit(0 if right == len(guesses) and all(true for _, _, true in steps) else 1)


def summed(results: list[Measured]) -> Measured:
    """Several packs' measures as one."""
    steps = [step for result in results for step in result[0]]
    guesses = [n for result in results for n in result[1]]
    return steps, guesses, sum(result[2] for result in results), sum(result[3] for result in results)


if __name__ == "__main__":
    main()

"""Render then import: every board cpflow draws as PNG (`cpflow render`'s picture, cpflow.pictures.files)
read back by `cpflow import` (cpflow.vision), unsolved and solved: the project's puzzles (puzzles/,
each with its solution file) and generated boards of each kind (square, holes, walls, bridges,
warps, hexagons: vision_kinds.KINDS; cpflow.workflows.generate, sizes 5 to 15 a side). A reading is
- exact: the same board (size, shape, holes, walls, warps, bridges) and pairs of endpoint cells and,
  solved, the play read is the whole solution (every cell of it, a bridge's lanes too), which the
  verifier passes as `import --play` writes it;
- refused: refused in one line;
- wrong: another board or play written (the case that must never happen).
The time is the import's (decoding included), per picture.

    python bench/round_trip.py [--count 50] [--seed 1] [--kinds square,holes,...] [--save]

--save also writes the tables to docs/figures/round_trip.md, which docs quote.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from common import ROOT, recorded, saving
from vision_kinds import KINDS, board_of

from cpflow.board.formats import load, load_solution, parse_solution, play_text
from cpflow.board.grid import Puzzle, Solution
from cpflow.board.verify import problems
from cpflow.errors import GenerationFailed, ScreenshotUnreadable
from cpflow.pictures.files import drawing
from cpflow.vision.screenshot import read
from cpflow.workflows.generate.order import Order, default_colours, plain
from cpflow.workflows.generate.pack import generate_one


def judge(puzzle: Puzzle, solution: Solution | None) -> tuple[str, float]:
    """How the PNG `cpflow render` draws of the puzzle (with its solution, if given) imports back:
    exact, refused or wrong, and the import's seconds."""
    data = drawing(Path("board.png"), puzzle, [solution] if solution else [], (), False, False, 3.0, ())
    began = time.perf_counter()
    try:
        reading = read(data)
    except ScreenshotUnreadable as error:
        return ("refused" if "\n" not in str(error) else "wrong"), time.perf_counter() - began
    seconds = time.perf_counter() - began
    found = reading.puzzle
    if board_of(found) != board_of(puzzle):
        return "wrong", seconds
    names = {frozenset(ends): colour for colour, ends in puzzle.endpoints.items()}
    own = {colour: names[frozenset(ends)] for colour, ends in found.endpoints.items()}
    dots = {n for ends in puzzle.endpoints.values() for n in ends}
    truth = {n: k for k, path in (solution.paths if solution else {}).items() for n in path if n not in dots}
    if {node: own[colour] for node, colour in reading.play.drawn.items()} != truth:
        return ("refused" if reading.play.unsure else "wrong"), seconds
    if solution and problems(found, parse_solution(found, play_text(reading.played()))):
        return "wrong", seconds
    return "exact", seconds


def project() -> list[tuple[str, Puzzle, Solution | None]]:
    """The puzzles of puzzles/ with their solutions (None for the unsolvable one)."""
    found = []
    for path in sorted((ROOT / "puzzles").glob("*.txt")):
        if path.name.endswith(".solution.txt"):
            continue
        (puzzle,) = load(path)
        answer = path.with_name(f"{path.stem}.solution.txt")
        found.append((path.stem, puzzle, load_solution(puzzle, answer) if answer.exists() else None))
    return found


def generated(kind: str, count: int, seed: int) -> list[tuple[str, Puzzle, Solution]]:
    """`count` generated boards of a kind, of random sizes."""
    has, rng, found = KINDS[kind], random.Random(f"{seed}:{kind}"), []
    for k in range(count):
        width, height = rng.randint(5, 15), rng.randint(5, 15)
        holes = has.get("holes", 0)
        order = Order(
            plain(width, height, has.get("shape", "square")),
            default_colours(width, height, holes),
            holes=holes,
            walls=has.get("walls", 0),
            warps=has.get("warps", 0),
            bridges=has.get("bridges", 0),
        )
        try:
            made = generate_one(k + 1, order, seed)
        except GenerationFailed:
            continue
        found.append((f"{kind} {width}x{height} #{k + 1}", made.puzzle, made.solution))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="generated boards of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated")
    saving(parser)
    args = parser.parse_args()
    with recorded("round_trip", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """A row per set (puzzles/, then each kind) and state, then the times; every miss named."""
    print("| boards | state | pictures | exact | refused in one line | wrong |")
    print("|---|---|---|---|---|---|")
    sets = {"puzzles/": project()} | {kind: generated(kind, args.count, args.seed) for kind in args.kinds.split(",")}
    seconds, misses = [], []
    for name, boards in sets.items():
        for state in ("unsolved", "solved"):
            counts: Counter = Counter()
            for label, puzzle, solution in boards:
                if state == "solved" and solution is None:
                    continue
                verdict, took = judge(puzzle, solution if state == "solved" else None)
                counts[verdict] += 1
                seconds.append(took)
                if verdict != "exact":
                    misses.append(f"{label} {state}: {verdict}")
            found = " | ".join(str(counts[what]) for what in ("exact", "refused", "wrong"))
            print(f"| {name} | {state} | {counts.total()} | {found} |", flush=True)
    median, worst = statistics.median(seconds), max(seconds)
    print(f"\nseconds per import (decoding included): median {median:.3f}, worst {worst:.3f}")
    print("\n".join(["", "not exact:", *misses]) if misses else "\nevery picture exact")


if __name__ == "__main__":
    main()

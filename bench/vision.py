"""Screenshot import on synthetic screenshots: how many import exactly (the puzzle, and on a partly
played board every pipe drawn), by kind, and how fast.

    python bench/vision.py [--count 400] [--seed 1] [--failures DIR]

Each screenshot is a random puzzle drawn in the game's style (`cpflow.vision.synthetic`)
at a phone resolution from 720x1480 to 1440x2560, dark or light, some partly played,
some JPEG (quality 60-95), some scaled, some with the colour-blind letters in the
dots, some shaped (holes cut in corners and sides), half the played ones with the
finger's highlight on the board, and a desktop window (1366x768); it imports exactly
when the board's size, its holes and its pairs of endpoint cells are the puzzle's
(colour names aside), and every pipe drawn is read with its colour, no cell more.
Prints a table per
kind (count, exact, failures), every failure with its reason, and the median and worst
import time of the phone-sized screenshots (1080 wide and up, decoding included).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

from cpflow.board.grid import Puzzle
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.screenshot import read
from cpflow.vision.synthetic import Shot, make_played

SIZES = [(n, n) for n in range(5, 16)] + [(14, 18), (8, 10), (10, 12)]
SCREENS = [(720, 1480), (1080, 1920), (1080, 2400), (1440, 2560), (1440, 3200), (1366, 768)]  # the last a desktop


def shots(count: int, seed: int) -> list[Shot]:
    """`count` screenshots of every kind, drawn at random (the same for the same seed)."""
    rng = random.Random(seed)
    made = []
    for k in range(count):  # (a shot with finger but not played has no pipe to put it on: no disc)
        width, height = SIZES[k % len(SIZES)]
        made.append(
            Shot(
                width,
                height,
                rng.choice(SCREENS),
                light=rng.random() < 0.3,
                played=rng.choice([0.0, 0.0, 0.5, 0.9]),
                quality=rng.choice([None, None, 60, 75, 85, 95]),
                rescale=rng.choice([1.0, 1.0, 1.0, 0.6, 0.8, 1.25]),
                letters=rng.random() < 0.2,
                shaped=rng.random() < 0.15,
                finger=rng.random() < 0.5,  # on a played board only (a finger draws)
                seed=seed * 100_000 + k,
            )
        )
    return made


def same(found: Puzzle, puzzle: Puzzle) -> bool:
    """The same board, holes and pairs of endpoint cells, whatever the colours are called."""
    pairs = lambda p: {frozenset(ends) for ends in p.endpoints.values()}  # noqa: E731
    board = lambda p: (p.width, p.height, tuple(p.holes()))  # noqa: E731
    return board(found) == board(puzzle) and pairs(found) == pairs(puzzle)


def kinds(shot: Shot) -> list[str]:
    """The rows of the table a screenshot counts in."""
    size = "14x18" if (shot.width, shot.height) == (14, 18) else f"{shot.width}x{shot.height}"
    return [
        f"size {size}",
        f"screen {shot.screen[0]}x{shot.screen[1]}",
        "theme light" if shot.light else "theme dark",
        "partly played" if shot.played else "unplayed",
        f"JPEG {shot.quality}" if shot.quality else "PNG",
        "scaled" if shot.rescale != 1.0 else "unscaled",
        "letters in dots" if shot.letters else "plain dots",
        "shaped (holes)" if shot.shaped else "whole board",
        *(["finger on the board" if shot.finger else "no finger"] if shot.played else []),
    ]


def _natural(kind: str) -> list:
    """A kind's name with its numbers as numbers, so that 5x5 comes before 10x10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", kind)]


def judge(shot: Shot) -> tuple[bool, str, float, bytes]:
    """Import one screenshot: whether exactly (the puzzle, and every pipe drawn), why not, the
    seconds taken, and its bytes."""
    data, puzzle, drawn = make_played(shot)
    start = time.perf_counter()
    try:
        reading = read(data)
    except ScreenshotUnreadable as error:
        return False, str(error), time.perf_counter() - start, data
    seconds = time.perf_counter() - start
    found = reading.puzzle
    if same(found, puzzle):
        names = {frozenset(ends): colour for colour, ends in puzzle.endpoints.items()}
        own = {colour: names[frozenset(ends)] for colour, ends in found.endpoints.items()}
        play = {cell: own[colour] for cell, colour in reading.play.drawn.items()}
        dots = puzzle.endpoint_colour()
        truth = {cell: colour for colour, path in drawn.paths.items() for cell in path if cell not in dots}
        if play == truth:
            return True, "", seconds, data
        wrong = sum(play[cell] != colour for cell, colour in truth.items() if cell in play)
        wrong += len(set(play) - set(truth))
        missed = len(set(truth) - set(play))
        unsure = len(reading.play.unsure)
        return False, f"wrong play: {wrong} cells wrong, {missed} missed ({unsure} said unsure)", seconds, data
    size, wanted = (found.width, found.height), (puzzle.width, puzzle.height)
    wrong = "wrong size" if size != wanted else "wrong holes" if found.holes() != puzzle.holes() else "wrong dots"
    reason = (
        f"{wrong}: read as {found.width}x{found.height} with {len(found.holes())} holes and "
        f"{len(found.endpoints)} colours, not {puzzle.width}x{puzzle.height} with {len(puzzle.holes())} "
        f"and {len(puzzle.endpoints)}"
    )
    return False, reason, seconds, data


def report(table: dict[str, Counter], order: dict[str, int], failures: list, seconds: list[float]) -> None:
    print("| kind | count | exact | failures |\n|---|---|---|---|")
    for kind, counts in sorted(table.items(), key=lambda item: (order.get(item[0], -1), _natural(item[0]))):
        print(f"| {kind} | {counts['count']} | {counts['exact']} | {counts['count'] - counts['exact']} |")
    print()
    for shot, reason in failures:
        print(f"failed: seed {shot.seed} ({shot.kind}, {shot.screen[0]}x{shot.screen[1]}): {reason}")
    print("failures by reason:", dict(Counter(reason.split(":")[0] for _, reason in failures)) or "none")
    if seconds:
        print(
            f"import time, phone-sized ({len(seconds)} screenshots 1080 px wide or more): "
            f"median {statistics.median(seconds):.3f} s, worst {max(seconds):.3f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--failures", type=Path, help="write each failing screenshot here")
    args = parser.parse_args()
    table: dict[str, Counter] = defaultdict(Counter)
    order: dict[str, int] = {}
    failures, phone_seconds = [], []
    for shot in shots(args.count, args.seed):
        exact, reason, seconds, data = judge(shot)
        if shot.screen[0] * shot.rescale >= 1080:
            phone_seconds.append(seconds)
        for i, kind in enumerate(["all", *kinds(shot)]):
            table[kind]["count"] += 1
            table[kind]["exact"] += exact
            order[kind] = i
        if not exact:
            failures.append((shot, reason))
            if args.failures:
                args.failures.mkdir(parents=True, exist_ok=True)
                (args.failures / f"{shot.seed}.{'jpg' if shot.quality else 'png'}").write_bytes(data)
    report(table, order, failures, phone_seconds)


if __name__ == "__main__":
    main()

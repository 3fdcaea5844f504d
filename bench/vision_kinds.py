"""Screenshot import by kind of board: square, holes, walls, hexagons, bridges, warps; unsolved
and half played. Each screenshot is a generated puzzle (cpflow.workflows.generate, so a
real level's kind) drawn in the game's style (cpflow.vision.synthetic.draw), half played
with the first half of each of some paths of its solution. A reading is exact when the
board (size, shape, holes, walls, warps, bridges), the pairs of endpoint cells and the
pipes drawn all match; said when the import refused it in one line; wrong when it wrote
another board (or play): the case that must never happen. A puzzle with a white colour
(`W`) is drawn on the dark theme only, as the game shows no white dots on a light board.

    python bench/vision_kinds.py [--count 50] [--seed 1] [--save]

--save also writes the table to docs/figures/vision_kinds.md, which README and docs quote.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from common import recorded, saving

from cpflow.board.grid import Puzzle, Solution, cell_of
from cpflow.errors import GenerationFailed, ScreenshotUnreadable
from cpflow.vision.screenshot import read
from cpflow.vision.synthetic import Shot, draw
from cpflow.workflows.generate.order import Order, default_colours, plain
from cpflow.workflows.generate.pack import generate_one

KINDS = {  # name -> what each board has
    "square": {},
    "holes": {"holes": 6},
    "walls": {"walls": 5},
    "hexagons": {"shape": "hex"},
    "bridges": {"bridges": 2},
    "warps": {"warps": 2},
}
SCREENS = [(720, 1480), (1080, 2400), (1440, 2560), (1366, 768)]


def board_of(puzzle: Puzzle) -> tuple:
    cells = lambda pairs: sorted(tuple(sorted(p)) for p in pairs)  # noqa: E731
    return (
        puzzle.width,
        puzzle.height,
        puzzle.shape,
        tuple(puzzle.holes()),
        tuple(cells(puzzle.walls())),
        tuple(cells(puzzle.warps())),
        tuple(sorted(puzzle.bridges())),
        frozenset(frozenset(cell_of(n) for n in ends) for ends in puzzle.endpoints.values()),
    )


def half_played(solution: Solution, rng: random.Random) -> Solution:
    """The first half of some of the solution's paths, from one end."""
    return Solution({k: p[: len(p) // 2 + 1] for k, p in solution.paths.items() if rng.random() < 0.6})


def judge(puzzle: Puzzle, drawn: Solution, shot: Shot) -> str:
    try:
        reading = read(draw(puzzle, shot, drawn))
    except ScreenshotUnreadable:
        return "said"
    found = reading.puzzle
    if board_of(found) != board_of(puzzle):
        return "wrong"
    names = {frozenset(ends): colour for colour, ends in puzzle.endpoints.items()}
    own = {colour: names[frozenset(ends)] for colour, ends in found.endpoints.items()}
    dots = {n for ends in puzzle.endpoints.values() for n in ends}
    truth = {n: k for k, path in drawn.paths.items() for n in path if n not in dots}
    play = {node: own[colour] for node, colour in reading.play.drawn.items()}
    return "exact" if play == truth else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="screenshots per kind and per unsolved/half played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated")
    saving(parser)
    args = parser.parse_args()
    with recorded("vision_kinds", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """A row per kind of board, unsolved and half played."""
    print("| kind | played | screenshots | exact | said in one line | wrong board or play |")
    print("|---|---|---|---|---|---|")
    kinds: dict[str, Counter] = {}  # a kind's counts, unsolved and half played together
    for name in args.kinds.split(","):
        has = KINDS[name]
        kinds[name] = Counter()
        for played in (False, True):
            rng, counts = random.Random(f"{args.seed}:{name}:{played}"), Counter()
            for k in range(args.count):
                size = rng.choice([6, 7, 8, 9, 10, 12])
                board = plain(size, size, has.get("shape", "square"))
                holes, walls = has.get("holes", 0), has.get("walls", 0)
                colours = default_colours(size, size, holes)
                order = Order(
                    board, colours, holes=holes, walls=walls, warps=has.get("warps", 0), bridges=has.get("bridges", 0)
                )
                try:
                    made = generate_one(k + 1, order, args.seed)
                except GenerationFailed:
                    continue
                drawn = half_played(made.solution, rng) if played else Solution({})
                shot = Shot(
                    size,
                    size,
                    rng.choice(SCREENS),
                    light=rng.random() < 0.3 and "W" not in made.puzzle.colours,  # no white dots on a light board
                    quality=rng.choice([None, 60, 85]),
                    rescale=rng.choice([1.0, 1.0, 0.8, 1.25]),
                    seed=k,
                )
                counts[judge(made.puzzle, drawn, shot)] += 1
            total = sum(counts.values())
            kinds[name] += counts
            print(
                f"| {name} | {'half' if played else 'no'} | {total} | {counts['exact']} | {counts['said']} "
                f"| {counts['wrong']} |",
                flush=True,
            )
    exact = ", ".join(f"{name} {c['exact']} of {c.total()}" for name, c in kinds.items())
    said, wrong = (sum(c[what] for c in kinds.values()) for what in ("said", "wrong"))
    print(f"\nexact, unsolved and half played together: {exact}; said in one line {said}, wrong {wrong}")


if __name__ == "__main__":
    main()

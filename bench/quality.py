"""How game-like puzzles are: per source and board size, the measures issue 27 compares with
the game's own levels. A table row per (source, size):

- links: 2-cell paths (endpoints side by side) per puzzle;
- short: share of paths of at most 3 cells;
- colours/cell: colours per cell;
- length: mean cells per path; bends: mean turns per path (square boards);
- simple: share of the cells between endpoints that the simplest rules (degree, colour,
  loop: the hint ladder's first rung) colour from the bare puzzle;
- touch-unique: share of puzzles still unique when paths may touch themselves (`--touch`).

python bench/quality.py [--generate 9x9,12x12,14x14] [--count 30] [--seed 2026]
                        [--game FILE...] [--other FILE...] [--sizes 9x9,12x12,14x14] [--touch]
                        [--touch-proof]

--game and --other take puzzle files that carry their solutions (the game's level packs,
e.g. nubango/FlowFree's Assets/Levels/levelpack_9.txt, _16 and _21: 150 levels each at
9x9, 12x12 and 14x14), or puzzle files with NAME.solution.txt beside them; every solution
is verified first.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from pathlib import Path

from cpflow.board.formats import load_solution, load_with_solutions
from cpflow.board.grid import Puzzle, Solution, cell_of
from cpflow.board.verify import violations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", default="9x9,12x12,14x14", help="sizes cpflow generates ('' for none)")
    parser.add_argument("--count", type=int, default=30, help="puzzles generated per size")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", nargs="*", default=[], help="the game's levels (files carrying solutions)")
    parser.add_argument("--other", nargs="*", default=[], help="another generator's puzzles")
    parser.add_argument("--sizes", default="9x9,12x12,14x14", help="sizes kept from --game and --other")
    parser.add_argument("--touch", action="store_true", help="also prove each unique under --allow-touch")
    parser.add_argument("--touch-proof", action="store_true", help="generate with --touch-proof")
    args = parser.parse_args()
    sizes = set(args.sizes.split(","))
    groups: dict[tuple[str, str], list[tuple[Puzzle, Solution]]] = defaultdict(list)
    for source, files in (("the game", args.game), ("other", args.other)):
        for puzzle, solution in solved_files(files):
            size = f"{puzzle.width}x{puzzle.height}"
            if size in sizes:
                groups[source, size].append((puzzle, solution))
    for size in filter(None, args.generate.split(",")):
        source = "cpflow --touch-proof" if args.touch_proof else "cpflow"
        groups[source, size] = generated(size, args.count, args.seed, args.touch_proof)
    header = "| source | size | puzzles | links | short | colours/cell | length | bends | simple |"
    print(header + " touch-unique |" * args.touch)
    print("|---" * (9 + args.touch) + "|")
    for (source, size), found in sorted(groups.items(), key=lambda item: (_area(item[0][1]), item[0][0])):
        row = measures(found, args.touch)
        cells = " | ".join(row)
        print(f"| {source} | {size} | {len(found)} | {cells} |", flush=True)


def solved_files(files: list[str]) -> list[tuple[Puzzle, Solution]]:
    """Each puzzle of the files with its solution (carried, or NAME.solution.txt beside), verified."""
    found = []
    for name in files:
        path = Path(name)
        for puzzle, carried in load_with_solutions(path):
            solution = carried
            if solution is None and path.with_suffix(".solution.txt").exists():
                solution = load_solution(puzzle, path.with_suffix(".solution.txt"))
            if solution is None:
                continue
            wrong = violations(puzzle, solution)
            if wrong:
                raise SystemExit(f"{puzzle.name}: its solution is wrong: {wrong[0]}")
            found.append((puzzle, solution))
    return found


def generated(size: str, count: int, seed: int, touch_proof: bool) -> list[tuple[Puzzle, Solution]]:
    from cpflow.workflows.generate.order import Order, default_colours, plain, size_of
    from cpflow.workflows.generate.pack import generate_many

    width, height = size_of(size)
    made = generate_many(
        Order(plain(width, height), default_colours(width, height), touch_proof=touch_proof), count, seed
    )
    return [(one.puzzle, one.solution) for one in made]


def measures(found: list[tuple[Puzzle, Solution]], touch: bool) -> list[str]:
    lengths = [len(_cells(path)) for _, solution in found for path in solution.paths.values()]
    bends = [_bends(_cells(path)) for _, solution in found for path in solution.paths.values()]
    links = sum(n == 2 for n in lengths) / len(found)
    short = sum(n <= 3 for n in lengths) / len(lengths)
    per_cell = statistics.mean(len(p.colours) / len({cell_of(n) for n in p.nodes}) for p, _ in found)
    simple = statistics.mean(simple_share(puzzle) for puzzle, _ in found)
    row = [f"{links:.2f}", f"{short:.1%}", f"{per_cell:.3f}", f"{statistics.mean(lengths):.1f}"]
    row += [f"{statistics.mean(bends):.1f}", f"{simple:.2f}"]
    if touch:
        row.append(f"{statistics.mean(touch_unique(puzzle) for puzzle, _ in found):.0%}")
    return row


def simple_share(puzzle: Puzzle) -> float:
    """The share of cells between endpoints that degree, colour and loop alone colour from the bare puzzle."""
    from cpflow.deduce.rules import NONE, Contradiction, Graph
    from cpflow.deduce.settle import settle

    g = Graph(puzzle)
    p = g.start()
    p.allow, p.queue = 0, list(range(len(g.nodes)))
    try:
        settle(p, reach=False)
    except Contradiction:
        return 0.0
    ends = {i for pair in g.pairs for i in pair}
    inner = [i for i in range(len(g.nodes)) if i not in ends and len(g.nodes[i]) == 2]
    return sum(p.colour[i] != NONE for i in inner) / max(1, len(inner))


def touch_unique(puzzle: Puzzle) -> bool:
    from dataclasses import replace

    from cpflow.board.grid import Rules
    from cpflow.workflows.unique import Verdict, uniqueness

    return uniqueness(replace(puzzle, rules=Rules(touch=True)), time_limit=60).verdict is Verdict.UNIQUE


def _cells(path) -> list:
    return list(dict.fromkeys(cell_of(node) for node in path))


def _bends(cells: list) -> int:
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:], strict=False)]
    return sum(s != t for s, t in zip(steps, steps[1:], strict=False))


def _area(size: str) -> int:
    width, height = map(int, size.split("x"))
    return width * height


if __name__ == "__main__":
    main()

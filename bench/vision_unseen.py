"""Screenshot import on pictures with no truth file: each reading judged against the game's own levels.

    python bench/vision_unseen.py DIR --levels LEVELS [--save]

Reads every picture under DIR (PNG, JPEG, WebP; a folder a source, e.g. a repository's screenshots)
as `cpflow import` reads it (cpflow.workflows.shots.read_shot, in-process), and looks the puzzle
read up among the levels of the game's level packs in LEVELS (every `*.txt` there, read with cpflow's
own readers; nubango/FlowFree's Assets/Levels holds 9,111): the same size, shape, pairs of endpoint
cells and board (holes, walls, warps, bridges: which cell neighbours which). A reading is
- a level: it is one of the game's levels, as the picture shows it (a wrong reading that is
  another level is all but impossible: the pairs of cells would have to match too);
- no level: read, but no level matches: the picture is not in the packs (another game, a
  drawing), or the reading is wrong; these are listed, to be looked at by eye;
- refused: refused in one line (a refusal of more than one line counts as no level).
A table by folder, then the readings that match no level and the refusals, each with its line.
Pictures of the level select, menus and adverts count as refused when refused; their folder says
what they are. --save also writes the output to docs/figures/vision_unseen.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from pathlib import Path

from common import recorded, saving

from cpflow.board.formats import load
from cpflow.board.grid import Puzzle
from cpflow.errors import CpflowError
from cpflow.workflows.shots import is_picture, read_shot

Key = tuple  # what a level is known by: size, shape, pairs of endpoints, and the board's edges


def key(puzzle: Puzzle) -> Key:
    """The level's size, shape, pairs of endpoint cells and the board's edges (holes, walls, warps, bridges)."""
    pairs = frozenset(frozenset(pair) for pair in puzzle.endpoints.values())
    edges = frozenset(frozenset((a, b)) for a, near in puzzle.neighbours.items() for b in near)
    return puzzle.width, puzzle.height, puzzle.shape, pairs, edges


def levels(folder: Path) -> set[Key]:
    """Every level of the level packs in `folder`."""
    known = set()
    for pack in sorted(folder.glob("*.txt")):
        try:
            known.update(key(puzzle) for puzzle in load(pack))
        except CpflowError:
            continue  # a file of another kind beside the packs
    return known


def source(picture: Path, top: Path) -> str:
    """The folder of `top` a picture is in (its source), "." for one at the top."""
    parts = picture.relative_to(top).parts
    return parts[0] if len(parts) > 1 else "."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path, help="a folder of screenshots, a subfolder a source")
    parser.add_argument("--levels", type=Path, required=True, help="the game's level packs (a folder of .txt files)")
    saving(parser)
    args = parser.parse_args()
    known = levels(args.levels)
    found = (Path(top) / name for top, _, names in os.walk(args.dir, followlinks=True) for name in names)
    pictures = sorted((p for p in found if is_picture(p)), key=lambda p: (source(p, args.dir), p))
    outcomes: dict[Path, tuple[str, str]] = {}
    seconds = []
    for picture in pictures:
        began = time.monotonic()
        try:
            reading = read_shot(picture)
        except CpflowError as error:
            said = str(error)
            outcomes[picture] = ("refused" if "\n" not in said else "no level", said.replace(f"{picture}: ", ""))
        else:
            match = key(reading.puzzle) in known
            size = f"{reading.puzzle.width}x{reading.puzzle.height} {reading.puzzle.shape}"
            outcomes[picture] = ("a level" if match else "no level", size)
        seconds.append(time.monotonic() - began)
    with recorded("vision_unseen", args.save, f"{len(pictures)} pictures, {len(known)} levels"):
        by_source: dict[str, Counter] = {}
        for picture, (outcome, _) in outcomes.items():
            by_source.setdefault(source(picture, args.dir), Counter())[outcome] += 1
        by_source["all"] = sum(by_source.values(), Counter())
        print("| folder | pictures | a level | no level | refused |\n|---|---|---|---|---|")
        for name, got in by_source.items():
            print(f"| {name} | {got.total()} | {got['a level']} | {got['no level']} | {got['refused']} |")
        if seconds:
            print(f"\nseconds a picture, in-process: median {statistics.median(seconds):.3f}, worst {max(seconds):.3f}")
        for outcome in ("no level", "refused"):
            listed = [(p, said) for p, (got, said) in outcomes.items() if got == outcome]
            if listed:
                print(f"\n{outcome}:")
                for picture, said in listed:
                    print(f"- {picture.relative_to(args.dir)}: {said}")


if __name__ == "__main__":
    main()

"""Screenshot import on the game's own levels of every kind: the 48 levels of
../shared/puzzles/variants (holes, walls, warps, bridges, hexagons and mixes), each drawn in
the game's style (cpflow.vision.synthetic.draw) on a 1080x2400 phone screen as a JPEG of
quality 85, dark and light, unsolved and half played (the first half of each path of the
level's solution). A reading is exact when the board (size, shape, holes, walls, warps,
bridges) and the pairs of endpoint cells match; said when the import refused it in one
line; wrong when it wrote another board. Prints a line per reading that is not exact, then
the counts. A level with a white colour (`W`) is drawn on the dark theme only.

    python bench/vision_levels.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from cpflow.board.formats import load_with_solutions
from cpflow.board.grid import Solution
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.screenshot import read
from cpflow.vision.synthetic import Shot, draw

sys.path.insert(0, str(Path(__file__).parent))
from vision_kinds import board_of  # noqa: E402

LEVELS = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "variants"


def main() -> None:
    levels = sorted(LEVELS.glob("*.level"))
    if not levels:
        sys.exit(f"no levels in {LEVELS}")
    counts: Counter[str] = Counter()
    for path in levels:
        ((puzzle, solution),) = load_with_solutions(path)
        for light in (False, True) if "W" not in puzzle.colours else (False,):
            for played in (False, True):
                paths = {k: p[: len(p) // 2 + 1] for k, p in solution.paths.items()} if played else {}
                shot = Shot(puzzle.width, puzzle.height, (1080, 2400), light=light, quality=85)
                where = f"{path.stem} {'light' if shot.light else 'dark'} {'half played' if played else 'unsolved'}"
                try:
                    found = read(draw(puzzle, shot, Solution(paths))).puzzle
                except ScreenshotUnreadable as error:
                    counts["said"] += 1
                    print(f"said: {where}: {error}")
                    continue
                exact = board_of(found) == board_of(puzzle)
                counts["exact" if exact else "wrong"] += 1
                if not exact:
                    print(f"wrong: {where}")
    print(f"{sum(counts.values())} readings: {counts['exact']} exact, {counts['said']} said, {counts['wrong']} wrong")


if __name__ == "__main__":
    main()

"""Write the web page's levels (cpflow/web/page/levels.json): the project's own puzzles with a solution
beside them, smallest first, each with its size, shape and grade (`cpflow grade`'s, worked out here once,
so that the page and the server never grade them). Run it again after adding or changing a puzzle:

    python puzzles/levels.py

tests/test_web_page.py checks that the file holds exactly these puzzles' texts.
"""

from __future__ import annotations

import json
from pathlib import Path

from cpflow.board.formats import parse, parse_solution
from cpflow.workflows.hints import graded

HERE = Path(__file__).resolve().parent
INDEX = HERE.parent / "cpflow" / "web" / "page" / "levels.json"


def playable() -> list[Path]:
    """The puzzles a player can finish: those with a solution file beside them."""
    return sorted(path for path in HERE.glob("*.txt") if path.with_suffix(".solution.txt").exists())


def level(path: Path) -> dict:
    text = path.read_text()
    (puzzle,) = parse(text, str(path))
    known = parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())
    found = graded(puzzle, known=known)
    size = {"width": puzzle.width, "height": puzzle.height, "shape": puzzle.shape}
    return {"name": path.stem, **size, "grade": found.grade, "text": text}


def main() -> None:
    levels = sorted((level(path) for path in playable()), key=lambda x: (x["width"] * x["height"], x["name"]))
    INDEX.write_text("[\n" + ",\n".join(json.dumps(x) for x in levels) + "\n]\n")
    print(f"{INDEX}: {len(levels)} levels")


if __name__ == "__main__":
    main()

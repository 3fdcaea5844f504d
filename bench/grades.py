"""How puzzles grade: per file (a level pack), how many of its puzzles are easy, medium, hard and
expert by their hint chain (`cpflow grade`), with the what ifs they need and the seconds taken.

python bench/grades.py [--first N] [--jobs N] [NAME=]FILE ...

NAME names a file's row (e.g. "Classic Pack=levelpack_1.txt"); --first N grades the first N
puzzles of each file only. The game's packs are e.g. nubango/FlowFree's Assets/Levels/
levelpack_*.txt (read from outside the repository; their names are in
Assets/ScriptableObjects/LevelPacks/*.asset).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path

from cpflow.board.formats import load
from cpflow.workflows.batch import grade_all
from cpflow.workflows.hints import GRADES
from cpflow.workflows.items import Failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0, help="grade the first N puzzles of each file (0: all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("files", nargs="+", metavar="[NAME=]FILE")
    args = parser.parse_args()
    columns = ["pack", "sizes", "puzzles", *GRADES, "not graded", "what ifs", "depth 2", "mean s", "worst s"]
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    for named in args.files:
        name, _, file = named.rpartition("=")
        puzzles = load(Path(file))
        puzzles = puzzles[: args.first] if args.first else puzzles
        found = [g for g in grade_all(puzzles, args.jobs) if not isinstance(g, Failed)]
        grades = Counter(g.grade for g in found)
        sizes = sorted({(p.width, p.height) for p in puzzles}, key=lambda s: s[0] * s[1])
        shown = ", ".join(f"{w}x{h}" for w, h in sizes[:3]) + (" ..." if len(sizes) > 3 else "")
        seconds = [g.seconds for g in found]
        row = [name or Path(file).name, shown, str(len(puzzles)), *(str(grades[grade]) for grade in GRADES)]
        row += [str(len(puzzles) - sum(grades[grade] for grade in GRADES))]
        row += [f"{statistics.mean(g.what_ifs for g in found):.1f}", str(sum(g.depth >= 2 for g in found))]
        row += [f"{statistics.mean(seconds):.2f}", f"{max(seconds):.2f}"]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()

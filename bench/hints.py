"""The hint chain from the bare puzzle to its end, on the classic set and the game's variant levels.

python bench/hints.py [zucker|variants|puzzles]...   (default: all three)

For each puzzle: `cpflow hint --all` in-process (cpflow.workflows.hints.chain), every step
checked against the stored solution where the file carries one (level files, the
project's .solution.txt), and the steps per kind of rule, the grade and the seconds.
Then the totals per set: steps per rule, puzzles needing a what if or a guess.
Exits 1 if a chain does not reach the solution or a step disagrees with it.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from common import SHARED

ROOT = Path(__file__).resolve().parent.parent


def files(name: str) -> list[Path]:
    if name == "puzzles":
        return [p for p in sorted((ROOT / "puzzles").glob("*.txt")) if not p.name.endswith(".solution.txt")]
    folder = SHARED / name
    return sorted(p for p in folder.glob("*") if p.suffix in (".txt", ".level") and ".sol" not in p.name)


def stored(path: Path, puzzle, carried):
    from cpflow.board.formats import load_solution

    if carried is not None:
        return carried
    solution = path.with_suffix(".solution.txt")
    return load_solution(puzzle, solution) if solution.exists() else None


def table(rows: list[dict], columns: list[str]) -> None:
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(f"{row[c]:.2f}" if isinstance(row[c], float) else str(row[c]) for c in columns) + " |")


def main() -> None:
    from cpflow.board.formats import load_with_solutions
    from cpflow.deduce.steps import STEP_KINDS
    from cpflow.workflows.hints import SOLVED, chain, grade

    bad = 0
    for name in sys.argv[1:] or ["puzzles", "zucker", "variants"]:
        rows, totals, hard = [], Counter(), Counter()
        for path in files(name):
            puzzle, carried = load_with_solutions(path)[0]
            solution = stored(path, puzzle, carried)
            began = time.perf_counter()
            hints = list(chain(puzzle))
            seconds = time.perf_counter() - began
            colour_of = solution.colour_of() if solution else {}
            wrong = sum(
                1
                for h in hints
                if h.step
                for cell in h.step.cells
                if colour_of.get(cell, h.step.colour) != h.step.colour
            )
            ended = hints[-1].status == SOLVED
            bad += wrong > 0 or not ended
            summary = grade(hints)
            totals.update(summary.kinds)
            hard.update(k for k in ("what if", "guess") if summary.kinds[k])
            rows.append(
                {
                    "puzzle": path.stem,
                    "kind": puzzle.shape + ("" if puzzle.is_plain() else " variant"),
                    **{kind: summary.kinds[kind] for kind in STEP_KINDS},
                    "grade": summary.grade,
                    "end": "solved" if ended else hints[-1].status,
                    "wrong": wrong,
                    "seconds": seconds,
                }
            )
        print(f"\n## {name}: {len(rows)} puzzles")
        table(rows, ["puzzle", "kind", *STEP_KINDS, "grade", "end", "wrong", "seconds"])
        print(f"total {sum(r['seconds'] for r in rows):.2f} s, worst {max(r['seconds'] for r in rows):.2f} s")
        print(f"steps per rule: {dict(totals)}; puzzles needing a what if: {hard['what if']}, a guess: {hard['guess']}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

"""cpflow beside the Go solver of thomasahle/numberlink on that repository's puzzle files.

python bench/numberlink.py GO_BINARY FILE... [--time-limit 60]

Each file is read as it is (the header stream: comments, blank lines, `0 0`). The Go
binary solves the whole file in one process; cpflow solves each puzzle in-process. The
Go solver's answers are read back and checked by cpflow's verifier too. Prints one row
per file (puzzles, verdicts of each, agreement, seconds) and every disagreement.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from cpflow.board.formats import load, parse_solution
from cpflow.board.grid import Puzzle
from cpflow.board.verify import violations
from cpflow.engines.catalog import backend
from cpflow.engines.pipeline import solve


def go_verdicts(binary: str, path: Path, puzzles: list[Puzzle]) -> tuple[list[str], float]:
    """The Go solver's verdict per puzzle (its solutions verified here), and its wall seconds for the file."""
    began = time.perf_counter()
    out = subprocess.run([binary], stdin=path.open(), capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - began
    blocks = [block for block in out.split("\n\n") if block.strip()]
    verdicts = []
    for puzzle, block in zip(puzzles, blocks, strict=True):
        if block.strip() == "IMPOSSIBLE":
            verdicts.append("unsolvable")
            continue
        wrong = violations(puzzle, parse_solution(puzzle, block + "\n", f"{path} (go)"))
        verdicts.append("invalid" if wrong else "solved")
    return verdicts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("go", help="the Go solver's binary")
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    backend("cpsat")  # the import is not a puzzle's time
    print(
        "| file | puzzles | cpflow solved | cpflow unsolvable | cpflow unknown | go solved | go impossible "
        "| agree | cpflow s (in-process) | go s (whole process) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    totals, disagreements = [0] * 9, []
    for path in args.files:
        puzzles = load(path)
        mine = [solve(p, time_limit=args.time_limit) for p in puzzles]
        theirs, go_seconds = go_verdicts(args.go, path, puzzles)
        agree = 0
        for index, (result, verdict) in enumerate(zip(mine, theirs, strict=True), 1):
            if result.status.value == verdict:
                agree += 1
            else:
                disagreements.append(f"{path.name}#{index}: cpflow {result.status.value}, go {verdict}")
        row = [
            len(puzzles),
            sum(r.status.value == "solved" for r in mine),
            sum(r.status.value == "unsolvable" for r in mine),
            sum(r.status.value == "unknown" for r in mine),
            theirs.count("solved"),
            theirs.count("unsolvable"),
            agree,
            sum(r.seconds for r in mine),
            go_seconds,
        ]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(f"| {path.name} | " + " | ".join(_cell(v) for v in row) + " |", flush=True)
    print("| **all** | " + " | ".join(_cell(v) for v in totals) + " |")
    print("\n" + ("\n".join(disagreements) if disagreements else "every verdict agrees"))
    sys.exit(1 if disagreements else 0)


def _cell(value) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    main()

"""Start-up: how long a whole `cpflow` process takes on one small board, beside the bare
interpreter, and what importing the command line costs.

    python bench/startup.py [--runs 7] [--puzzle puzzles/starter_7x7.txt]

Each command runs `--runs` times in a fresh process; the table gives the median and the
fastest wall seconds. The board is small so that what is measured is the start-up: solving a
7x7 takes a few milliseconds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], runs: int) -> list[float]:
    """Wall seconds of each run of the command (its output thrown away; a failure stops the bench)."""
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds.append(time.perf_counter() - began)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--puzzle", default="puzzles/starter_7x7.txt")
    args = parser.parse_args()
    cpflow = shutil.which("cpflow") or sys.exit("no cpflow on PATH: pip install . first")
    commands = {  # -P: the cpflow installed, not the one in the folder the bench runs in
        "python -P -c pass": [sys.executable, "-P", "-c", "pass"],
        'python -P -c "import cpflow.cli"': [sys.executable, "-P", "-c", "import cpflow.cli"],
        "cpflow --version": [cpflow, "--version"],
        f"cpflow solve {args.puzzle}": [cpflow, "solve", args.puzzle],
        f"cpflow solve {args.puzzle} --format json": [cpflow, "solve", args.puzzle, "--format", "json"],
        f"cpflow hint {args.puzzle}": [cpflow, "hint", args.puzzle],
    }
    timed(commands["python -P -c pass"], 2)  # warm the disk cache
    print("| command | median s | fastest s |")
    print("|---|---|---|")
    for name, command in commands.items():
        seconds = timed(command, args.runs)
        print(f"| `{name}` | {statistics.median(seconds):.3f} | {min(seconds):.3f} |", flush=True)


if __name__ == "__main__":
    main()

"""Times a level pack made and proven on one process, on a pool and on a local Dask cluster.

python bench/cluster.py [--count 500] [--size 20x20] [--seed 2026] [--workers 2] [--cluster ADDRESS]

For each place a batch can run (1 process; --jobs N; --cluster local:N, or the ADDRESS
given), whole `cpflow` commands are timed, as a user runs them: `generate --count COUNT`
into a fresh folder, then `unique --quiet` over that folder. Every place must make the
very same files (the same seed) and prove every board unique, or the script fails.

Columns: wall seconds of each command; "start-up", the wall time of a two-board `unique`
(a 5x5 board twice) there less the same on 1 process (starting the pool or the cluster, and closing it);
"overhead per task", the worker time a task costs beyond its own work:
(N x (wall - start-ups) - wall on 1 process) / tasks, with N the workers (1 on 1 process),
over both commands; negative values are noise of a machine shared with other work.
"""

from __future__ import annotations

import argparse
import filecmp
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_BOARD = ROOT / "puzzles" / "starter_5x5.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--size", default="20x20")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cluster", help="a scheduler's address, instead of local:WORKERS")
    args = parser.parse_args()
    places = {
        "1 process": ([], 1),
        f"--jobs {args.workers}": (["--jobs", str(args.workers)], args.workers),
        f"--cluster {args.cluster or f'local:{args.workers}'}": (
            ["--cluster", args.cluster or f"local:{args.workers}"],
            args.workers,
        ),
    }
    print(f"{args.count} boards {args.size}, seed {args.seed}: `cpflow generate` then `cpflow unique --quiet`\n")
    print("| where | generate s | unique s | total s | speed-up | start-up s | overhead per task ms |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        base_startup, serial, first = None, None, None
        for where, (options, workers) in places.items():
            folder = Path(scratch) / where.replace(" ", "_").replace(":", "_").replace("/", "_")
            make = ["generate", "--size", args.size, "--count", str(args.count), "--seed", str(args.seed)]
            made = wall([*make, "--out", folder, *options])
            proven = wall(["unique", "--quiet", folder, *options], must_say="unique", lines=args.count)
            startup = statistics.median(wall(["unique", "--quiet", ONE_BOARD, ONE_BOARD, *options]) for _ in range(3))
            base_startup = startup if base_startup is None else base_startup
            startup -= base_startup
            total = made + proven
            serial = total if serial is None else serial
            first = folder if first is None else same_files(first, folder)
            overhead = (workers * (total - 2 * startup) - serial) / (2 * args.count)
            print(
                f"| {where} | {made:.1f} | {proven:.1f} | {total:.1f} | {serial / total:.2f} | "
                f"{startup:.2f} | {1000 * overhead:.1f} |",
                flush=True,
            )


def wall(arguments: list, must_say: str | None = None, lines: int = 0) -> float:
    """Seconds a whole `cpflow ARGUMENTS` takes; exits if it fails (or, asked, if a line lacks `must_say`)."""
    command = [sys.executable, "-m", "cpflow", *map(str, arguments)]
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - began
    said = done.stdout.splitlines()
    if done.returncode != 0 or (must_say and (len(said) != lines or any(must_say not in s for s in said))):
        sys.exit(f"{' '.join(map(str, arguments))} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds


def same_files(first: Path, other: Path) -> Path:
    """`first`, once `other` holds the very same files; exits otherwise."""
    names = sorted(p.name for p in first.iterdir())
    matched, differ, errors = filecmp.cmpfiles(first, other, names, shallow=False)
    if differ or errors or sorted(p.name for p in other.iterdir()) != names:
        sys.exit(f"{other} differs from {first}: {differ + errors}")
    return first


if __name__ == "__main__":
    main()

"""The search engine (the engine the browser runs: no solver library) beside CP-SAT: per set and engine,
the seconds to solve and to prove uniqueness, in-process, with the C core and in Python alone.

python bench/search.py [--sets puzzles,zucker,large] [--engines cpsat,search,search-python]
                       [--time-limit 10] [--big FILE,...] [--big-limit 150] [--save]

A set is `puzzles` (the project's collection) or a folder of ../shared/puzzles. Every answer passes
the verifier (the pipeline's); a board an engine does not finish within --time-limit counts as
unknown at the limit, and is named below the table. `wrong` counts verdicts that differ from
another engine's decided one (it must stay 0). --big: boards the search cannot finish, each solved
by the search engines in a process of its own within --big-limit: how it stopped (at the time limit, or
when its stack outgrew its room) and the process's peak memory. --save also writes the output to
docs/figures/search.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, boards, recorded, saving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="puzzles,zucker,large")
    parser.add_argument("--engines", default="cpsat,search,search-python")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--big", default="", help="boards the search cannot finish, comma-separated files")
    parser.add_argument("--big-limit", type=float, default=150.0)
    saving(parser)
    args = parser.parse_args()
    with recorded("search", args.save):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """A row a set and engine; then the boards some engine left unknown."""
    from cpflow.engines import catalog

    engines = args.engines.split(",")
    for name in engines:
        catalog.warm(name)
    print("| set | engine | boards | solve s | median ms | worst s | unknown | unique s | unknown | wrong |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    unknown: list[str] = []
    for folder in args.sets.split(","):
        found = collection(folder)
        runs = {name: [run(puzzle, name, args.time_limit) for puzzle in found] for name in engines}
        for name in engines:
            mine = runs[name]
            worst = max(range(len(found)), key=lambda i: mine[i][1])
            wrong = sum(_wrong(i, name, runs) for i in range(len(found)))
            print(
                f"| {folder} | {name} | {len(found)} | {sum(r[1] for r in mine):.2f} "
                f"| {1000 * statistics.median(r[1] for r in mine):.1f} | {mine[worst][1]:.2f} "
                f"({found[worst].name.split('/')[-1]}) | {sum(r[0] == 'unknown' for r in mine)} "
                f"| {sum(r[3] for r in mine):.2f} | {sum(r[2] == 'unknown' for r in mine)} | {wrong} |",
                flush=True,
            )
            unknown += [
                f"{folder}/{p.name.split('/')[-1]} ({name})" for p, r in zip(found, mine, strict=True) if "unknown" in r
            ]
    print(f"\nUnknown within {args.time_limit:g} s: {', '.join(unknown) or 'none'}.")
    if args.big:
        big(args.big.split(","), [name for name in engines if name.startswith("search")], args.big_limit)


BIG = """
import json, resource, sys, time
from cpflow.board.formats import load
from cpflow.engines import pipeline
(puzzle,) = load(sys.argv[1])[:1]
began = time.perf_counter()
result = pipeline.solve(puzzle, sys.argv[2], time_limit=float(sys.argv[3]))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([result.status.value, result.stats, time.perf_counter() - began, peak]))
"""


def big(paths: list[str], engines: list[str], limit: float) -> None:
    """Each big board by each search engine in a process of its own: how it stopped, its peak memory."""
    print("\n| board | engine | answer | stopped | s | branches | stack MiB | peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        for name in engines:
            done = subprocess.run([sys.executable, "-c", BIG, path, name, str(limit)], capture_output=True, text=True)
            status, stats, seconds, peak = json.loads(done.stdout)
            print(
                f"| {Path(path).stem} | {name} | {status} | {stats.get('stopped', '-')} | {seconds:.1f} "
                f"| {stats.get('branches', '-')} | {stats.get('held', 0) / 2**20:.0f} | {peak:.0f} |",
                flush=True,
            )


def collection(folder: str) -> list:
    """The first puzzle of each file of a set: the project's `puzzles`, or a folder of ../shared."""
    from cpflow.board.formats import load

    if folder != "puzzles":
        return boards(folder)
    paths = [p for p in sorted((ROOT / "puzzles").glob("*.txt")) if not p.name.endswith(".solution.txt")]
    return [load(path)[0] for path in paths]


def run(puzzle, engine: str, limit: float) -> tuple[str, float, str, float]:
    """The solve's status and wall seconds, then the uniqueness verdict and its seconds."""
    from cpflow.engines.pipeline import solve
    from cpflow.workflows.unique import uniqueness

    began = time.perf_counter()
    status = solve(puzzle, engine, time_limit=limit).status.value
    solved = time.perf_counter()
    verdict = uniqueness(puzzle, engine, time_limit=limit).verdict.value
    return status, solved - began, verdict, time.perf_counter() - solved


def _wrong(i: int, name: str, runs: dict) -> bool:
    """Whether the engine's solve or uniqueness verdict on board i differs from another's decided one."""
    mine = runs[name][i]
    for other in runs.values():
        if any(a != b and "unknown" not in (a, b) for a, b in ((mine[0], other[i][0]), (mine[2], other[i][2]))):
            return True
    return False


if __name__ == "__main__":
    main()

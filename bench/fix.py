"""`cpflow fix` at scale (issue 39): unique generated boards of 60x30 and more, each with one pair of
endpoints removed so that it has more than one solution, made unique by one proven edit.

The pair removed is two touching endpoints of two colours, which become one colour whose path is
both paths joined (the generator's repair undone). A colour's own pair removed leaves these boards
with no solution: no path may double back to take its cells (136 of 136 tried on a 60x30 board).
The board of a size is generated from seed 1 up, the first join in reading order whose board has
two solutions kept, and written to --boards (outside the repository) to be read next time.

Each board is fixed by the fix of this checkout ("after") and, with --before REV, by
cpflow/workflows/repair.py as it was at commit REV ("before"), each with --time-limit for the whole
repair; the edit found is proven again on its own (uniqueness, CP-SAT counting, and the verifier).

python bench/fix.py [--sizes 60x30,80x30,60x40] [--time-limit 300] [--before REV] [--boards DIR] [--save]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from common import ROOT, recorded, saving

SEEDS = 100  # boards generated per size, at most, to find a join with two solutions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60x30,80x30,60x40")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds for each whole repair")
    parser.add_argument("--before", metavar="REV", help="also time repair.py as it was at this commit")
    parser.add_argument("--boards", default=str(Path(tempfile.gettempdir()) / "cpflow-fix-boards"))
    saving(parser)
    args = parser.parse_args()
    from cpflow.board.grid import cell_name
    from cpflow.workflows.repair import fix

    before = _repair_at(args.before) if args.before else None
    folder = Path(args.boards)
    folder.mkdir(parents=True, exist_ok=True)
    with recorded("fix", args.save, f"--time-limit {args.time_limit:g} s for each whole repair"):
        columns = "board, size, colours, differ, before s, before, after s, proofs (passed over), edit, proven unique"
        print("| " + " | ".join(columns.split(", ")) + " |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for size in args.sizes.split(","):
            name, puzzle, differ = board(size, folder)
            was = "-", "-"
            if before:
                began = time.perf_counter()
                old = before.fix(puzzle, total=args.time_limit)
                was = f"{time.perf_counter() - began:.1f}", f"{old.verdict} ({old.tried} proofs)"
            began = time.perf_counter()
            found = fix(puzzle, args.time_limit)
            seconds = time.perf_counter() - began
            cells = ", ".join(cell_name(c) for c in found.edit.cells) if found.edit else ""
            edit = f"{found.edit.kind} at {cells}" if found.edit else found.verdict
            print(
                f"| {name} | {size} | {len(puzzle.colours)} | {differ} | {was[0]} | {was[1]} | {seconds:.1f} | "
                f"{found.tried} ({found.passed}) | {edit} | {proven(found)} |",
                flush=True,
            )


def board(size: str, folder: Path):
    """The board of the size (name, puzzle, cells where its first two solutions differ): read from
    the folder, or made and written there."""
    from cpflow.board.formats import load, picture
    from cpflow.workflows.generate.order import Order
    from cpflow.workflows.generate.pack import generate_one
    from cpflow.workflows.unique import Verdict, uniqueness

    made = sorted(folder.glob(f"fix_{size}_s*.txt"))
    if made:
        puzzle = load(made[0])[0]
        return made[0].stem, puzzle, len(uniqueness(puzzle).differences())
    for seed in range(1, SEEDS + 1):
        generated = generate_one(1, Order.parse(size, None), seed)
        for joined in joins(generated.puzzle, generated.solution):
            found = uniqueness(joined, workers=1, random_seed=0)
            if found.verdict is Verdict.NOT_UNIQUE:
                path = folder / f"fix_{size}_s{seed}.txt"
                path.write_text(picture(joined))
                return path.stem, load(path)[0], len(found.differences())
    raise SystemExit(f"no {size} board of seeds 1-{SEEDS} has a join with two solutions")


def joins(puzzle, solution):
    """The puzzle with two touching endpoints of two colours removed, those colours one, in reading
    order of the touching ends; only those whose joined path is a solution (verified)."""
    from cpflow.board.grid import Solution
    from cpflow.board.verify import violations

    ends = puzzle.endpoint_colour()
    for a in sorted(ends):
        for b in sorted(puzzle.neighbours[a]):
            first, second = ends[a], ends.get(b)
            if second is None or second == first or b < a:
                continue
            head = solution.paths[first] if solution.paths[first][-1] == a else solution.paths[first][::-1]
            tail = solution.paths[second] if solution.paths[second][0] == b else solution.paths[second][::-1]
            endpoints = {c: pair for c, pair in puzzle.endpoints.items() if c not in (first, second)}
            joined = replace(puzzle, endpoints={**endpoints, first: (head[0], tail[-1])})
            paths = {c: path for c, path in solution.paths.items() if c not in (first, second)}
            if not violations(joined, Solution({**paths, first: head + tail})):
                yield joined


def proven(found) -> str:
    """Whether the fixed puzzle is unique by a proof of its own (CP-SAT counting two) and the verifier."""
    from cpflow.board.verify import violations
    from cpflow.workflows.unique import Verdict, uniqueness

    if found.verdict != "fixed":
        return "-"
    again = uniqueness(found.puzzle)
    return "yes" if again.verdict is Verdict.UNIQUE and not violations(found.puzzle, found.solution) else "NO"


def _repair_at(commit: str):
    """cpflow/workflows/repair.py as it was at the commit, imported as a module of its own."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:cpflow/workflows/repair.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "repair_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("repair_before", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["repair_before"] = module
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    main()

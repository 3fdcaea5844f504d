"""Peak memory of building and solving one board per engine, per node and per node and colour.

python bench/memory.py [--engine NAME ...] [--time-limit 20] FILE...

Each (engine, board) runs in a fresh process, so the peak is that run's alone; the
figures are what the memory guard's estimates (`bytes_per_node`, `bytes_per_node_colour`
in cpflow/engines/catalog.py) are rounded up from (models/memory.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

ONE_RUN = """
import json, resource, sys
from cpflow.board.formats import load
from cpflow.engines import catalog, pipeline
engine, path, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
puzzle = load(path)[0]
catalog.warm(engine)  # the solver imported: what is measured is the model
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = pipeline.solve(puzzle, engine, time_limit=limit)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"nodes": len(puzzle.nodes), "colours": len(puzzle.colours), "size": f"{puzzle.width}x{puzzle.height}",
                  "status": result.status.value, "kib": after - before, "child_kib": child}))
"""


def main() -> None:
    from cpflow.engines.catalog import ENGINES, available

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", help="repeat for several (default: every installed engine)")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    print("| engine | board | nodes | colours | status | MiB (+ child) | KB/node | KB/node/colour | estimate MiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for engine in args.engine or available():
        for path in args.files:
            command = [sys.executable, "-c", ONE_RUN, engine, path, str(args.time_limit)]
            run = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            kb = (run["kib"] + run["child_kib"]) * 1.024
            nodes, colours = run["nodes"], run["colours"]
            entry = ENGINES[engine]
            estimate = nodes * entry.bytes_per_node + nodes * colours * entry.bytes_per_node_colour
            print(
                f"| {engine} | {run['size']} | {nodes} | {colours} | {run['status']} "
                f"| {run['kib'] / 1024:.0f} (+{run['child_kib'] / 1024:.0f}) | {kb / nodes:.1f} "
                f"| {kb / nodes / colours:.2f} | {estimate / 2**20:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

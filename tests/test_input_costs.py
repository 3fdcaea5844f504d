"""Every input's cost is linear or bounded (issue 42): graph hubs, duplicate nodes, streams.

Each test starts from the attack as issue 42's table gives it. Where a test bounds wall
time, the bound is generous: the attacks took minutes (or all the memory) before, and
take a second or two now; only a hang or a quadratic blow-up breaks it. Memory is the
peak resident size of the cpflow process (`peak_mib`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

import pytest

from cpflow.board.formats import MAX_BYTES
from cpflow.workflows import streams

# Runs a command, then prints its exit code and its peak resident size in MiB (Linux counts KiB).
MEASURED = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, file=sys.stderr)
"""


def cpflow(*args: str, stdin=None, timeout: float = 120) -> tuple[int, str, str, float, int]:
    """Run `cpflow ARGS` in a process of its own: exit code, stdout, stderr (less the
    measurement), wall seconds and peak MiB."""
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "cpflow", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    *said, measured = done.stderr.splitlines()
    code, peak = map(int, measured.split())
    return code, done.stdout, "\n".join(said), time.monotonic() - began, peak


# -- graph hubs ------------------------------------------------------------------------


def hub_file(path: Path, leaves: int) -> Path:
    """The attack: a graph-JSON node beside `leaves` others (10,000 of them: about 300 KB)."""
    row = [[1 + i // 200, i % 200] for i in range(leaves)]
    data = {"nodes": [[0, 0], *row], "edges": [[[0, 0], leaf] for leaf in row], "endpoints": {"A": row[:2]}}
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("leaves", [10_000, 30_000])
def test_a_hub_of_thousands_of_neighbours_is_refused_in_one_line_at_once(tmp_path, leaves):
    """Before: 10,000 neighbours took 20-28 s and 3.5 GB ("unknown" after 12-23 s under
    --time-limit 3); 30,000 a MemoryError (exit 4), or 23 GB until the kernel killed it."""
    path = hub_file(tmp_path / "hub.json", leaves)
    for limit in ([], ["--time-limit", "3"]):
        code, out, err, seconds, peak = cpflow("solve", *limit, str(path))
        assert (code, out) == (2, ""), err
        assert err.startswith(f"{path}:1:") and err.endswith(
            ": [0, 0] has over 255 neighbours, the most a node may have"
        )
        assert seconds < 20 and peak < 300, (seconds, peak)


# -- duplicate nodes -------------------------------------------------------------------


def test_a_duplicate_node_at_the_end_of_300000_is_named_by_its_line(tmp_path):
    """Before: each node was looked for among those before it: 20,000 nodes 3.5 s, 60,000 29 s,
    300,000 (2.9 MB) over 45 s (over 200 s on a busy machine); now under 2 s."""
    nodes = [[i // 1000, i % 1000] for i in range(300_000)]
    rows = ",\n".join(json.dumps(node) for node in [*nodes, nodes[-1]])
    path = tmp_path / "twice.json"
    path.write_text('{"nodes": [\n' + rows + '\n], "edges": [], "endpoints": {"A": [[0, 0], [0, 1]]}}\n')
    code, out, err, seconds, _ = cpflow("solve", str(path))
    assert (code, out) == (2, "")
    assert err == f"{path}:300002:1: [299, 999] is listed twice among the nodes; a node is listed once"
    assert seconds < 30, seconds


# -- streams ---------------------------------------------------------------------------


def test_a_stream_of_short_lines_ends_at_the_size_limit(tmp_path):
    """`yes . | cpflow solve -` never finished: every line summed the lengths of all before it
    (30,000 lines 5 s, 100,000 59 s). Here `yes` writes lines of 16 bytes: the 4 MiB limit
    comes after 262,144 of them, which took tens of minutes; now about a second."""
    writer = subprocess.Popen(["yes", "." * 15], stdout=subprocess.PIPE)
    try:
        code, out, err, seconds, peak = cpflow("solve", "-", stdin=writer.stdout)
    finally:
        writer.kill()
        writer.wait()
    assert (code, out) == (2, "")
    assert err == f"<stdin>:1:1: puzzle is larger than the limit of {MAX_BYTES} bytes"
    assert seconds < 30 and peak < 200, (seconds, peak)


def test_a_long_json_piece_is_parsed_once(monkeypatch):
    """A 9,400-line JSON graph took 0.14 s as a file and 2.5 s piped: the stream tried to
    parse what it had read at every line. Now a piece ends when its brackets close."""
    text = json.dumps(_grid_graph(24), indent=1) + "\n"
    assert text.count("\n") > 9_400
    parsed, loads = [], json.loads
    monkeypatch.setattr(json, "loads", lambda s, *rest, **options: parsed.append(len(s)) or loads(s, *rest, **options))
    found = list(streams._pieces(BytesIO(text.encode() * 2), "<stdin>", "auto"))  # two pieces, no blank line
    assert [[puzzle.width for puzzle in puzzles] for puzzles in found] == [[24], [24]]
    assert parsed == [len(text), len(text)]


def test_a_long_json_piece_piped_is_answered_as_the_file_is(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps(_grid_graph(24), indent=1) + "\n")
    writer = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)  # a pipe: read as a stream
    piped = cpflow("solve", "-q", "-", stdin=writer.stdout)
    writer.wait()
    filed = cpflow("solve", "-q", str(path))
    assert (piped[0], piped[1].split()[:2]) == (1, ["<stdin>", "unsolvable"])
    assert (filed[0], filed[1].split()[:2]) == (1, [str(path), "unsolvable"])


def _grid_graph(side: int) -> dict:
    """A side x side square board as a JSON graph, one colour from corner to corner."""
    cells = [[r, c] for r in range(side) for c in range(side)]
    edges = [[[r, c], [r, c + 1]] for r in range(side) for c in range(side - 1)]
    edges += [[[r, c], [r + 1, c]] for r in range(side - 1) for c in range(side)]
    return {"nodes": cells, "edges": edges, "endpoints": {"A": [[0, 0], [side - 1, side - 1]]}}

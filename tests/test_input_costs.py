"""Every input's cost is linear or bounded (issue 42): graph hubs, duplicate nodes, streams.

Each test starts from the attack as issue 42's table gives it. Where a test bounds wall
time, the bound is generous: the attacks took minutes (or all the memory) before, and
take a second or two now; only a hang or a quadratic blow-up breaks it. Memory is the
peak resident size of the cpflow process (`peak_mib`).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from io import BytesIO
from itertools import combinations
from pathlib import Path

import pytest

from conftest import project_puzzles
from cpflow.board.formats import MAX_BYTES, load, parse, parse_solution
from cpflow.board.grid import MAX_NEIGHBOURS, Puzzle
from cpflow.deduce import rules
from cpflow.engines import catalog, memory, pipeline
from cpflow.errors import ModelTooLarge, PuzzleFormatError
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


def test_a_clique_at_the_degree_limit_is_answered_at_once(tmp_path):
    """256 nodes each beside the other 255, one colour: the compiled core's table of turns cost
    each node's degree to the fourth (the start took 367 s, holding the interpreter), the Python
    one held 8 million turns; now both hold blocked pairs (none here) and answer at once."""
    nodes = [[0, i] for i in range(256)]
    edges = [[a, b] for a, b in combinations(nodes, 2)]
    path = tmp_path / "clique.json"
    path.write_text(json.dumps({"nodes": nodes, "edges": edges, "endpoints": {"A": nodes[:2]}}))
    code, out, _, seconds, peak = cpflow("solve", "-q", "--time-limit", "3", str(path))
    assert (code, out.split()[:2]) == (1, [str(path), "unsolvable"])
    assert seconds < 20 and peak < 400, (seconds, peak)
    graph = rules.Graph(load(path)[0])
    assert (
        graph.turns.blockers == {} and sum(graph.turns.turning) == 254
    )  # all but the endpoints turn between neighbours


def two_hubs(feet: int = MAX_NEIGHBOURS) -> Puzzle:
    """Two hubs, each beside the same `feet` nodes of two neighbours: A from the first foot to the last."""
    hubs, row = [(0, 0), (0, 1)], [(1, i) for i in range(feet)]
    neighbours = {hub: tuple(row) for hub in hubs} | {foot: tuple(hubs) for foot in row}
    return Puzzle(feet, 2, {"A": (row[0], row[-1])}, neighbours)


def test_blocked_pairs_take_room_linear_in_the_edges():
    """65,000 turns through the two hubs, none dead; each foot's turn is dead (the other feet
    block the hubs' pair). A table of turns held them all; now one pair and two of its blockers."""
    graph = rules.Graph(two_hubs())
    assert list(graph.turns.blockers) == [(0, 1)] and len(graph.turns.blockers[0, 1]) == 2
    assert len(graph.dead()) == MAX_NEIGHBOURS - 2  # every foot's but the endpoints'
    assert not any(graph.turns.turning[:2])


def clique(size: int) -> Puzzle:
    """Every node beside every other, one colour."""
    nodes = [(0, i) for i in range(size)]
    return Puzzle(size, 1, {"A": (nodes[0], nodes[1])}, {u: tuple(w for w in nodes if w != u) for u in nodes})


def test_the_memory_guard_counts_the_turns_of_a_node(monkeypatch, tmp_path):
    """The SAT model of 256 nodes each beside the other 255 held 13 GB after 34 minutes of export
    (8.3 million turn variables), which the guard priced at 2 MB (256 nodes x 8 KB): it counted
    nodes. Now it counts turns too, and export asks it, as solve does."""
    monkeypatch.setattr(memory, "free_memory", lambda: 4 * 2**30)
    with pytest.raises(ModelTooLarge):
        pipeline.export(clique(256), tmp_path / "clique.cnf", "sat")
    assert list(tmp_path.iterdir()) == []
    assert catalog.entry_of("cpsat").model_bytes(clique(256)) > 4 * 2**30


def quadratic_dead_turns(puzzle: Puzzle) -> list:
    """`rules.dead_turns` as it was computed before: every turn of every node tried, and a
    table of what each dead turn makes dead."""
    nodes = list(puzzle.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    near = [frozenset(index[other] for other in puzzle.neighbours[node]) for node in nodes]
    ends = {index[node] for node in puzzle.endpoint_colour()}
    turns = [(p, a, b) for p in range(len(near)) if p not in ends for a, b in combinations(sorted(near[p]), 2)]
    dead, dead_if = set(), {}
    for turn in turns:
        p, a, b = turn
        if len(near[a] & near[b]) < 2 and a not in near[b]:
            continue
        beside = [(q, sorted(near[q] - {a, b})) for q in near[a] & near[b] if q != p and q not in ends]
        if a in near[b] or any(len(rest) < 2 for _, rest in beside):
            dead.add(turn)
            continue
        for q, rest in beside:
            if len(rest) == 2:
                dead_if.setdefault((q, *rest), []).append(turn)
    spreading = list(dead)
    while spreading:
        for turn in dead_if.get(spreading.pop(), ()):
            if turn not in dead:
                dead.add(turn)
                spreading.append(turn)
    return [(nodes[p], nodes[a], nodes[b]) for p, a, b in turns if (p, a, b) in dead]


def random_graph(rng: random.Random) -> Puzzle:
    """A small graph of any shape: a few nodes, edges at random, a few colours."""
    nodes = [(0, i) for i in range(rng.randint(4, 16))]
    density = rng.uniform(0.1, 0.6)
    edges = {(a, b) for a, b in combinations(nodes, 2) if rng.random() < density}
    near = {
        node: tuple(sorted({b for a, b in edges if a == node} | {a for a, b in edges if b == node})) for node in nodes
    }
    ends = rng.sample(nodes, 2 * rng.randint(1, len(nodes) // 4 or 1))
    return Puzzle(len(nodes), 1, {str(c): (ends[2 * c], ends[2 * c + 1]) for c in range(len(ends) // 2)}, near)


def test_the_linear_table_finds_the_turns_every_turn_tried_found():
    rng = random.Random(42)
    boards = [puzzle for path in project_puzzles() + project_puzzles(False) for puzzle in load(path)]
    boards += [random_graph(rng) for _ in range(400)] + [two_hubs(6)]
    for puzzle in boards:
        assert rules.dead_turns(puzzle) == quadratic_dead_turns(puzzle), puzzle.name


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


@pytest.mark.parametrize(
    "args",
    [("verify", "-"), ("hint", "-"), ("render", "-", "--out", "{out}"), ("hint", "{puzzle}", "--play", "-")],
    ids=["verify", "hint", "render", "play"],
)
def test_standard_input_read_whole_stops_at_the_size_limit(tmp_path, args):
    """The commands that read standard input to its end (a whole puzzle, a play) read it all first:
    1 GB piped took 2 GB and 20 s before it was refused as a board too large. Now the bytes past
    the limit are never read."""
    out = tmp_path / "drawn.svg"
    args = tuple(a.format(out=out, puzzle=project_puzzles()[0]) for a in args)
    writer = subprocess.Popen(["yes", "A" * 1023], stdout=subprocess.PIPE)
    try:
        code, said, err, seconds, peak = cpflow(*args, stdin=writer.stdout)
    finally:
        writer.kill()
        writer.wait()
    assert (code, said) == (2, "")
    assert err == f"<stdin>: file is larger than the limit of {MAX_BYTES} bytes"
    assert peak < 200 and not out.exists(), peak


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


# -- the other readers -----------------------------------------------------------------


def seconds_to(work) -> float:
    began = time.monotonic()
    work()
    return time.monotonic() - began


def test_blank_and_remark_lines_above_a_grid_are_dropped_at_once():
    """Each was taken off the front of a list, one at a time: 300,000 blank lines took 8.4 s,
    a 4 MiB file of them (4 million) never finished; now 4 million take 3 s."""
    text = "\n# a remark\n" * 500_000 + "A.A\n"
    assert seconds_to(lambda: parse(text, "<text>")) < 20


def test_a_walls_line_naming_every_wall_is_read_in_one_pass():
    """Each pair's column was found by searching the line from its start: a 1024x64 board's
    63,000 walls took 16 s; now 1.3 s. The column is where the pair stands, not where its text
    first appears."""
    rows = ["A" + "." * 1022 + "A", *["." * 1024] * 63]
    walls = " ".join(f"{r},{c}|{r},{c + 1}" for r in range(1, 64) for c in range(1023))
    text = "board 1024x64\n" + "\n".join(rows) + "\nwalls " + walls + "\n"
    assert seconds_to(lambda: parse(text, "<text>")) < 8
    with pytest.raises(PuzzleFormatError, match=r"<text>:13:16: a warp from r1c1 to itself"):
        parse("board 1x11\nA\n" + ".\n" * 9 + "A\nwarps 10,0|0,0 0,0|0,0\n", "<text>")  # not at col 8, inside the first


def test_a_level_line_naming_every_wall_is_read_in_one_pass():
    """Each wall was looked for in a list of the walls between touching cells: the 130,560
    walls of a 256x256 level took 409 s; now 2 s."""
    pairs = [f"{r * 256 + c}|{r * 256 + c + 1}" for r in range(256) for c in range(255)]
    pairs += [f"{r * 256 + c}|{(r + 1) * 256 + c}" for r in range(255) for c in range(256)]
    text = "256,0,1,1,,," + ":".join(pairs) + ";0,1\n"
    assert seconds_to(lambda: parse(text, "<text>")) < 20


def test_a_level_side_is_held_to_the_grids_limit(tmp_path):
    """A level line declared a board of 9000x1, past the 1,024 a side every other format keeps;
    drawing it as a GIF then failed with a traceback."""
    path = tmp_path / "wide.level"
    path.write_text("9000:1,0,1,1;0,1\n")
    code, out, err, _, _ = cpflow("render", str(path), "--out", str(tmp_path / "wide.gif"))
    assert (code, out) == (2, "")
    assert err == f"{path}:1:1: board of 9000x1 is over the size limit (65536 cells, 1024 per side)"
    assert not (tmp_path / "wide.gif").exists()


def test_a_pack_of_small_lines_declaring_large_boards_is_refused_before_any_is_built(tmp_path):
    """Each line of a dozen bytes declares a 256x256 board, and a pack's boards were all built
    before any work: 40 lines took 1.2 GB and 29 s (a 4 MiB file holds 290,000 of them). Now the
    sizes are added up first."""
    path = tmp_path / "pack.level"
    path.write_text("".join(f"256,0,{n},1;0,1\n" for n in range(1, 41)))
    code, out, err, _, peak = cpflow("verify", str(path))
    assert (code, out) == (2, "")
    assert err == f"{path}:17:1: the pack's boards hold over {16 * 65536} cells in all"
    assert peak < 200, peak


def test_a_solution_snaking_through_every_cell_is_traced_in_constant_time_a_step():
    """The trace looked for each step among the path's nodes (and counted the path at each
    arrival): a 256x256 board with one colour everywhere took 65 s to verify; now 0.3 s."""
    puzzle = parse("A" + "." * 255 + "\n" + ("." * 256 + "\n") * 254 + "A" + "." * 255 + "\n", "<text>")[0]
    seconds = seconds_to(lambda: parse_solution(puzzle, ("A" * 256 + "\n") * 256))
    assert seconds < 10

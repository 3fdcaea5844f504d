"""Boards as graphs: holes, walls, warps, bridges and hexagons in every engine, the verifier and the formats."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from brute import brute_count
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import VARIANTS, needs_variants, variant_levels
from cpflow.board.formats import load_with_solutions, parse, parse_solution, picture
from cpflow.board.grid import Puzzle, Rules, Solution, lattice
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.engines.catalog import DEFAULT, available, entry_of
from cpflow.engines.pipeline import count, solve
from cpflow.errors import EngineUnsupported, PuzzleFormatError
from cpflow.results import Status
from cpflow.workflows.unique import Verdict, uniqueness

runner = CliRunner()
ENGINES = available()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@needs_variants
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", variant_levels(), ids=lambda p: p.stem)
def test_every_engine_solves_every_level_to_the_games_own_solution(engine, path):
    ((puzzle, own),) = load_with_solutions(path)
    result = solve(puzzle, engine, time_limit=120)
    assert result.status is Status.SOLVED
    assert violations(puzzle, result.solution) == []
    assert result.solution == own  # the game's levels have one solution


@needs_variants
@pytest.mark.parametrize("path", variant_levels(), ids=lambda p: p.stem)
def test_each_level_is_unique_and_its_own_solution_verifies(path):
    ((puzzle, own),) = load_with_solutions(path)
    assert violations(puzzle, own) == []
    assert uniqueness(puzzle).verdict is Verdict.UNIQUE
    result = run("verify", path)
    assert result.exit_code == 0 and result.stdout.strip().endswith("valid")


@needs_variants
def test_solve_json_gives_cells_as_row_column_and_a_bridge_cell_in_both_paths():
    path = VARIANTS / "15_bridges_L22.level"
    result = run("solve", "--format", "json", path)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "solved"
    cells = [tuple(cell) for p in record["paths"].values() for cell in p]
    assert all(len(cell) == 2 for cell in cells)
    bridge = (12 // 5, 12 % 5)  # the level's bridge field: cell 12
    assert cells.count(bridge) == 2
    ((puzzle, own),) = load_with_solutions(path)
    assert parse_solution(puzzle, result.stdout) == own


@needs_variants
def test_a_whole_pack_file_is_many_puzzles(tmp_path):
    pack = tmp_path / "pack.txt"
    lines = [path.read_text().strip() for path in variant_levels()[:5]]
    pack.write_text("\n".join(lines) + "\n")
    result = run("solve", "--quiet", pack)
    assert result.exit_code == 0
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [[f"{pack}#{n}", "solved"] for n in range(1, 6)]


# Tiny boards of every kind, for brute force.
@st.composite
def tiny_boards(draw) -> Puzzle:
    shape = draw(st.sampled_from(["square", "square", "hex"]))
    width, height = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    cells = [(r, c) for r in range(height) for c in range(width)]
    holes = draw(st.sets(st.sampled_from(cells), max_size=2))
    inner = [(r, c) for r, c in cells if 0 < r < height - 1 and 0 < c < width - 1 and (r, c) not in holes]
    bridges = draw(st.sets(st.sampled_from(inner), max_size=1)) if shape == "square" and inner else set()
    touching = sorted({tuple(sorted((a, b))) for a in cells for b in lattice(shape, width, height, a)})
    walls = draw(st.sets(st.sampled_from(touching), max_size=2))
    wraps = [((r, 0), (r, width - 1)) for r in range(height) if width > 2]
    wraps += [((0, c), (height - 1, c)) for c in range(width) if height > 2]
    warps = draw(st.sets(st.sampled_from(wraps), max_size=2)) if shape == "square" and wraps else set()
    free = [cell for cell in cells if cell not in holes and cell not in bridges]
    assume(len(free) >= 2)
    chosen = draw(st.permutations(free))
    pairs = draw(st.integers(1, min(3, len(free) // 2)))
    endpoints = {"RGB"[i]: (chosen[2 * i], chosen[2 * i + 1]) for i in range(pairs)}
    warps = [(a, b) for a, b in warps if a not in holes and b not in holes and not {a, b} & bridges]
    walls = [(a, b) for a, b in walls if a not in holes and b not in holes]
    return Puzzle.build(
        width, height, endpoints, shape=shape, holes=holes, walls=walls, warps=warps, bridges=bridges, name="tiny"
    )


@st.composite
def tiny_puzzles_under_any_rules(draw) -> Puzzle:
    """A tiny board of any kind, under any of the rule sets, with a hint or two sometimes."""
    puzzle = draw(tiny_boards())
    rules = draw(st.sampled_from([Rules(), Rules(touch=True), Rules(blanks=True), Rules(touch=True, blanks=True)]))
    free = [node for node in puzzle.nodes if node not in puzzle.endpoint_colour()]
    hinted = draw(st.lists(st.sampled_from(free), max_size=2, unique=True)) if free else []
    hints = {node: draw(st.sampled_from(puzzle.colours)) for node in hinted}
    return replace(puzzle, rules=rules, drawn=hints)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_boards())
def test_every_engine_counts_tiny_variant_boards_as_brute_force_does(engine, puzzle):
    expected = brute_count(puzzle)
    found, status = count(puzzle, 50, engine)
    assert status is Status.SOLVED
    assert len(found) == expected
    assert solve(puzzle, engine).status is (Status.SOLVED if expected else Status.UNSOLVABLE)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_puzzles_under_any_rules())
def test_every_engine_honours_touching_blanks_and_hints_as_brute_force_does(engine, puzzle):
    if puzzle.rules.blanks and "blanks" not in entry_of(engine).rule_sets:  # the search engines: refused in one line
        with pytest.raises(EngineUnsupported, match="does not support --allow-blanks"):
            count(puzzle, 2, engine)
        return
    expected, limit = brute_count(puzzle), 60
    found, status = count(puzzle, limit, engine)
    assert (len(found), status) == ((expected, Status.SOLVED) if expected < limit else (limit, Status.UNKNOWN))
    assert len(set(map(repr, found))) == len(found)  # distinct solutions, not one board counted twice
    assert all(violations(puzzle, solution) == [] for solution in found)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_boards())
def test_any_board_round_trips_through_the_board_and_json_formats(puzzle):
    (from_json,) = parse(picture(puzzle, fmt="json"))
    assert from_json == puzzle
    (from_text,) = parse(picture(puzzle, fmt="board"))  # colours and ends come back in reading order
    assert (from_text.neighbours, from_text.shape) == (puzzle.neighbours, puzzle.shape)
    assert {c: set(ends) for c, ends in from_text.endpoints.items()} == {
        c: set(ends) for c, ends in puzzle.endpoints.items()
    }
    result = solve(puzzle, DEFAULT)
    if result.solution:
        assert parse_solution(puzzle, picture(puzzle, result.solution, fmt="json")) == result.solution
        traced = parse_solution(puzzle, picture(puzzle, result.solution, fmt="board"))
        assert violations(puzzle, traced) == []
        assert {c: set(p) for c, p in traced.paths.items()} == {c: set(p) for c, p in result.solution.paths.items()}


BOARD = """\
board 4x3
R.+G
#...
R.G.
walls 0,0|0,1
warps 1,1|1,3
"""


def test_the_board_format_reads_holes_bridges_walls_and_warps():
    (puzzle,) = parse(BOARD, "b.txt")
    assert puzzle.holes() == [(1, 0)]
    assert puzzle.bridges() == [(0, 2)]
    assert puzzle.walls() == [((0, 0), (0, 1))]
    assert puzzle.warps() == [((1, 1), (1, 3))]
    assert set(puzzle.neighbours[(0, 2, 0)]) == {(0, 1), (0, 3)}  # the across lane
    assert set(puzzle.neighbours[(0, 2, 1)]) == {(1, 2)}  # the down lane: nothing above the top row
    assert picture(puzzle) == BOARD


def test_a_hex_board_has_six_neighbours_with_even_columns_lower():
    (puzzle,) = parse("board 3x3 hex\nR.G\n...\nR.G\n")
    assert set(puzzle.neighbours[(1, 1)]) == {(0, 1), (2, 1), (0, 0), (1, 0), (0, 2), (1, 2)}
    assert set(puzzle.neighbours[(1, 0)]) == {(0, 0), (2, 0), (1, 1), (2, 1)}


def test_a_path_may_not_turn_on_a_bridge():
    (puzzle,) = parse("board 3x3\n.R.\nR+.\n...\n")
    turning = Solution({"R": ((0, 1), (1, 1, 1), (1, 0))})
    assert any("not neighbours" in problem for problem in violations(puzzle, turning))


def test_a_bridge_takes_two_colours_one_each_way():
    (puzzle,) = parse("board 3x3\n#R#\nG+G\n#R#\n")
    result = solve(puzzle)
    assert result.status is Status.SOLVED
    assert result.solution.paths == {"R": ((0, 1), (1, 1, 1), (2, 1)), "G": ((1, 0), (1, 1, 0), (1, 2))}


def test_a_wall_keeps_two_cells_of_one_colour_from_touching():
    # Without the wall, R's U round the bottom row would touch itself across (0, 0)-(0, 1).
    open_board, walled = "board 2x2\nRR\n..\n", "board 2x2\nRR\n..\nwalls 0,0|0,1\n"
    assert solve(parse(open_board)[0]).status is Status.UNSOLVABLE
    result = solve(parse(walled)[0])
    assert result.status is Status.SOLVED and result.solution.paths["R"] == ((0, 0), (1, 0), (1, 1), (0, 1))


BAD = [
    ("board 3x2\nR.R\n..\n", "b.txt:3:1: row 2 should be 3 cells"),
    ("board 3x1\nR.R\nwalls 0,0-0,1\n", "b.txt:3:7: '0,0-0,1' is not a pair of cells"),
    ("board 3x1\nR.R\nwalls 0,0|0,2\n", "b.txt:3:7: wall between r1c1 and r1c3, which do not touch"),
    ("board 3x1\nR.R\nwarps 0,0|0,3\n", "b.txt:3:7: r1c4 is off the 3x1 board"),
    ("board 3x1\nR#G\n", "b.txt:2:1: colour 'R' appears once"),
    ("board 3x3\n.R.\nR+R\n...\n", "b.txt:3:3: colour 'R' appears 3 times"),
    ("board 3x1\n...\n", "b.txt:1:1: no colours"),
    ("5,0,1,1;0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,25\n", "b.txt:1:9: '25'"),
    ("5,0,1,2;0,1\n", "b.txt:1:7: the header says 2 colours"),
    ("X_3,0,1,1,4;0,1,2\n", "b.txt:1:1: bridges stand on square boards only"),
    ("3,0,1,1,,,0|8;0,1,2\n", "b.txt:1:11: wall between r1c1 and r3c3, which do not touch"),
    ('{"nodes": [[0, 0]], "edges": [], "endpoints": {"R": [[0, 0], [0, 1]]}}', "b.txt:1:34: [0, 1] is not one of"),
    ('{"nodes": [[0, 0]],\n "edges": 3}', "b.txt:2:2: 'edges' must be a list"),
    ('{"nodes": [', "b.txt:1:12: not JSON"),
]


@pytest.mark.parametrize(("text", "where_what"), BAD)
def test_bad_variant_input_is_one_located_line(text, where_what, tmp_path):
    with pytest.raises(PuzzleFormatError) as caught:
        parse(text, "b.txt")
    assert str(caught.value).startswith(where_what), str(caught.value)
    path = tmp_path / "b.txt"
    path.write_text(text)
    result = run("solve", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_names_what_is_wrong_and_exits_1(tmp_path):
    puzzle_file, wrong = tmp_path / "p.txt", tmp_path / "wrong.txt"
    puzzle_file.write_text("board 3x4\n.R.\nG+G\n.R.\n...\n")
    wrong.write_text("board 3x4\n.R.\nG+G\n.R.\nRRR\n")
    result = run("verify", puzzle_file, wrong)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        "  r4c1: R, off path R (a branch with r4c2 and r4c3)",
        "  r1c1: no path covers it, nor r1c3, r3c1 or 1 more",
    ]
    right = tmp_path / "right.json"
    paths = {"R": [[0, 1], [1, 1], [2, 1]], "G": [[1, 0], [1, 1], [1, 2]]}
    (tmp_path / "plus.txt").write_text("board 3x3\n#R#\nG+G\n#R#\n")
    right.write_text(json.dumps({"paths": paths}))
    assert run("verify", tmp_path / "plus.txt", right).exit_code == 0
    assert run("verify", puzzle_file).exit_code == 2  # a board file carries no solution


def test_allow_touch_and_allow_blanks_open_boards_the_strict_rules_close(tmp_path):
    touching, blank = tmp_path / "touch.txt", tmp_path / "blank.txt"
    touching.write_text("RRB\n..B\n")  # R can only run round the bottom row, beside itself
    blank.write_text("R.R\n...\n")  # R cannot fill the bottom row without touching itself
    assert run("solve", "--quiet", touching).exit_code == 1
    assert run("solve", "--quiet", "--allow-touch", touching).exit_code == 0
    assert run("solve", "--quiet", blank).exit_code == 1
    assert run("solve", "--quiet", "--allow-blanks", blank).exit_code == 0
    counted = run("count", "--allow-blanks", "--allow-touch", blank)
    assert counted.stdout.strip() == f"{blank}: exactly 4 solutions"
    assert run("unique", "--quiet", "--allow-blanks", blank).stdout.split()[1] == "not-unique"


def test_a_play_file_fixes_cells_and_bad_ones_are_located_and_the_old_option_name_works(tmp_path):
    puzzle, play = tmp_path / "p.txt", tmp_path / "h.txt"
    puzzle.write_text("R.R\n...\n")
    play.write_text("...\n.R.\n")
    result = run("solve", "--allow-blanks", "--play", play, puzzle)
    assert result.exit_code == 0 and result.stdout.splitlines()[1:] == ["R.R", "RRR"]
    assert run("count", "--allow-blanks", "--hint", play, puzzle).stdout.strip() == f"{puzzle}: exactly 1 solution"
    play.write_text("...\n.Q.\n")
    bad = run("solve", "--play", play, puzzle)
    assert bad.exit_code == 2 and bad.stderr.strip() == f"{play}:2:2: drawn 'Q' is not a colour of the puzzle"
    hint = play
    assert run("solve", "--hint", hint, puzzle, puzzle).exit_code == 2

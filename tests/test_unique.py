"""Uniqueness proofs and solution counts, checked against a brute-force enumerator."""

from __future__ import annotations

import json

import pytest
from brute import brute_count, brute_solutions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import board, needs_zucker, project_puzzles, zucker_puzzles
from cpflow.board.formats import load, parse_solution
from cpflow.board.grid import Puzzle
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.workflows.unique import Verdict, count, uniqueness

# Two solutions: the blue and green paths can trade the left and right columns.
TWO_SOLUTIONS = """
    B..G
    .GB.
    .RR.
    ....
"""
runner = CliRunner()


def test_brute_force_finds_both_solutions_of_the_two_solution_board():
    solutions = list(brute_solutions(board(TWO_SOLUTIONS)))
    assert len(solutions) == 2 and solutions[0] != solutions[1]


@pytest.mark.parametrize("path", project_puzzles(), ids=lambda p: p.name)
def test_project_puzzles_are_unique(path):
    found = uniqueness(load(path)[0])
    assert found.verdict is Verdict.UNIQUE
    assert found.solutions == (load_stored(path),)


def load_stored(path):
    (puzzle,) = load(path)
    return parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())


def test_a_two_solution_board_is_not_unique_and_shows_two_differing_solutions():
    puzzle = board(TWO_SOLUTIONS)
    found = uniqueness(puzzle)
    assert found.verdict is Verdict.NOT_UNIQUE
    first, second = found.solutions
    assert first != second
    assert violations(puzzle, first) == violations(puzzle, second) == []
    assert found.differences() == sorted(c for c in puzzle.cells if first.colour_of()[c] != second.colour_of()[c])
    assert found.differences()


@pytest.mark.parametrize("path", project_puzzles(solvable=False), ids=lambda p: p.name)
def test_unsolvable_boards_are_reported_unsolvable(path):
    found = uniqueness(load(path)[0])
    assert (found.verdict, found.solutions) == (Verdict.UNSOLVABLE, ())


def test_a_zero_time_limit_gives_unknown():
    assert uniqueness(load(project_puzzles()[-1])[0], time_limit=0.0).verdict is Verdict.UNKNOWN


@needs_zucker
@pytest.mark.parametrize("path", [p for p in zucker_puzzles() if "unsolvable" not in p.name], ids=lambda p: p.stem)
def test_classic_boards_are_unique(path):
    assert uniqueness(load(path)[0]).verdict is Verdict.UNIQUE


def test_count_matches_brute_force_and_respects_the_limit():
    puzzle = board(TWO_SOLUTIONS)
    assert (count(puzzle).number, count(puzzle).exact) == (2, True)
    capped = count(puzzle, limit=1)
    assert (capped.number, capped.exact) == (1, False)


@st.composite
def tiny_boards(draw) -> Puzzle:
    width, height = draw(st.sampled_from([(3, 3), (4, 3), (3, 4), (4, 4)]))
    cells = [(r, c) for r in range(height) for c in range(width)]
    colours = draw(st.integers(2, 4))
    chosen = draw(st.permutations(cells))[: 2 * colours]
    return Puzzle.build(width, height, {"RGBY"[i]: (chosen[2 * i], chosen[2 * i + 1]) for i in range(colours)})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_boards())
def test_count_agrees_with_brute_force_on_tiny_boards(puzzle):
    found = count(puzzle, limit=50)
    assert found.exact
    assert found.number == brute_count(puzzle)
    assert all(violations(puzzle, s) == [] for s in found.solutions)
    assert len(set(map(frozenset, (s.colour_of().items() for s in found.solutions)))) == found.number


def test_unique_cli_exit_codes_and_json(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("B..G\n.GB.\n.RR.\n....\n")
    unique_path = project_puzzles()[0]
    assert runner.invoke(app, ["unique", "-q", str(unique_path)]).exit_code == 0
    result = runner.invoke(app, ["unique", "--format", "json", str(unique_path), str(two)])
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["verdict"] for r in records] == ["unique", "not-unique"]
    assert [len(r["solutions"]) for r in records] == [1, 2]
    assert records[1]["differences"] and records[0]["differences"] == []
    unsolvable = project_puzzles(solvable=False)[0]
    assert runner.invoke(app, ["unique", "-q", str(unsolvable)]).exit_code == 1
    assert runner.invoke(app, ["unique", "-q", "--time-limit", "1e-9", str(project_puzzles()[-1])]).exit_code == 3


def test_unique_text_output_marks_the_differences(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("B..G\n.GB.\n.RR.\n....\n")
    out = runner.invoke(app, ["unique", str(two)]).stdout
    assert "not-unique" in out and "solution 2:" in out
    marks = out.split("differences:\n")[1].split()
    assert len(marks) == 4 and "*" in "".join(marks)


def test_count_cli_exact_capped_and_json(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("B..G\n.GB.\n.RR.\n....\n")
    exact = runner.invoke(app, ["count", str(two)])
    assert (exact.exit_code, exact.stdout.strip()) == (0, f"{two}: exactly 2 solutions")
    capped = runner.invoke(app, ["count", "--limit", "1", str(two)])
    assert (capped.exit_code, capped.stdout.strip()) == (3, f"{two}: at least 1 solution")
    record = json.loads(runner.invoke(app, ["count", "-f", "json", str(two)]).stdout)
    assert (record["count"], record["exact"]) == (2, True)
    assert runner.invoke(app, ["count", str(tmp_path / "missing.txt")]).exit_code == 2


def test_a_count_the_time_limit_cuts_short_reports_the_solutions_found_so_far(monkeypatch):
    from cpflow.clock import OutOfTime
    from cpflow.engines import front

    puzzle = board(
        """
        B..G
        .GB.
        .RR.
        ....
        """
    )
    found = list(front.solutions(puzzle, front.budget(puzzle)))
    assert len(found) == 2

    def found_then_out_of_time(*args, **kwargs):
        yield from found
        raise OutOfTime  # the time limit, before the search could prove there are no more

    monkeypatch.setattr(front, "solutions", found_then_out_of_time)
    counted = count(puzzle, 1000, time_limit=5)
    assert (counted.number, counted.exact) == (2, False)  # not "at least 0"


def test_two_solutions_that_colour_every_cell_alike_are_shown_by_their_paths(tmp_path):
    path = tmp_path / "corners.txt"
    path.write_text("A..\n...\n..A\n")  # one colour from corner to corner: every cell A, the paths differ
    runner = CliRunner()
    text = runner.invoke(app, ["unique", "--allow-touch", str(path)])
    assert text.exit_code == 1
    assert "their paths take different steps" in text.stdout
    first, second = (part.split("solution 2:")[0] for part in text.stdout.split("solution 1:")[1].split("solution 2:"))
    assert first != second and "─" in first + second  # pipes, not two identical letter grids
    record = json.loads(runner.invoke(app, ["unique", "--allow-touch", "-f", "json", str(path)]).stdout)
    assert record["verdict"] == "not-unique" and record["different_steps"] and record["differences"]
    one, two = (parse_solution(load(path)[0], json.dumps(s)) for s in record["solutions"])
    assert one.colour_of() == two.colour_of() and one != two

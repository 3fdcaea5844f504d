"""The verifier names every kind of broken rule on hand-made wrong solutions."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import PUZZLES, board
from cpflow.board.formats import parse_solution
from cpflow.board.grid import Solution
from cpflow.board.verify import is_solution, violations

PUZZLE = board("""
    RG.
    .RG
    B.B
""")
GOOD = {"R": ((0, 0), (1, 0), (1, 1)), "G": ((0, 1), (0, 2), (1, 2)), "B": ((2, 0), (2, 1), (2, 2))}


def with_paths(**changes) -> Solution:
    return Solution({**GOOD, **changes})


def test_a_good_solution_has_no_violations():
    assert is_solution(PUZZLE, Solution(GOOD))
    assert parse_solution(PUZZLE, "RGG\nRRG\nBBB\n") == Solution(GOOD)


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        ({"R": ((0, 0), (1, 0))}, "colour 'R': path does not run from one endpoint to the other"),
        ({"R": ((0, 0), (1, 1))}, "colour 'R': r1c1 and r2c2 are consecutive but not neighbours"),
        ({"R": ((0, 0), (1, 0), (1, 1), (1, 0), (1, 1))}, "colour 'R' visits r2c1 more than once (a loop)"),
        ({"R": ((0, 0), (1, 0), (2, 0), (2, 1), (1, 1))}, "r3c1 is used by colours ['B', 'R']"),
        ({"R": ((0, 0), (0, -1), (1, -1), (1, 0), (1, 1))}, "colour 'R': r1c0 is not on the board"),
        ({"Q": ((0, 0), (0, 1))}, "colour 'Q' is not in the puzzle"),
    ],
)
def test_each_broken_rule_is_named(paths, expected):
    found = violations(PUZZLE, with_paths(**paths))
    assert expected in found, found


def test_a_missing_path_leaves_its_cells_uncovered():
    assert violations(PUZZLE, Solution({"R": GOOD["R"], "B": GOOD["B"]})) == [
        "colour 'G' has no path",
        "r1c2 is not covered",
        "r1c3 is not covered",
        "r2c3 is not covered",
    ]


def test_a_path_that_touches_itself_is_named():
    puzzle = board("""
        R..
        ...
        R..
    """)
    snake = Solution({"R": ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (1, 1), (1, 0), (2, 0))})
    assert violations(puzzle, snake) == [
        "colour 'R' touches itself at r1c1 and r2c1",
        "colour 'R' touches itself at r1c2 and r2c2",
        "colour 'R' touches itself at r2c2 and r2c3",
        "colour 'R' touches itself at r3c1 and r3c2",
    ]


def cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "cpflow", *map(str, args)], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_verify_names_the_first_broken_rule_and_its_cell(tmp_path):
    puzzle, touching = tmp_path / "p.txt", tmp_path / "s.txt"
    puzzle.write_text("AB.\n...\nA.B\n")
    touching.write_text("ABB\nAAB\nAAB\n")  # A runs down the left and back up: it touches itself
    done = cli("verify", puzzle, touching)
    assert done.returncode == 1
    assert done.stdout.splitlines()[:2] == [f"{puzzle}: invalid", "  r2c1: path A touches itself (beside r3c1)"]


def test_a_letter_that_is_no_colour_of_the_puzzle_is_bad_input_at_its_place_for_verify_and_render(tmp_path):
    lines = (PUZZLES / "starter_5x5.solution.txt").read_text().splitlines()
    lines[4] = lines[4][:2] + "Z" + lines[4][3:]  # a typo, which was read as an empty cell
    typo = tmp_path / "typo.txt"
    typo.write_text("\n".join(lines) + "\n")
    for args in (
        ("verify", PUZZLES / "starter_5x5.txt", typo),
        ("render", PUZZLES / "starter_5x5.txt", "--solution", typo, "--partial", "--out", tmp_path / "x.png"),
    ):
        done = cli(*args)
        assert done.returncode == 2, done
        assert done.stderr == f"{typo}:5:3: 'Z' at r5c3 is not a colour of the puzzle\n"
    assert not (tmp_path / "x.png").exists()


def test_verify_takes_allow_touch_and_accepts_what_solve_allow_touch_printed(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("AB.\n...\nA.B\n")
    solved = cli("solve", "--allow-touch", puzzle)
    assert solved.returncode == 0
    assert cli("verify", "--allow-touch", puzzle, "-", stdin=solved.stdout).returncode == 0


def test_verify_checks_every_puzzle_of_a_file_against_its_solution_in_order(tmp_path):
    both = tmp_path / "two.txt"
    both.write_text("2 2\nAB\nAB\n3 1\nA.A\n")  # the header format: two boards
    answers = cli("solve", "--format", "json", both)
    assert answers.returncode == 0 and len(answers.stdout.splitlines()) == 2
    (tmp_path / "answers.json").write_text(answers.stdout)
    done = cli("verify", both, tmp_path / "answers.json")
    assert done.returncode == 0 and done.stdout.count(": valid") == 2
    swapped = "\n".join(reversed(answers.stdout.splitlines())) + "\n"
    assert cli("verify", both, "-", stdin=swapped).returncode == 1
    three = answers.stdout + answers.stdout.splitlines()[0] + "\n"  # a count that differs pairs none right
    done = cli("verify", both, "-", stdin=three)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"<stdin>: holds 3 solutions, {both} 2 puzzles\n")


def test_verify_pairs_boards_whose_rows_of_holes_begin_with_a_hash(tmp_path):
    """A board's row may begin with a hole ('#'), which split its solution in two as if a remark."""
    both = tmp_path / "two.txt"
    both.write_text((PUZZLES / "holes_8x8_01.txt").read_text() + (PUZZLES / "holes_8x8_02.txt").read_text())
    answers = cli("solve", both)
    assert answers.returncode == 0 and any(line.startswith("#B") for line in answers.stdout.splitlines())
    (tmp_path / "answers.txt").write_text(answers.stdout)
    done = cli("verify", both, tmp_path / "answers.txt")
    assert (done.returncode, done.stdout) == (0, f"{both}: valid\n{both}#2: valid\n")


def test_verify_and_render_read_the_puzzle_from_stdin_and_say_an_unreadable_file_in_one_line(tmp_path):
    text = (PUZZLES / "starter_5x5.txt").read_text()
    solution = PUZZLES / "starter_5x5.solution.txt"
    assert cli("verify", "-", solution, stdin=text).returncode == 0
    drawn = tmp_path / "board.svg"
    assert cli("render", "-", "--out", drawn, "--solve", stdin=text).returncode == 0 and drawn.exists()
    for command in (["verify", tmp_path], ["render", tmp_path, "--out", drawn]):
        done = cli(*command)
        assert done.returncode == 2 and done.stderr == f"{tmp_path}: is a directory, not a puzzle file\n"

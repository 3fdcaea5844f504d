"""The verifier names every kind of broken rule on hand-made wrong solutions."""

from __future__ import annotations

import pytest

from conftest import board
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
        ({"R": ((0, 0), (1, 1))}, "colour 'R': cell (0, 0) and cell (1, 1) are consecutive but not neighbours"),
        ({"R": ((0, 0), (1, 0), (1, 1), (1, 0), (1, 1))}, "colour 'R' visits cell (1, 0) more than once (a loop)"),
        ({"R": ((0, 0), (1, 0), (2, 0), (2, 1), (1, 1))}, "cell (2, 0) is used by colours ['B', 'R']"),
        ({"R": ((0, 0), (0, -1), (1, -1), (1, 0), (1, 1))}, "colour 'R': cell (0, -1) is not on the board"),
        ({"Q": ((0, 0), (0, 1))}, "colour 'Q' is not in the puzzle"),
    ],
)
def test_each_broken_rule_is_named(paths, expected):
    found = violations(PUZZLE, with_paths(**paths))
    assert expected in found, found


def test_a_missing_path_leaves_its_cells_uncovered():
    assert violations(PUZZLE, Solution({"R": GOOD["R"], "B": GOOD["B"]})) == [
        "colour 'G' has no path",
        "cell (0, 1) is not covered",
        "cell (0, 2) is not covered",
        "cell (1, 2) is not covered",
    ]


def test_a_path_that_touches_itself_is_named():
    puzzle = board("""
        R..
        ...
        R..
    """)
    snake = Solution({"R": ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (1, 1), (1, 0), (2, 0))})
    assert violations(puzzle, snake) == [
        "colour 'R' touches itself at cell (0, 0) and cell (1, 0)",
        "colour 'R' touches itself at cell (0, 1) and cell (1, 1)",
        "colour 'R' touches itself at cell (1, 1) and cell (1, 2)",
        "colour 'R' touches itself at cell (2, 0) and cell (2, 1)",
    ]

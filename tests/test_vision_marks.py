"""A warp's mark on a board's edge (cpflow.vision.sides.marks): a chevron, or a pipe of a dot's colour running
out; not the page's art running out under the board in a colour no dot has, nor a bare edge. Each decision
comes with its margin, which the reading's confidence takes."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision.board import Lattice  # noqa: E402
from cpflow.vision.sides import marks  # noqa: E402

STEP = 60
LATTICE = Lattice(tuple(30.0 + STEP * k for k in range(6)), tuple(30.0 + STEP * k for k in range(6)))
RED, BLUE = (30, 30, 230), (230, 90, 20)  # BGR: the board's dots
DOTS = np.array([RED, BLUE], dtype=np.float32)
CELL, OUT = (2, 0), (2, -1)  # an edge cell, and beyond its left side


def mark(picture: np.ndarray, dots: np.ndarray = DOTS) -> tuple[bool, float]:
    """The mark on the edge cell's left side, and its margin."""
    (found,) = marks(picture, LATTICE, [(CELL, OUT)], dots)
    return found


def board() -> np.ndarray:
    """A black board of 5x5 cells with its grey grid lines."""
    picture = np.zeros((360, 360, 3), np.uint8)
    for at in LATTICE.xs:
        cv2.line(picture, (round(at), 30), (round(at), 330), (90, 90, 90), 1)
        cv2.line(picture, (30, round(at)), (330, round(at)), (90, 90, 90), 1)
    return picture


def out_of_the_edge(colour: tuple[int, int, int]) -> np.ndarray:
    """A band a third of a cell wide from the edge cell's centre out past the board's left edge."""
    picture = board()
    x, y = LATTICE.centre(*CELL)
    cv2.rectangle(picture, (0, round(y - STEP / 6)), (round(x), round(y + STEP / 6)), colour, -1)
    return picture


def test_a_pipe_of_a_dots_colour_running_out_is_a_mark():
    assert mark(out_of_the_edge(RED)) == (True, pytest.approx(1.0))


def test_a_streak_of_the_pages_art_running_out_in_a_colour_no_dot_has_is_none_and_surely_none():
    streak = (60, 20, 70)  # a dim purple, as a page's art shows through a board (MatthewUng's photos)
    marked, sure = mark(out_of_the_edge(streak))
    assert not marked and sure >= 0.5
    assert mark(out_of_the_edge(streak), np.array([streak], np.float32))[0]  # were it a dot's


def test_a_chevron_is_a_mark_and_a_bare_edge_surely_none():
    picture = board()
    x, y = LATTICE.xs[0], LATTICE.centre(*CELL)[1]
    tip = (round(x), round(y))
    for aside in (-1, 1):  # cpflow.pictures' chevron: from its tip on the edge to 0.2 in and 0.15 aside
        cv2.line(picture, tip, (round(x + 0.2 * STEP), round(y + aside * 0.15 * STEP)), (160, 160, 160), 4)
    marked, sure = mark(picture)
    assert marked and sure >= 0.5
    assert mark(board()) == (False, pytest.approx(1.0))
    assert marks(board(), LATTICE, [], DOTS) == []

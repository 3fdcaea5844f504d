"""Witnesses of why without a long solve: routed paths (engines/routing.py) and the label model's windows."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards
from test_why import brute_meets, meets, rows_board, witnessed

from conftest import board
from cpflow.board.grid import Rules
from cpflow.clock import Deadline
from cpflow.engines.routing import route
from cpflow.engines.why import why

# unsolvable_6x6's corner on a 16x16 board: R's corner end, between the ends of G and B, leaves r1c2
# or r2c1 with no way through; a witness of either cell lies within a few steps of the corner
CORNER = board(
    "R.G.............\n................\nB....G..........\n................\n................\n.....R..........\n"
    "..B.............\n" + "................\n" * 8 + "Y..............Y\n"
)
TINY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans(), data=st.data())
def test_a_routed_witness_meets_what_it_was_asked_for_and_is_found_when_one_colour_suffices(puzzle, touch, data):
    puzzle = replace(puzzle, rules=Rules(touch=touch))
    owner = puzzle.endpoint_colour()
    connect = data.draw(st.lists(st.sampled_from(list(puzzle.colours)), unique=True, max_size=2))
    free = [n for n in puzzle.nodes if n not in owner]
    cover = data.draw(st.lists(st.sampled_from(free), unique=True, max_size=3)) if free else []
    found = route(puzzle, connect, cover)
    if found is not None:
        assert meets(puzzle, found, connect, cover)
    if len(connect) <= 1 and not cover:  # a colour alone is drawn exactly when it can be (a shortest path)
        assert (found is not None) == brute_meets(puzzle, connect, [])


def test_a_cell_is_covered_by_a_colour_routed_through_it():
    puzzle = board("A.A\n...\n...\n")
    found = route(puzzle, [], [(2, 1)])
    assert found is not None and meets(puzzle, found, [], [(2, 1)]) and set(found.paths) == {"A"}


def test_no_route_where_a_path_would_touch_itself_and_one_where_it_may():
    puzzle = board("A.B\nA.B\n")  # r1c2: its path turns beside its own end, whichever colour draws it
    assert route(puzzle, [], [(0, 1)]) is None and not brute_meets(puzzle, [], [(0, 1)])
    loose = replace(puzzle, rules=Rules(touch=True))
    found = route(loose, [], [(0, 1)])
    assert found is not None and meets(loose, found, [], [(0, 1)])


def test_a_window_keeps_the_paths_inside_and_proves_nothing_its_walls_caused():
    from cpflow.engines.relaxed_label import RelaxedLabel

    puzzle = rows_board(6)
    label = RelaxedLabel(puzzle)
    window = {(r, c) for r in (0, 1) for c in range(6)}  # the first two rows
    status, found, _ = label.solve([("connect", "a"), ("cover", (1, 2))], Deadline(30), window)
    assert status == "solvable" and found is not None
    assert {n for path in found.paths.values() for n in path} <= window
    assert meets(puzzle, found, ["a"], [(1, 2)])
    status, found, core = label.solve([("cover", (4, 2))], Deadline(30), window)  # coverable, but not inside
    assert (status, found, core) == ("unknown", None, [])
    status, _, core = label.solve([("connect", "a"), ("cover", (0, 1)), ("cover", (4, 3))], Deadline(30), window)
    assert status == "unknown"  # r5c4 lies outside: only the window's walls keep it uncovered


def test_without_routes_the_windows_give_the_witnesses(monkeypatch):
    from cpflow.engines import why as module

    monkeypatch.setattr(module, "route", lambda *args: None)
    settled = []
    original = module._windowed

    def windowed(*args):
        answer = original(*args)
        settled.append(answer[0])
        return answer

    monkeypatch.setattr(module, "_windowed", windowed)
    puzzle = CORNER
    found = why(puzzle, 60)
    assert found is not None and found.minimal and witnessed(puzzle, found)
    assert not found.connect and set(found.cover) == {(0, 1), (1, 0)}
    assert "solvable" in settled

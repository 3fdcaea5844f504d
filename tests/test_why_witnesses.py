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
from cpflow.engines.why import closed, why

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


def test_a_closed_window_is_a_board_of_its_own_whose_solutions_are_witnesses():
    from cpflow.engines.relaxed_label import RelaxedLabel

    puzzle = rows_board(6)
    window = {(r, c) for r in (0, 1) for c in range(6)}  # the first two rows
    label = RelaxedLabel(closed(puzzle, window))
    status, found, _ = label.solve([("connect", "a"), ("cover", (1, 2))], Deadline(30))
    assert status == "solvable" and found is not None
    assert {n for path in found.paths.values() for n in path} <= window
    assert meets(puzzle, found, ["a"], [(1, 2)])  # a solution of the whole board
    assert label.literal(("cover", (4, 2))) is None and label.literal(("connect", "c")) is None
    narrow = closed(puzzle, {(0, c) for c in range(6)} | {(1, 0)})  # b's other end is outside: b draws nothing
    assert set(narrow.endpoints) == {"a"} and (1, 0) not in narrow.neighbours


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans(), data=st.data())
def test_an_open_window_proves_only_what_cannot_hold_on_the_board_and_is_exact_on_all_of_it(puzzle, touch, data):
    """Sound: a set an open window proves (its core) no choice of paths on the board meets (brute
    force); the window of every node is the board itself, so there it settles exactly."""
    from cpflow.engines.relaxed_open import RelaxedOpen

    puzzle = replace(puzzle, rules=Rules(touch=touch))
    owner = puzzle.endpoint_colour()
    connect = data.draw(st.lists(st.sampled_from(list(puzzle.colours)), unique=True, max_size=3))
    free = [n for n in puzzle.nodes if n not in owner]
    cover = data.draw(st.lists(st.sampled_from(free), unique=True, max_size=5)) if free else []
    window = data.draw(st.sets(st.sampled_from(list(puzzle.nodes)), min_size=1))
    wanted = [("connect", c) for c in connect] + [("cover", n) for n in cover]
    status, found, core = RelaxedOpen(puzzle, window).solve(wanted, Deadline(30))
    assert status in ("infeasible", "solvable") and found is None
    if status == "infeasible":
        assert set(core) <= set(wanted)
        assert not brute_meets(puzzle, [w for k, w in core if k == "connect"], [w for k, w in core if k == "cover"])
    status, _, _ = RelaxedOpen(puzzle, puzzle.nodes).solve(wanted, Deadline(30))
    assert (status == "solvable") == brute_meets(puzzle, connect, cover)


def test_an_open_window_around_the_corner_proves_its_two_cells():
    from cpflow.engines.relaxed_open import RelaxedOpen
    from cpflow.engines.why import ball

    window = ball(CORNER, [(0, 1), (1, 0)], 2)  # 10 of the board's 256 nodes; paths leave it and come back
    model = RelaxedOpen(CORNER, window)
    both = [("cover", (0, 1)), ("cover", (1, 0))]
    assert model.solve(both, Deadline(30)) == ("infeasible", None, both)
    assert all(model.solve([one], Deadline(30))[0] == "solvable" for one in both)
    assert model.literal(("cover", (9, 9))) is None and model.literal(("connect", "Y")) is None


def test_without_routes_the_windows_give_the_witnesses(monkeypatch):
    from cpflow.engines import why as module

    monkeypatch.setattr(module, "route", lambda *args, **kwargs: None)
    settled = []
    original = module.Windows.witness

    def witness(self, *args):
        answer = original(self, *args)
        settled.append(answer[0])
        return answer

    monkeypatch.setattr(module.Windows, "witness", witness)
    puzzle = CORNER
    found = why(puzzle, 60)
    assert found is not None and found.minimal and witnessed(puzzle, found)
    assert not found.connect and set(found.cover) == {(0, 1), (1, 0)}
    assert "solvable" in settled


def test_the_windows_alone_shrink_a_set_to_a_minimal_one(monkeypatch):
    """With the whole board and its parts silent, the open windows prove the drops and the closed
    ones (or the routing) give the witnesses: the corner's cells within 3 steps shrink to its two."""
    from cpflow.engines import why as module
    from cpflow.engines.relaxed_label import RelaxedLabel

    class Silent:
        opened, reach = False, RelaxedLabel(CORNER).reach

        def solve(self, wanted, deadline):
            return "unknown", None, []

    monkeypatch.setattr(module.Ladder, "solve", lambda self, wanted, deadline: ("unknown", None, []))
    owner = CORNER.endpoint_colour()
    near = [("cover", n) for n in sorted(module.ball(CORNER, [(0, 0)], 3)) if n not in owner]
    found = module._shrunk(CORNER, Silent(), near, Deadline(60), None)
    assert found.minimal and witnessed(CORNER, found)
    assert not found.connect and set(found.cover) == {(0, 1), (1, 0)}

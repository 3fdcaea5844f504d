"""Witnesses repaired (engines/repair.py): a solution kept outside a window, its inside solved again."""

from __future__ import annotations

from dataclasses import replace

from brute import brute_solutions
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards
from test_why import meets, witnessed
from test_why_witnesses import CORNER

from cpflow.board.grid import Rules
from cpflow.clock import Deadline
from cpflow.engines.repair import _grown, repaired

TINY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans(), data=st.data())
def test_a_repaired_solution_is_a_board_solution_equal_outside_the_window(puzzle, touch, data):
    puzzle = replace(puzzle, rules=Rules(touch=touch))
    solution = next(brute_solutions(puzzle), None)
    assume(solution is not None)
    window = data.draw(st.sets(st.sampled_from(list(puzzle.nodes))))
    owner = puzzle.endpoint_colour()
    cover = [n for n in puzzle.nodes if n not in owner]
    wanted = [("connect", c) for c in puzzle.colours] + [("cover", n) for n in cover]
    found = repaired(puzzle, solution, window, wanted, Deadline(30))
    if len(window) == len(puzzle.nodes):  # the solution itself is one
        assert found is not None
    if found is not None:
        assert meets(puzzle, found, puzzle.colours, cover)
        inside, before, after = _grown(solution, set(window)), solution.colour_of(), found.colour_of()
        assert all(before.get(n) == after.get(n) for n in puzzle.nodes if n not in inside)


def test_a_solution_that_fails_a_cell_is_repaired_into_a_witness():
    """On the corner board, a solution that leaves r1c2 empty (a witness of r1c2, the cells within 3
    steps of the corner asked) is repaired, in a window around r1c2 and r2c1, into one that covers r1c2
    and leaves r2c1 empty."""
    from cpflow.engines.relaxed_label import RelaxedLabel
    from cpflow.engines.why import ball, closed

    model = RelaxedLabel(closed(CORNER, ball(CORNER, [(0, 0)], 12)))  # its solutions are the board's
    owner = CORNER.endpoint_colour()
    everything = [("cover", n) for n in sorted(ball(CORNER, [(0, 0)], 3)) if n not in owner]
    status, seed, _ = model.solve([r for r in everything if r != ("cover", (0, 1))], Deadline(30))
    assert status == "solvable" and seed is not None and (0, 1) not in seed.colour_of()
    wanted = [r for r in everything if r != ("cover", (1, 0))]
    found = repaired(CORNER, seed, ball(CORNER, [(0, 1), (1, 0)], 3), wanted, Deadline(30))
    assert found is not None and meets(CORNER, found, [], [n for _, n in wanted])
    assert (1, 0) not in found.colour_of()


def test_repairs_give_witnesses_where_the_board_and_its_windows_are_silent(monkeypatch):
    """With the whole board and the closed windows silent, and the routing one cell short of what it is
    asked (its paths seeds, not witnesses), the repairs give witnesses: the corner's cells within 3 steps
    shrink to its two, minimal."""
    from cpflow.engines import why as module
    from cpflow.engines.relaxed_label import RelaxedLabel

    class Silent:
        opened, reach = False, RelaxedLabel(CORNER).reach

        def solve(self, wanted, deadline):
            return "unknown", None, []

    unsettled = ("unknown", None, [])
    monkeypatch.setattr(module.Windows, "witness", lambda self, core, wanted, deadline: unsettled)
    routed = module.route
    monkeypatch.setattr(module, "route", lambda puzzle, colours, cells, *args, **kw: routed(puzzle, colours, cells[1:]))
    mended = []
    original = module.repaired

    def repaired_(*args):
        mended.append(original(*args))
        return mended[-1]

    monkeypatch.setattr(module, "repaired", repaired_)
    owner = CORNER.endpoint_colour()
    near = [("cover", n) for n in sorted(module.ball(CORNER, [(0, 0)], 3)) if n not in owner]
    found = module._shrunk(CORNER, Silent(), near, Deadline(60), None)
    assert found.minimal and witnessed(CORNER, found)
    assert not found.connect and set(found.cover) == {(0, 1), (1, 0)}
    assert any(solution is not None for solution in mended)

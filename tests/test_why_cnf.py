"""The relaxed model of why as clauses, one incremental solver for every call (engines/relaxed_cnf.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards
from test_why import brute_meets, meets, rows_board, witnessed
from test_why_witnesses import CORNER

from cpflow.board.grid import Rules
from cpflow.clock import Deadline

pytest.importorskip("pysat", reason="the sat extra is not installed (pip install 'cpflow[sat]')")

from cpflow.engines import relaxed_cnf  # noqa: E402 (python-sat first)
from cpflow.engines.relaxed_cnf import ProvenFirst, RelaxedCnf, proving  # noqa: E402
from cpflow.engines.why import _checked, why  # noqa: E402

TINY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
SOLVERS = ("glucose42", "minisat22", "cadical195")


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans(), solver=st.sampled_from(SOLVERS), data=st.data())
def test_the_clauses_settle_each_set_as_brute_force_does_call_after_call(puzzle, touch, solver, data):
    """Several sets asked of one solver in turn (what it learnt, and its loop cuts, stay): a set is
    solvable exactly when some choice of paths meets it, its solution is a witness the verifier
    passes, and a core is a subset no choice of paths meets."""
    puzzle = replace(puzzle, rules=Rules(touch=touch))
    model = RelaxedCnf(puzzle, solver=solver)
    requirements = model.requirements()
    for _ in range(3):
        wanted = data.draw(st.lists(st.sampled_from(requirements), unique=True, max_size=6))
        connect = [w for k, w in wanted if k == "connect"]
        cover = [w for k, w in wanted if k == "cover"]
        status, found, core = model.solve(wanted, Deadline(30))
        assert status == ("solvable" if brute_meets(puzzle, connect, cover) else "infeasible")
        if status == "solvable":
            assert found is not None and meets(puzzle, found, connect, cover)
            assert _checked(puzzle, found, wanted) is found
        else:
            assert set(core) <= set(wanted)
            assert not brute_meets(puzzle, [w for k, w in core if k == "connect"], [w for k, w in core if k == "cover"])


def test_a_loop_is_cut_and_the_answer_asked_again():
    """Under --allow-touch, on a 3x5 board with R's ends side by side, Glucose's first answer to these
    cells has a loop beside R's path (Glucose 4.2 is deterministic); it is cut, never returned."""
    from cpflow.board.grid import Puzzle

    puzzle = replace(Puzzle.build(3, 5, {"R": ((1, 1), (0, 1))}, name="loop"), rules=Rules(touch=True))
    cells = [(2, 2), (3, 2), (2, 1), (1, 0), (0, 0), (4, 2), (4, 0), (4, 1), (2, 0)]
    wanted = [("connect", "R"), *(("cover", n) for n in cells)]
    model = RelaxedCnf(puzzle, solver="glucose42")
    for _ in range(2):
        status, found, _ = model.solve(wanted, Deadline(30))
        assert status == "solvable" and found is not None and meets(puzzle, found, ["R"], cells)
    assert model.cuts >= 1


def test_the_swapped_rows_and_the_pocket_are_proven_and_a_drop_has_its_witness():
    swapped = rows_board(6, swapped=True)
    model = RelaxedCnf(swapped)
    status, _, core = model.solve(model.requirements(), Deadline(30))
    assert status == "infeasible" and core
    assert not brute_meets(swapped, [w for k, w in core if k == "connect"], [w for k, w in core if k == "cover"])
    pocket = rows_board(5, pocket=True)
    model = RelaxedCnf(pocket)
    assert model.solve(model.requirements(), Deadline(30))[0] == "infeasible"
    assert model.solve([("cover", (4, 4))], Deadline(30))[0] == "infeasible"
    status, found, _ = model.solve([r for r in model.requirements() if r != ("cover", (4, 4))], Deadline(30))
    assert status == "solvable" and found is not None and set(found.paths) == set(pocket.colours)


def test_no_time_no_answer_and_no_cell_to_cover_under_allow_blanks():
    model = RelaxedCnf(CORNER)
    assert model.solve(model.requirements(), Deadline(0)) == ("unknown", None, [])
    loose = RelaxedCnf(replace(CORNER, rules=Rules(blanks=True)))
    assert loose.requirements() == [("connect", c) for c in CORNER.colours]
    assert loose.literal(("cover", (0, 1))) is None


class Silent:
    """A model that settles nothing."""

    opened, reach = False, None

    def solve(self, wanted, deadline):
        return "unknown", None, []


def test_the_clauses_answer_first_and_the_model_after_them():
    clauses = RelaxedCnf(CORNER)
    first = ProvenFirst(clauses, Silent())
    both = [("cover", (0, 1)), ("cover", (1, 0))]
    assert first.solve(both, Deadline(30)) == ("infeasible", None, both)
    assert ProvenFirst(clauses, Silent()).solve(both, Deadline(0)) == ("unknown", None, [])


def test_the_clauses_are_built_only_for_a_large_core_and_with_python_sat(monkeypatch):
    import importlib.util

    model = Silent()
    model.reach = RelaxedCnf(CORNER).reach
    large = [("cover", n) for n in CORNER.nodes if n not in CORNER.endpoint_colour()][: relaxed_cnf.LARGE]
    assert proving(CORNER, model, large[:3], Deadline(30)) is model
    assert isinstance(proving(CORNER, model, large, Deadline(30)), ProvenFirst)
    monkeypatch.setattr(relaxed_cnf, "HEAVY", len(CORNER.nodes) * len(CORNER.colours) - 1)
    assert proving(CORNER, model, large, Deadline(30)) is model  # too many nodes x colours: built too slowly
    monkeypatch.undo()
    real = importlib.util.find_spec  # without python-sat, the model alone
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pysat" else real(name, *a))
    assert proving(CORNER, model, large, Deadline(30)) is model


def test_why_shrinks_with_the_clauses_first_to_a_minimal_set_with_witnesses(monkeypatch):
    """With every first core large enough for the clauses, the set is shrunk with them first, and is
    still minimal with each witness checked: the corner's two cells."""
    from cpflow.engines import why as module

    monkeypatch.setattr(relaxed_cnf, "LARGE", 0)
    shrunk = []
    original = module._shrunk

    def spied(puzzle, models, *args):
        shrunk.append(models)
        return original(puzzle, models, *args)

    monkeypatch.setattr(module, "_shrunk", spied)
    found = why(CORNER, 60)
    assert found is not None and found.minimal and witnessed(CORNER, found)
    assert not found.connect and len(found.cover) == 2
    assert [type(models) for models in shrunk] == [ProvenFirst]

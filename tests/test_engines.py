"""Every engine solves, proves unsolvable and respects every rule, on the same puzzles."""

from __future__ import annotations

import pytest

from conftest import board, cells, needs_zucker, project_puzzles, zucker_puzzles
from cpflow.board.formats import load, load_solution
from cpflow.board.verify import violations
from cpflow.engines import base, circuit, cpsat
from cpflow.engines.catalog import DEFAULT, available
from cpflow.engines.pipeline import solve
from cpflow.errors import EngineUnavailable
from cpflow.results import Status

# Every engine of the catalog faces the same tests.
VARIANTS = available()
engines = pytest.mark.parametrize("engine", VARIANTS)
# The default engine faces every puzzle; the others, minutes slower on big boards
# (the reference circuit model does not finish a 20x20 board in 60 s), face the small ones.
SMALL = 100  # cells


def pairs(paths):
    """(engine, puzzle file) for every engine, leaving big boards to the default one."""
    return pytest.mark.parametrize(
        ("engine", "path"),
        [(e, p) for e in VARIANTS for p in paths if e == DEFAULT or cells(p) <= SMALL],
        ids=lambda x: x if isinstance(x, str) else x.stem,
    )


# Solvable only if R's path runs round through the bottom row and so touches itself.
SELF_TOUCH_ONLY = """
    RRB
    ..B
"""


@pairs(project_puzzles())
def test_project_puzzles_are_solved_to_their_stored_solution(engine, path):
    (puzzle,) = load(path)
    result = solve(puzzle, engine)
    assert result.status is Status.SOLVED
    assert violations(puzzle, result.solution) == []
    assert result.solution == load_solution(puzzle, path.with_suffix(".solution.txt"))


@pairs(project_puzzles(solvable=False))
def test_project_unsolvable_puzzles_are_proven_unsolvable(engine, path):
    assert solve(load(path)[0], engine).status is Status.UNSOLVABLE


# The ILP engine (CBC) takes 2 to 90 s on each 14x14 board (models/ilp.md): it faces the small ones.
@needs_zucker
@pytest.mark.parametrize(
    ("engine", "path"),
    [(e, p) for e in VARIANTS for p in zucker_puzzles() if not e.startswith("ilp") or cells(p) <= SMALL],
    ids=lambda x: x if isinstance(x, str) else x.stem,
)
def test_classic_set_is_solved_or_proven_unsolvable(engine, path):
    (puzzle,) = load(path)
    result = solve(puzzle, engine)
    expected = Status.UNSOLVABLE if path.stem == "unsolvable_cross" else Status.SOLVED
    assert result.status is expected
    if expected is Status.SOLVED:
        assert violations(puzzle, result.solution) == []


@engines
def test_a_board_solvable_only_by_self_touching_is_unsolvable(engine):
    assert solve(board(SELF_TOUCH_ONLY), engine).status is Status.UNSOLVABLE


def test_without_the_self_touch_rule_the_same_board_has_a_touching_answer():
    from ortools.sat.python import cp_model

    puzzle = board(SELF_TOUCH_ONLY)
    model = cp_model.CpModel()
    v = circuit.CircuitVars(model, puzzle, circuit.domains(puzzle))
    circuit.add_colour_circuits(model, v)
    circuit.add_one_colour_per_cell(model, v)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert any("touches itself" in line for line in violations(puzzle, v.extract(solver)))


@engines
def test_adjacent_endpoints_are_joined_directly(engine):
    puzzle = board("""
        RRB
        GB.
        ..G
    """)
    result = solve(puzzle, engine)
    assert result.status is Status.SOLVED
    assert result.solution.paths["R"] == ((0, 0), (0, 1))


@engines
def test_a_colour_walled_in_by_others_is_unsolvable_before_any_search(engine):
    puzzle = board("""
        RG.
        GBB
        ..R
    """)
    assert solve(puzzle, engine).status is Status.UNSOLVABLE


def test_cpsat_reports_unknown_when_the_time_limit_is_zero():
    (puzzle,) = load(project_puzzles()[-1])
    result = base.solve(cpsat, puzzle, name="cpsat", time_limit=0.0)
    assert result.status is Status.UNKNOWN
    assert result.solution is None


def test_cpsat_takes_extra_solver_parameters():
    (puzzle,) = load(project_puzzles()[0])
    assert base.solve(cpsat, puzzle, name="cpsat", workers=1, random_seed=7).status is Status.SOLVED
    with pytest.raises(AttributeError):
        base.solve(cpsat, puzzle, name="cpsat", no_such_parameter=1)


def test_an_unknown_engine_is_refused():
    with pytest.raises(EngineUnavailable, match="'nope' is not available"):
        solve(load(project_puzzles()[0])[0], "nope")


@engines
def test_the_time_limit_counts_building_the_model(engine):
    (puzzle,) = load(max(project_puzzles(), key=cells))  # a model that takes more than 0.1 ms to build
    result = solve(puzzle, engine, time_limit=0.0001)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert result.stats["stopped"] == "building"


def test_a_deadline_says_what_is_left_and_raises_once_past():
    from cpflow.clock import NEVER, Deadline, OutOfTime

    assert NEVER.left() is None
    NEVER.check()
    assert 0 < Deadline(60).left() <= 60
    past = Deadline(0)
    assert past.left() == 0
    with pytest.raises(OutOfTime):
        past.check()

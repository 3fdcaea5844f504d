"""The ILP engine: each MIP solver solves, proves unsolvable, excludes, exports and honours its limits."""

from __future__ import annotations

import time

import pytest

from conftest import LARGE, ZUCKER, board, cells, needs_zucker, project_puzzles
from cpflow.board.formats import load, load_solution
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.errors import CpflowError, EngineUnavailable
from cpflow.results import Status

ilp = pytest.importorskip("cpflow.engines.ilp", reason="the ilp engine needs pulp")
import pulp  # noqa: E402  (only after cpflow.engines.ilp, which loads ortools before pulp loads highspy)

from cpflow.engines import base, children, mip  # noqa: E402

# HiGHS runs only where highspy loads beside ortools (see cpflow/ilp.py); else it is skipped.
MIP = [
    pytest.param(name, marks=pytest.mark.skipif(name not in ilp.available_mip_solvers(), reason=f"{name} absent"))
    for name in ilp.MIP_SOLVERS
]
mip_solvers = pytest.mark.parametrize("mip_solver", MIP)
methods = pytest.mark.parametrize("connectivity", ilp.CONNECTIVITY)
SMALL_ZUCKER = ["regular_5x5_01", "regular_6x6_01", "regular_7x7_01", "regular_8x8_01", "regular_9x9_01"]
# CBC takes minutes on some 20x20 boards (models/ilp.md): the engine faces boards of at
# most 100 cells here, in its default connectivity, and the starter boards in the other.
SMALL = [p for p in project_puzzles() if cells(p) <= 100]
CASES = [(p, ilp.DEFAULT_CONNECTIVITY) for p in SMALL] + [
    (p, c) for p in SMALL if p.name.startswith("starter_") for c in ilp.CONNECTIVITY if c != ilp.DEFAULT_CONNECTIVITY
]

# Solvable only if R's path runs round through the bottom row and so touches itself.
SELF_TOUCH_ONLY = """
    RRB
    ..B
"""
# Unsolvable; without connectivity, G may close a loop round B (and R and G run straight).
LOOP_ONLY = """
    ....
    .BB.
    ....
    R..R
    G..G
"""
# Two solutions: the blue and green paths can trade the left and right columns.
TWO_SOLUTIONS = """
    B..G
    .GB.
    .RR.
    ....
"""


def ilp_solve(puzzle, mip_solver: str = "cbc", **options):
    """The ilp engine alone (no front end), built and searched as the pipeline runs it."""
    return base.solve(ilp, puzzle, name=f"ilp-{mip_solver}", mip_solver=mip_solver, **options)


def solve_model(prob: pulp.LpProblem) -> int:
    prob.solve(pulp.PULP_CBC_CMD(msg=False))
    return prob.status


@mip_solvers
@pytest.mark.parametrize(("path", "connectivity"), CASES, ids=lambda x: x if isinstance(x, str) else x.stem)
def test_project_puzzles_are_solved_to_their_stored_solution(mip_solver, path, connectivity):
    (puzzle,) = load(path)
    result = ilp_solve(puzzle, mip_solver=mip_solver, connectivity=connectivity)
    assert result.status is Status.SOLVED
    assert violations(puzzle, result.solution) == []
    assert result.solution == load_solution(puzzle, path.with_suffix(".solution.txt"))
    assert result.engine == f"ilp-{mip_solver}" and result.stats["mip_solver"] == mip_solver
    assert 0 < result.build_seconds < result.seconds


@mip_solvers
@methods
@pytest.mark.parametrize("path", project_puzzles(solvable=False), ids=lambda p: p.name)
def test_project_unsolvable_puzzles_are_proven_unsolvable(mip_solver, connectivity, path):
    result = ilp_solve(load(path)[0], mip_solver=mip_solver, connectivity=connectivity)
    assert result.status is Status.UNSOLVABLE and result.solution is None


@needs_zucker
@mip_solvers
@pytest.mark.parametrize("name", [*SMALL_ZUCKER, "extreme_8x8_01"])
def test_small_classic_boards_are_solved(mip_solver, name):
    (puzzle,) = load(ZUCKER / f"{name}.txt")
    result = ilp_solve(puzzle, mip_solver=mip_solver)
    assert result.status is Status.SOLVED
    assert violations(puzzle, result.solution) == []


@needs_zucker
@mip_solvers
def test_the_classic_unsolvable_cross_is_proven_unsolvable(mip_solver):
    assert ilp_solve(load(ZUCKER / "unsolvable_cross.txt")[0], mip_solver=mip_solver).status is Status.UNSOLVABLE


@mip_solvers
@methods
def test_a_board_solvable_only_by_self_touching_is_unsolvable(mip_solver, connectivity):
    result = ilp_solve(board(SELF_TOUCH_ONLY), mip_solver=mip_solver, connectivity=connectivity)
    assert result.status is Status.UNSOLVABLE


def test_without_the_self_touch_rule_the_same_board_has_a_touching_answer():
    puzzle = board(SELF_TOUCH_ONLY)
    prob = pulp.LpProblem("touch", pulp.LpMinimize)
    v = ilp.IlpVars(prob, puzzle, ilp.domains(puzzle))
    ilp.add_one_colour_per_cell(prob, v)
    ilp.add_degrees(prob, v)
    ilp.add_flow(prob, v)
    assert solve_model(prob) == pulp.LpStatusOptimal
    assert any("touches itself" in line for line in violations(puzzle, v.extract(ilp._value)))


def test_without_connectivity_a_board_has_only_answers_with_a_loop():
    puzzle = board(LOOP_ONLY)
    prob, v = ilp.build(puzzle, "lazy")  # degrees, one colour per cell, no self-touch; no loop cuts yet
    assert solve_model(prob) == pulp.LpStatusOptimal
    ring = {(r, c) for r in range(3) for c in range(4)} - {(1, 1), (1, 2)}
    assert v.loops(ilp._value) == [frozenset(ring)]


@mip_solvers
@methods
def test_a_board_whose_only_answers_have_a_loop_is_unsolvable(mip_solver, connectivity):
    result = ilp_solve(board(LOOP_ONLY), mip_solver=mip_solver, connectivity=connectivity)
    assert result.status is Status.UNSOLVABLE
    if connectivity == "lazy":  # the first answer had the loop; a cut and a second round proved none is left
        assert result.stats["rounds"] >= 2 and result.stats["cuts"] >= 1


@mip_solvers
def test_a_colour_walled_in_by_others_is_unsolvable_without_calling_the_solver(mip_solver):
    result = ilp_solve(board("RG.\nGBB\n..R"), mip_solver=mip_solver)
    assert result.status is Status.UNSOLVABLE
    assert result.stats["rounds"] == 0 and "cannot reach" in result.stats["reason"]


@mip_solvers
@methods
def test_exclude_finds_the_other_solution_then_none(mip_solver, connectivity):
    puzzle = board(TWO_SOLUTIONS)
    first = ilp_solve(puzzle, mip_solver=mip_solver, connectivity=connectivity)
    second = ilp_solve(puzzle, mip_solver=mip_solver, connectivity=connectivity, exclude=[first.solution])
    assert first.status is second.status is Status.SOLVED
    assert first.solution != second.solution
    both = [first.solution, second.solution]
    assert ilp_solve(puzzle, mip_solver=mip_solver, connectivity=connectivity, exclude=both).status is Status.UNSOLVABLE


def test_an_exported_mps_file_solves_to_the_engines_solution(tmp_path):
    (puzzle,) = load(project_puzzles()[0])
    ilp.export(puzzle, tmp_path / "model.mps")
    variables, prob = pulp.LpProblem.fromMPS(str(tmp_path / "model.mps"))
    assert solve_model(prob) == pulp.LpStatusOptimal
    solution = ilp.read_solution(puzzle, {name: var.varValue for name, var in variables.items()})
    assert violations(puzzle, solution) == []
    assert solution == ilp_solve(puzzle).solution


def test_an_exported_model_of_an_unsolvable_board_is_infeasible(tmp_path):
    ilp.export(board("RG.\nGBB\n..R"), tmp_path / "model.mps")
    _, prob = pulp.LpProblem.fromMPS(str(tmp_path / "model.mps"))
    assert solve_model(prob) == pulp.LpStatusInfeasible


def test_an_exported_lp_file_has_the_sections_and_readable_names(tmp_path):
    puzzle = board("""
        4 3
        # . . 12
        . . . .
        # . . 12
    """)
    ilp.export(puzzle, tmp_path / "model.lp")
    text = (tmp_path / "model.lp").read_text()
    for section in ("Minimize", "Subject To", "Binaries", "End"):
        assert section in text
    assert "x_0_1_1" in text and "edge_1_0_2_0_3" in text and "flow_" in text
    assert "#" not in text


def test_export_refuses_another_suffix(tmp_path):
    from cpflow.engines import pipeline

    with pytest.raises(CpflowError, match=r"engine ilp-cbc writes \.lp, \.mps files$"):
        pipeline.export(board(TWO_SOLUTIONS), tmp_path / "model.txt", "ilp-cbc")
    assert not (tmp_path / "model.txt").exists()


@mip_solvers
def test_a_time_limit_of_zero_gives_unknown_without_calling_the_solver(mip_solver):
    result = ilp_solve(load(project_puzzles()[-1])[0], mip_solver=mip_solver, time_limit=0.0)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert result.stats.get("rounds", 0) == 0


@needs_zucker
def test_cbc_stopped_by_the_time_limit_reports_unknown():
    (puzzle,) = load(ZUCKER / "jumbo_14x14_21.txt")  # CBC needs 20 to 90 s (models/ilp.md)
    result = ilp_solve(puzzle, mip_solver="cbc", time_limit=1.0)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert result.stats["rounds"] == 1 and result.seconds < 6


@pytest.mark.skipif(not LARGE.is_dir(), reason="../shared/puzzles/large is absent")
@mip_solvers
def test_the_time_limit_holds_on_the_slowest_large_board(mip_solver):
    """Building takes about a second: CBC used to be left to its own limit (6 s more, its root node), and
    PuLP took 2 s to hand the model to HiGHS."""
    (puzzle,) = load(LARGE / "adc2015_20x36_Q34.txt")
    began = time.perf_counter()
    result = ilp_solve(puzzle, mip_solver=mip_solver, time_limit=1.5)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert time.perf_counter() - began < 1.5 + 1.0


def test_the_model_file_for_cbc_is_the_one_pulp_writes(tmp_path):
    (puzzle,) = load(project_puzzles()[-1])
    prob, _ = ilp.build(puzzle, "flow")
    prob.fixObjective()  # as prob.solve does before it hands the model over
    prob.writeMPS(str(tmp_path / "pulp.mps"), rename=True)
    variables, columns, rows = mip.write_mps(prob, tmp_path / "ours.mps", Deadline())
    assert (tmp_path / "ours.mps").read_text() == (tmp_path / "pulp.mps").read_text()
    assert (variables, columns, rows) == (prob._variables, *reversed(prob.normalisedNames()[:2]))


def test_writing_the_model_file_stops_at_the_deadline(tmp_path):
    prob, _ = ilp.build(load(project_puzzles()[-1])[0])
    with pytest.raises(OutOfTime):
        mip.write_mps(prob, tmp_path / "late.mps", Deadline(0.0))


@pytest.mark.skipif("highs" not in ilp.available_mip_solvers(), reason="highs absent")
def test_the_model_handed_to_highs_is_the_one_pulp_hands_it(tmp_path):
    import highspy

    prob, _ = ilp.build(load(project_puzzles()[-1])[0], "flow")
    prob.fixObjective()
    theirs, ours = highspy.Highs(), highspy.Highs()  # filled, never run: the HiGHS here never starts its threads
    prob.solverModel = theirs
    pulp.HiGHS(msg=False).buildSolverModel(prob)
    ours.passModel(mip.highs_model(prob, mip.columns(prob, Deadline()), Deadline()))
    for name, highs in (("theirs", theirs), ("ours", ours)):
        highs.writeModel(str(tmp_path / f"{name}.mps"))
    assert (tmp_path / "ours.mps").read_text() == (tmp_path / "theirs.mps").read_text()


@pytest.mark.skipif("highs" not in ilp.available_mip_solvers(), reason="highs absent")
def test_a_solver_child_that_fails_is_an_error_here():
    with pytest.raises(CpflowError, match="child process failed: TypeError"):
        children.fork(lambda: mip._run_highs(None, {}), Deadline())


@pytest.mark.parametrize(
    ("native", "timed", "expected"),
    [
        ((pulp.LpStatusOptimal, pulp.LpSolutionOptimal), False, Status.SOLVED),
        ((pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible), True, Status.SOLVED),
        ((pulp.LpStatusInfeasible, pulp.LpSolutionInfeasible), False, Status.UNSOLVABLE),
        ((pulp.LpStatusInfeasible, pulp.LpSolutionNoSolutionFound), False, Status.UNSOLVABLE),
        ((pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound), True, Status.UNKNOWN),
    ],
)
def test_native_statuses_map_onto_ours(native, timed, expected):
    prob = pulp.LpProblem()
    prob.status, prob.sol_status = native
    assert ilp.status_of(prob, timed) is expected


@pytest.mark.parametrize(
    "native",
    [
        (pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound),  # stopped, yet no time limit was set
        (pulp.LpStatusUndefined, pulp.LpSolutionNoSolutionFound),
        (pulp.LpStatusUnbounded, pulp.LpSolutionUnbounded),
    ],
)
def test_unexpected_native_statuses_raise(native):
    prob = pulp.LpProblem()
    prob.status, prob.sol_status = native
    with pytest.raises(CpflowError, match="the MIP solver returned"):
        ilp.status_of(prob, timed=False)


@mip_solvers
def test_an_unbounded_model_is_an_error_not_a_status(mip_solver):
    prob = pulp.LpProblem("unbounded", pulp.LpMaximize)
    x = prob.add_variable("x", lowBound=0)
    prob += x
    prob += x >= 1
    prob.solve(mip.solver(mip_solver, Deadline(), None, {}))
    with pytest.raises(CpflowError, match="Unbounded"):
        ilp.status_of(prob, timed=False)


@mip_solvers
def test_workers_set_the_solver_threads(mip_solver):
    (puzzle,) = load(project_puzzles()[0])
    for workers in (1, 2, 1):  # in one process HiGHS would refuse a new thread count; each child is new
        assert ilp_solve(puzzle, mip_solver=mip_solver, workers=workers).status is Status.SOLVED


def test_an_unknown_mip_solver_is_refused():
    with pytest.raises(EngineUnavailable, match="'gurobi' is not available"):
        ilp_solve(board(TWO_SOLUTIONS), mip_solver="gurobi")


def test_an_unknown_connectivity_is_refused():
    with pytest.raises(CpflowError, match="unknown connectivity 'nope'"):
        ilp_solve(board(TWO_SOLUTIONS), connectivity="nope")


@mip_solvers
def test_two_loops_with_the_same_first_node_and_length_get_cuts_of_their_own(mip_solver):
    # Found by bench/fuzz.py: loop cuts were named by first node and length, and two such
    # loops in one answer stopped PuLP with "overlapping constraint names".
    from dataclasses import replace

    from cpflow.board.formats import parse
    from cpflow.board.grid import Rules
    from cpflow.engines import pipeline

    (puzzle,) = parse("board 3x4\n..R\n...\n...\n..R\nwarps 0,0|3,0 0,1|3,1\n", "warps.txt")
    puzzle = replace(puzzle, rules=Rules(touch=True))
    expected, exact = pipeline.count(puzzle, 100, "cpsat")
    found, status = pipeline.count(puzzle, 100, f"ilp-{mip_solver}")
    assert exact is Status.SOLVED and status is Status.SOLVED
    assert {frozenset(s.paths.items()) for s in found} == {frozenset(s.paths.items()) for s in expected}

"""The front end: forced moves hold in every solution, the search finds exactly the solutions,
and the model takes over from what was settled."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from brute import brute_solutions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards

from conftest import PUZZLES, board, project_puzzles
from cpflow.board.formats import load, parse_solution
from cpflow.board.grid import Rules, differ
from cpflow.board.verify import violations
from cpflow.deduce.rules import IN, NONE, Contradiction, Exhausted, Graph, dead_turns
from cpflow.deduce.search import solutions
from cpflow.deduce.settle import settle
from cpflow.engines import base, catalog, front, pipeline
from cpflow.results import Status

TINY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def colouring(solution) -> frozenset:
    return frozenset(solution.colour_of().items())


def steps(solution) -> set:
    return {frozenset(pair) for path in solution.paths.values() for pair in zip(path, path[1:], strict=False)}


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans())
def test_what_settles_holds_in_every_solution(puzzle, touch):
    puzzle = replace(puzzle, rules=Rules(touch=touch))  # paths may touch themselves: the rules that still hold
    known = list(brute_solutions(puzzle))
    g = Graph(puzzle)
    root = g.start()
    try:
        settle(root)
    except Contradiction:
        assert known == []
        return
    for solution in known:
        on, colour = steps(solution), solution.colour_of()
        for edge, (i, j) in enumerate(g.ends):
            if root.state[edge]:
                assert (root.state[edge] == IN) == (frozenset((g.nodes[i], g.nodes[j])) in on)
        for i, node in enumerate(g.nodes):
            c = g.colours.index(colour[node])
            assert root.colour[i] in (NONE, c)
            assert not root.banned[i] >> c & 1
        for name, nodes in root.decided()[1].items():
            assert {node for node in g.nodes if colour[node] == name} <= nodes


@TINY
@given(puzzle=tiny_boards(), touch=st.booleans())
def test_the_search_finds_each_solution_once(puzzle, touch):
    puzzle = replace(puzzle, rules=Rules(touch=touch))
    key = (lambda s: frozenset(steps(s))) if touch else colouring  # under touch, paths can differ in one colouring
    expected = {key(s) for s in brute_solutions(puzzle)}
    try:
        found = list(solutions(puzzle, budget=10**6))
    except Contradiction:
        found = []
    assert all(violations(puzzle, s) == [] for s in found)
    assert len(found) == len({key(s) for s in found})
    assert {key(s) for s in found} == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_boards())
def test_the_model_counts_from_the_settled_start_as_brute_force_does(puzzle):
    expected = {colouring(s) for s in brute_solutions(puzzle)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(front, "budget", lambda puzzle: 0)  # no search: what the start does not settle goes to CP-SAT
        found, status = pipeline.count(puzzle, 50, "cpsat")
        solved = pipeline.solve(puzzle, "cpsat")
    assert status is Status.SOLVED
    assert {colouring(s) for s in found} == expected
    assert solved.status is (Status.SOLVED if expected else Status.UNSOLVABLE)


@pytest.mark.parametrize("path", project_puzzles(), ids=lambda p: p.name)
def test_what_settles_on_the_project_puzzles_agrees_with_their_solutions(path):
    (puzzle,) = load(path)
    stored = parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())
    root = Graph(puzzle).start()
    settle(root)
    edges, domains = root.decided()
    assert all((frozenset(pair) in steps(stored)) == on for pair, on in edges.items())
    assert all(node in domains[colour] for node, colour in stored.colour_of().items())


def test_a_board_that_needs_branches_is_handed_over_settled_in_part():
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")
    with pytest.raises(Exhausted) as out:
        next(solutions(puzzle, budget=0))
    edges, _ = out.value.root.decided()
    assert 0 < sum(edges.values()) < len(puzzle.nodes)  # some steps are fixed, not all


def test_forced_moves_alone_solve_an_easy_board_and_prove_it_unique():
    (puzzle,) = load(PUZZLES / "starter_9x9.txt")
    root = Graph(puzzle).start()
    settle(root)
    assert root.is_complete()
    assert violations(puzzle, root.solution()) == []
    assert len(list(solutions(puzzle, budget=0))) == 1


def test_a_contradiction_at_the_start_is_unsolvable_with_the_reason():
    (puzzle,) = load(PUZZLES / "unsolvable_6x6.txt")
    result = pipeline.solve(puzzle, "cpsat")
    assert result.status is Status.UNSOLVABLE
    assert result.stats == {"by": "forced moves", "reason": "forced moves leave no way on"}


def test_an_excluded_solution_is_skipped_and_then_none_is_left():
    (puzzle,) = load(PUZZLES / "starter_7x7.txt")
    first = pipeline.solve(puzzle, "cpsat")
    assert first.stats["by"] == "forced moves"
    again = pipeline.solve(puzzle, "cpsat", exclude=[first.solution])
    assert again.status is Status.UNSOLVABLE


def test_a_board_the_front_end_answers_never_loads_ortools():
    code = (
        "import sys\n"
        "from cpflow.cli import app\n"
        "sys.argv = ['cpflow', 'solve', '--quiet', *sys.argv[1:]]\n"
        "try:\n    app()\n"
        "except SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'ortools', 'pandas', 'numpy'}))\n"
    )
    easy = subprocess.run(
        [sys.executable, "-c", code, str(PUZZLES / "starter_9x9.txt")], capture_output=True, text=True
    )
    assert easy.stdout.splitlines()[-1] == "[]"
    handed_over = subprocess.run(  # paths may touch themselves: no search, the model solves it (or runs out of time)
        [sys.executable, "-c", code, str(PUZZLES / "gen_30x30_01.txt"), "--allow-touch", "--time-limit", "5"],
        capture_output=True,
        text=True,
    )
    assert "ortools" in handed_over.stdout.splitlines()[-1]


@pytest.mark.parametrize("workers", [1, 3])
def test_workers_race_in_their_own_search_orders_to_the_one_solution(workers):
    path = PUZZLES / "gen_20x20_01.txt"
    (puzzle,) = load(path)
    stored = parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())
    result = pipeline.solve(puzzle, "cpsat", forced=False, workers=workers)  # CP-SAT, not the front end
    assert result.status is Status.SOLVED and "conflicts" in result.stats
    assert differ(result.solution, stored) == []


def test_warming_an_engine_loads_what_its_first_model_needs():
    code = (
        "import sys\n"
        "from cpflow.engines import catalog\n"
        "catalog.backend('cpsat')\n"
        "before = 'ortools' in sys.modules\n"
        "catalog.warm('cpsat')\n"
        "print(before, 'ortools.sat.python.cp_model' in sys.modules, 'cpflow.engines.label' in sys.modules)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert ran.stdout.split() == ["False", "True", "True"]


@TINY
@given(puzzle=tiny_boards())
def test_no_solution_takes_a_dead_turn(puzzle):
    dead = set(dead_turns(puzzle))
    for solution in brute_solutions(puzzle):
        for path in solution.paths.values():
            for a, p, b in zip(path, path[1:], path[2:], strict=False):
                assert (p, min(a, b), max(a, b)) not in dead


def test_a_turn_is_dead_when_its_diagonal_meets_the_edge_before_an_endpoint():
    open_diagonal = board("..AB\n...B\nA...\n....")
    assert ((0, 0), (0, 1), (1, 0)) in dead_turns(open_diagonal)
    endpoint_on_it = board("..AB\n...B\nA.C.\n..C.")
    assert ((0, 0), (0, 1), (1, 0)) not in dead_turns(endpoint_on_it)


INSTALLED = catalog.available()


@pytest.mark.parametrize("engine", INSTALLED)
def test_every_engine_that_declares_the_front_end_gets_it_and_can_go_without(engine):
    (puzzle,) = load(PUZZLES / "starter_9x9.txt")  # forced moves alone solve it
    fronted = pipeline.solve(puzzle, engine)
    assert fronted.stats.get("by") == ("forced moves" if catalog.entry_of(engine).front else None)
    alone = pipeline.solve(puzzle, engine, forced=False)
    assert alone.status is Status.SOLVED and "by" not in alone.stats
    assert differ(fronted.solution, alone.solution) == []


@pytest.mark.parametrize("engine", [name for name in INSTALLED if catalog.entry_of(name).front])
def test_every_engine_solves_from_the_front_ends_settled_start(engine):
    path = PUZZLES / "gen_14x14_01.txt"
    (puzzle,) = load(path)
    stored = parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())
    with pytest.raises(Exhausted) as out:
        next(solutions(puzzle, budget=0))  # settled in part, handed over
    entry = catalog.entry_of(engine)
    result = base.solve(entry.backend(), puzzle, name=engine, root=out.value.root, time_limit=120, **entry.options)
    assert result.status is Status.SOLVED and violations(puzzle, result.solution) == []
    assert differ(result.solution, stored) == []


@pytest.mark.parametrize("engine", [name for name in INSTALLED if catalog.entry_of(name).front])
def test_a_settled_start_that_leaves_no_way_on_is_unsolvable_for_every_engine(engine):
    puzzle = board("R.G\n...\nG.R")  # the two colours must cross
    assert pipeline.solve(puzzle, engine).status is Status.UNSOLVABLE
    assert pipeline.count(puzzle, 2, engine) == ([], Status.SOLVED)

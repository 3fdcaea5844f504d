"""The compiled search (cpflow/deduce/core.c) answers as the Python search does: the same
solutions in the same order after the same branches, resumed the same way; without it the
Python search does the work."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from brute import brute_solutions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards, tiny_puzzles_under_any_rules

from conftest import PUZZLES, ZUCKER, board, project_puzzles, variant_levels
from cpflow.board.formats import load
from cpflow.board.grid import Puzzle, Rules
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce import compiled, search
from cpflow.deduce.rulebook import RULES
from cpflow.deduce.rules import Contradiction, Exhausted, applies
from cpflow.deduce.search import Search
from cpflow.engines import pipeline
from cpflow.results import Status

if compiled._core is None and os.environ.get("CPFLOW_REQUIRE_CORE"):  # CI (.ci/run) must test the core
    pytest.fail("the compiled core was not built (no C compiler or no Python headers?)", pytrace=False)
built = pytest.mark.skipif(compiled._core is None, reason="the compiled core was not built (no C compiler)")
TINY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def run(kind, puzzle: Puzzle, budget: int = 10**6) -> tuple[str, list, int]:
    """What a search of `kind` finds: its outcome, its solutions' paths in order, its branches."""
    try:
        s = kind(puzzle)
    except Contradiction:
        return "refuted at the start", [], 0
    try:
        found = [dict(solution.paths) for solution in s.solutions(budget)]
    except Exhausted:
        return "out of branches", [], s.branches
    return "done", found, s.branches


def boards_of(paths) -> list[Puzzle]:
    return [puzzle for path in paths for puzzle in load(path)]


@built
@TINY
@given(puzzle=tiny_puzzles_under_any_rules())
def test_the_core_finds_what_the_python_search_finds_after_the_same_branches(puzzle):
    if not applies(puzzle):  # paths may touch themselves, or nodes stay blank
        assert not compiled.takes(puzzle)
        return
    python, core = run(Search, puzzle), run(compiled.CompiledSearch, puzzle)
    assert core == python
    assert [violations(puzzle, s) for s in compiled_solutions(puzzle)] == [[] for _ in python[1]]


def compiled_solutions(puzzle: Puzzle) -> list:
    try:
        return list(compiled.CompiledSearch(puzzle).solutions(10**6))
    except Contradiction:
        return []


@built
@TINY
@given(puzzle=tiny_boards())
def test_the_core_finds_each_solution_once_as_brute_force_does(puzzle):
    found = compiled_solutions(puzzle)
    expected = sorted(sorted(s.colour_of().items()) for s in brute_solutions(puzzle))
    assert sorted(sorted(s.colour_of().items()) for s in found) == expected


@built
@pytest.mark.parametrize(
    "paths",
    [
        pytest.param(project_puzzles() + project_puzzles(solvable=False), id="project"),
        pytest.param(sorted(ZUCKER.glob("*.txt")) if ZUCKER.is_dir() else [], id="zucker"),
        pytest.param(variant_levels(), id="variants"),
    ],
)
def test_the_core_agrees_with_the_python_search_on_whole_sets(paths):
    if not paths:
        pytest.skip("../shared/puzzles is absent")
    puzzles = [p for p in boards_of(paths) if compiled.takes(p)]
    assert puzzles
    for puzzle in puzzles:
        assert run(compiled.CompiledSearch, puzzle, 20_000) == run(Search, puzzle, 20_000), puzzle.name


@built
@TINY
@given(puzzle=tiny_boards(), piece=st.integers(1, 3))
def test_the_core_resumed_piece_by_piece_finds_what_it_finds_at_once(puzzle, piece):
    whole = run(compiled.CompiledSearch, puzzle)
    if whole[0] != "done":
        return
    s, found = compiled.CompiledSearch(puzzle), []
    while True:
        try:
            found += [dict(solution.paths) for solution in s.solutions(piece)]
            break
        except Exhausted as out:
            assert out.root.g.puzzle is puzzle  # what a model would start from
    assert (found, s.branches) == whole[1:]


@built
def test_the_core_stopped_by_its_deadline_goes_on_to_the_same_solution():
    (puzzle,) = load(PUZZLES / "gen_30x30_01.txt")
    whole = next(compiled.CompiledSearch(puzzle).solutions(10**6))
    s, stops = compiled.CompiledSearch(puzzle), 0
    while True:
        try:
            found = next(s.solutions(10**6, Deadline(0.0001)))
            break
        except OutOfTime:
            stops += 1
    assert stops > 0 and found == whole


@built
def test_solve_uses_the_core_and_every_answer_is_verified():
    (puzzle,) = load(PUZZLES / "gen_30x30_01.txt")
    assert isinstance(search.start(puzzle), compiled.CompiledSearch)
    result = pipeline.solve(puzzle)
    assert result.status is Status.SOLVED and violations(puzzle, result.solution) == []


@built
def test_a_start_the_core_refutes_is_unsolvable():
    puzzle = board(
        """
        AB
        BA
        """
    )
    with pytest.raises(Contradiction):
        compiled.CompiledSearch(puzzle)
    assert pipeline.solve(puzzle).status is Status.UNSOLVABLE


def test_without_the_core_the_python_search_gives_the_same_answers(monkeypatch):
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")
    fast = pipeline.solve(puzzle)
    monkeypatch.setattr(compiled, "_core", None)
    assert isinstance(search.start(puzzle), Search)
    slow = pipeline.solve(puzzle)
    assert slow.status is fast.status is Status.SOLVED and slow.solution == fast.solution


def test_the_core_leaves_to_python_what_it_does_not_take():
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")
    for rules in (Rules(touch=True), Rules(blanks=True)):
        assert not compiled.takes(replace(puzzle, rules=rules))
        assert isinstance(search.start(replace(puzzle, rules=rules)), Search)


@built
def test_settling_the_start_in_c_stops_at_the_deadline():
    (puzzle,) = load(PUZZLES / "scaling" / "dense_100x100_01.txt")  # 909 colours: the reach rule floods each
    with pytest.raises(OutOfTime):
        compiled.CompiledSearch(puzzle, Deadline(0.001))


def hub(leaves: int) -> Puzzle:
    """A node beside `leaves` others, which lie in a row: A from the hub to the row's far end
    (made in code: a file may give a node MAX_NEIGHBOURS at most, what the core takes)."""
    row = [(1, i) for i in range(leaves)]
    neighbours = {(0, 0): tuple(row)}
    for i, leaf in enumerate(row):
        neighbours[leaf] = ((0, 0), *(row[j] for j in (i - 1, i + 1) if 0 <= j < leaves))
    return Puzzle(leaves, 2, {"A": ((0, 0), row[-1])}, neighbours, name="hub")


@built
@pytest.mark.parametrize("leaves", [70, 300])
def test_a_node_of_many_neighbours_is_searched_as_in_python(leaves):
    puzzle = hub(leaves)
    assert compiled.takes(puzzle) is (leaves <= compiled.NEIGHBOURS)
    assert run(search.start, puzzle) == run(Search, puzzle)
    assert pipeline.solve(puzzle).status is pipeline.solve(puzzle, forced=False).status


@built
def test_a_passed_deadline_stops_both_searches_alike():
    easy = board(
        """
        A.A
        B.B
        """
    )  # forced moves solve it: no branch, so no look at the deadline
    (hard,) = load(PUZZLES / "gen_20x20_09.txt")
    for puzzle in (easy, hard):
        outcomes = []
        for kind in (Search, compiled.CompiledSearch):
            try:
                outcomes.append(len(list(kind(puzzle).solutions(10**6, Deadline(0.0)))))
            except OutOfTime:
                outcomes.append("out of time")
        assert outcomes[0] == outcomes[1], puzzle.name


@built
def test_the_core_numbers_its_rules_as_the_rule_book_does():
    assert compiled._core.rules() == tuple(rule.name for rule in RULES)


@built
@pytest.mark.parametrize(
    ("rows", "rule"),
    [
        ("AA.", "degree"),  # r1c3 has one way out
        (".A.\n..A", "touch"),  # A's endpoints side by side, with more cells to cover
        ("....\n..A.\n.A..\n....", "loop"),
        ("AB.\nC.B\nCA.", "colour"),
        ("BCC.\nB.A.\n..A.", "corner"),
    ],
)
def test_a_start_the_core_refutes_is_named_by_the_rule_that_found_no_way(rows, rule):
    """The core names the rule by its number in the rule book (the first to find no way on: on
    other boards the core's queue, which keeps a node once, may meet another rule first)."""
    puzzle = board(rows)
    with pytest.raises(Contradiction) as python:
        Search(puzzle)
    with pytest.raises(Contradiction) as core:
        compiled.CompiledSearch(puzzle)
    assert core.value.rule == python.value.rule == rule

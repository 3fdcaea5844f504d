"""The search goes on where it stopped, and races an engine: the first answer wins, the other stops."""

from __future__ import annotations

import sys
import time
import types
from dataclasses import replace

import pytest
from brute import brute_solutions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import tiny_boards

from conftest import PUZZLES
from cpflow.board.formats import load, parse_solution
from cpflow.board.grid import Rules, Solution, differ
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce import compiled
from cpflow.deduce.rules import Contradiction, Exhausted
from cpflow.deduce.search import Search
from cpflow.engines import catalog, front, pipeline
from cpflow.engines.base import Answer
from cpflow.engines.race import spend
from cpflow.errors import InvalidSolution
from cpflow.results import Status

TINY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def colouring(solution) -> frozenset:
    return frozenset(solution.colour_of().items())


@TINY
@given(puzzle=tiny_boards(), piece=st.integers(1, 3))
def test_a_search_resumed_piece_by_piece_finds_each_solution_once(puzzle, piece):
    try:
        search = Search(puzzle)
    except Contradiction:
        assert list(brute_solutions(puzzle)) == []
        return
    found = []
    while True:
        try:
            for solution in search.solutions(piece):
                found.append(solution)
            break
        except Exhausted:
            continue  # the next call goes on from there
    assert sorted(map(colouring, found), key=sorted) == sorted(map(colouring, brute_solutions(puzzle)), key=sorted)


def test_a_search_stopped_by_its_deadline_goes_on_to_the_same_solution():
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")
    whole = next(Search(puzzle).solutions(10**6))
    search, pieces = Search(puzzle), 0
    while True:
        pieces += 1
        try:
            found = next(search.solutions(10**6, Deadline(0.0005)))
            break
        except OutOfTime:
            continue
    assert pieces > 1 and differ(found, whole) == []


def fake_engine(monkeypatch, search) -> str:
    """An engine that races, whose model is the puzzle and whose `search` is the one given, catalogued as `fake`."""
    module = types.ModuleType("fake_engine")
    module.available = lambda **_: True
    module.build = lambda puzzle, deadline, root=None: puzzle
    module.search = search
    monkeypatch.setitem(sys.modules, "fake_engine", module)
    entry = replace(catalog.ENGINES["cpsat"], name="fake", module="fake_engine", options={}, by_rules={})
    monkeypatch.setitem(catalog.ENGINES, "fake", entry)
    monkeypatch.setattr(front, "budget", lambda puzzle: 0)  # no branch before the engine: the search is all raced
    return "fake"


def waiting_engine(called_off: list):
    """A search that waits, as CP-SAT's does, giving its waits to the search, until its deadline is called off."""

    def search(puzzle, deadline, **options) -> Answer:
        while deadline.left() != 0:
            if not spend(0.01):
                time.sleep(0.01)
        called_off.append(deadline.stop is not None and deadline.stop.is_set())
        return Answer(Status.UNKNOWN)

    return search


def test_the_search_beside_a_waiting_engine_answers_and_calls_the_engine_off(monkeypatch):
    path = PUZZLES / "gen_14x14_01.txt"
    (puzzle,) = load(path)
    called_off: list[bool] = []
    result = pipeline.solve(puzzle, fake_engine(monkeypatch, waiting_engine(called_off)))
    assert result.status is Status.SOLVED and result.stats["by"] == "search beside the engine"
    assert differ(result.solution, parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())) == []
    assert called_off == [True]


def test_an_engine_that_answers_first_stops_the_search(monkeypatch):
    path = PUZZLES / "gen_14x14_01.txt"
    (puzzle,) = load(path)
    stored = parse_solution(puzzle, path.with_suffix(".solution.txt").read_text())

    def at_once(puzzle, deadline, **options) -> Answer:
        return Answer(Status.SOLVED, stored, {"by": "the engine"})

    result = pipeline.solve(puzzle, fake_engine(monkeypatch, at_once))
    assert result.stats["by"] == "the engine" and differ(result.solution, stored) == []


def test_an_invalid_answer_of_a_racing_engine_is_refused(monkeypatch):
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")

    def nonsense(puzzle, deadline, **options) -> Answer:
        ends = Solution({colour: puzzle.endpoints[colour] for colour in puzzle.colours})  # nothing between
        return Answer(Status.SOLVED, ends)

    with pytest.raises(InvalidSolution):
        pipeline.solve(puzzle, fake_engine(monkeypatch, nonsense))


def test_the_time_limit_holds_for_the_search_and_the_engine_together(monkeypatch):
    (puzzle,) = load(PUZZLES / "gen_30x30_01.txt")
    began = time.perf_counter()
    result = pipeline.solve(puzzle, fake_engine(monkeypatch, waiting_engine([])), time_limit=0.3)
    assert time.perf_counter() - began < 5
    assert result.status in (Status.UNKNOWN, Status.SOLVED)
    if result.solution is not None:
        assert violations(puzzle, result.solution) == []


def test_boards_whose_paths_may_touch_themselves_get_the_circuit_model():
    (puzzle,) = load(PUZZLES / "starter_7x7.txt")
    entry = catalog.ENGINES["cpsat"]
    assert entry.options_for(puzzle) == {"model": "label"}
    assert entry.options_for(replace(puzzle, rules=Rules(touch=True))) == {"model": "circuit"}
    assert entry.options_for(replace(puzzle, rules=Rules(blanks=True))) == {"model": "label"}


@pytest.mark.skipif(compiled._core is None, reason="the compiled core was not built (no C compiler)")
def test_the_compiled_search_answers_beside_an_engine_still_busy_in_python(monkeypatch):
    (puzzle,) = load(PUZZLES / "gen_14x14_01.txt")
    called_off: list[bool] = []

    def building(puzzle, deadline, **options) -> Answer:
        while deadline.left() != 0:  # the interpreter busy, no wait given to the search
            sum(range(1000))
        called_off.append(deadline.stop is not None and deadline.stop.is_set())
        return Answer(Status.UNKNOWN)

    began = time.perf_counter()
    result = pipeline.solve(puzzle, fake_engine(monkeypatch, building), time_limit=30)
    assert result.status is Status.SOLVED and result.stats["by"] == "search beside the engine"
    assert called_off == [True] and time.perf_counter() - began < 30
    assert violations(puzzle, result.solution) == []

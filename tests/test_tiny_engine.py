"""Adding an engine is one module and one catalog entry: a tiny engine (tests/tiny_engine.py),
catalogued for a test without editing cpflow, solves, is counted and verified by the pipeline."""

from __future__ import annotations

import pytest
import tiny_engine
from brute import brute_count
from test_catalog import mismatches

from conftest import PUZZLES, board
from cpflow.board.formats import load, load_solution
from cpflow.board.grid import Solution
from cpflow.engines import catalog, pipeline
from cpflow.engines.base import Answer
from cpflow.errors import EngineUnsupported, InvalidSolution
from cpflow.results import Status

PUZZLE = PUZZLES / "gen_5x5_01.txt"
TWO_SOLUTIONS = """
    B..G
    .GB.
    .RR.
    ....
"""


@pytest.fixture
def tiny():
    """The tiny engine's name, while the catalog holds its entry."""
    with catalog.added(tiny_engine.ENTRY) as entry:
        yield entry.name
    assert "tiny" not in catalog.ENGINES


def test_the_tiny_engine_is_catalogued_and_meets_the_protocol(tiny):
    assert tiny in catalog.available()
    assert mismatches(catalog.entry_of(tiny), catalog.backend(tiny)) == []


def test_the_tiny_engine_solves_a_project_puzzle_through_the_pipeline(tiny):
    (puzzle,) = load(PUZZLE)
    result = pipeline.solve(puzzle, tiny)
    assert result.status is Status.SOLVED and result.engine == tiny
    assert result.stats["by"] == "brute force"  # its own search, not the front end's (the entry declares none)
    assert result.solution == load_solution(puzzle, PUZZLE.with_suffix(".solution.txt"))


def test_the_pipeline_counts_an_engine_without_count_by_exclusion(tiny):
    puzzle = board(TWO_SOLUTIONS)
    found, status = pipeline.count(puzzle, 10, tiny)
    assert status is Status.SOLVED and len(found) == brute_count(puzzle) == 2
    assert pipeline.count(puzzle, 1, tiny) == (found[:1], Status.UNKNOWN)


def test_a_wrong_answer_of_the_tiny_engine_is_caught_as_an_invalid_solution(tiny, monkeypatch):
    (puzzle,) = load(PUZZLE)
    ends = Solution({colour: puzzle.endpoints[colour] for colour in puzzle.colours})  # nothing between them
    monkeypatch.setattr(tiny_engine, "search", lambda model, deadline, **options: Answer(Status.SOLVED, ends))
    with pytest.raises(InvalidSolution):
        pipeline.solve(puzzle, tiny)


def test_what_the_tiny_engine_does_not_declare_is_refused(tiny):
    with pytest.raises(EngineUnsupported, match="does not support holes"):
        pipeline.solve(board("board 3x3\nR.R\nB#.\nB.."), tiny)
    with pytest.raises(EngineUnsupported, match="one worker"):
        pipeline.solve(load(PUZZLE)[0], tiny, workers=2)


def test_the_time_limit_of_the_tiny_engine_is_the_base_s(tiny):
    (puzzle,) = load(PUZZLE)
    result = pipeline.solve(puzzle, tiny, time_limit=0)
    assert result.status is Status.UNKNOWN and result.stats == {"stopped": "building"}
    assert pipeline.solve(puzzle, tiny, time_limit=60).status is Status.SOLVED

"""The search engine (issue 41: the engine the browser runs): the front end's search to its end, in C
and in Python, gives the CLI's verdicts, never a wrong one, imports no solver library, and stops at
its time limit and at its room."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest
from brute import brute_count

from conftest import PUZZLES, board, project_puzzles
from cpflow.board.formats import load
from cpflow.board.grid import Rules
from cpflow.board.verify import violations
from cpflow.clock import NEVER
from cpflow.deduce import compiled
from cpflow.engines import catalog, complete, pipeline
from cpflow.errors import EngineUnsupported
from cpflow.results import Status
from cpflow.workflows.unique import Verdict, count, uniqueness

SEARCHES = ["search", "search-python"]  # the C core when built, and Python alone (as in the browser)
ALL = project_puzzles() + project_puzzles(solvable=False)
LIMIT = 20  # seconds a puzzle may take; a board not finished by then must answer unknown
HARD = PUZZLES / "scaling" / "sparse_60x60_01.txt"  # neither search finishes it in 20 s
needs_cpsat = pytest.mark.skipif("cpsat" not in catalog.available(), reason="OR-Tools is not installed")
needs_core = pytest.mark.skipif(compiled._core is None, reason="the compiled core was not built (no C compiler)")
ids = pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)


@pytest.fixture(scope="module")
def cli():
    """The CLI's verdicts (the default engine, CP-SAT after its front end) on every puzzle, by file."""
    found = {}
    for path in ALL:
        (puzzle,) = load(path)
        counted = count(puzzle, 1000, "cpsat")
        found[path] = (pipeline.solve(puzzle, "cpsat").status, uniqueness(puzzle, "cpsat").verdict, counted)
    return found


@needs_cpsat
@pytest.mark.parametrize("engine", SEARCHES)
@ids
def test_every_puzzle_gets_the_clis_verdicts_or_unknown_within_the_limit(cli, engine, path):
    (puzzle,) = load(path)
    status, verdict, counted = cli[path]
    solved = pipeline.solve(puzzle, engine, time_limit=LIMIT)  # verified by the pipeline
    assert solved.status in (status, Status.UNKNOWN)
    unique = uniqueness(puzzle, engine, time_limit=LIMIT)
    assert unique.verdict in (verdict, Verdict.UNKNOWN)
    number = count(puzzle, 1000, engine, time_limit=LIMIT)
    assert (number.number, number.exact) == (counted.number, counted.exact) or not number.exact
    # The one timing here, which issue 41 asks for ("the CLI's verdicts on every puzzle in puzzles/"):
    # each is finished within the limit (in Python the worst in about 1 s, docs/figures/search.md): none unknown.
    assert (solved.status, unique.verdict, number.exact) == (status, verdict, True)


@needs_core
@ids
def test_python_and_c_find_the_same_solutions_in_the_same_order(path):
    (puzzle,) = load(path)
    found = {}
    for in_c in (True, False):
        model = complete.build(puzzle, NEVER, in_c=in_c)
        found[in_c] = complete.count(model, 10, NEVER)
        assert model.search is None or model.search.in_thread == in_c
    assert found[True] == found[False]


def test_an_unsolvable_start_is_proven_so_and_counted_as_none():
    puzzle = board("R.G\n...\nG.R")  # the two colours must cross
    for engine in SEARCHES:
        assert pipeline.solve(puzzle, engine).status is Status.UNSOLVABLE
        assert pipeline.count(puzzle, 2, engine) == ([], Status.SOLVED)


@pytest.mark.parametrize("engine", SEARCHES)
def test_paths_that_touch_themselves_are_counted_as_brute_force_counts(engine):
    boards = ["R..\n...\n..R", "R.B\n...\nR.B", "R...\n....\n...R", "RB.\n...\n.BR", "R..B\n....\nR..B"]
    for text in boards:
        puzzle = replace(board(text), rules=Rules(touch=True))
        found, status = pipeline.count(puzzle, 1000, engine)
        assert status is Status.SOLVED and len(found) == brute_count(puzzle), text


@pytest.mark.parametrize("engine", SEARCHES)
def test_a_solution_that_colours_every_cell_alike_but_takes_other_steps_is_not_excluded(engine):
    puzzle = replace(board("R..\n...\n..R"), rules=Rules(touch=True))  # one colour, two ways round
    first = pipeline.solve(puzzle, engine)
    second = pipeline.solve(puzzle, engine, exclude=[first.solution])
    assert second.status is Status.SOLVED and second.solution != first.solution
    assert pipeline.solve(puzzle, engine, exclude=[first.solution, second.solution]).status is Status.UNSOLVABLE
    assert uniqueness(puzzle, engine).verdict is Verdict.NOT_UNIQUE


def test_blanks_are_refused_in_one_line():
    puzzle = replace(board("R.R\nB.B"), rules=Rules(blanks=True))
    for engine in SEARCHES:
        with pytest.raises(EngineUnsupported, match=f"engine {engine} does not support --allow-blanks"):
            pipeline.solve(puzzle, engine)


@pytest.mark.parametrize("engine", SEARCHES)
def test_a_board_it_cannot_finish_answers_unknown_at_the_time_limit(engine):
    (puzzle,) = load(HARD)
    result = pipeline.solve(puzzle, engine, time_limit=0.5)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert result.stats["stopped"] in ("building", "searching")  # settling its start, or after
    found, status = pipeline.count(puzzle, 2, engine, time_limit=0.5)
    assert status is Status.UNKNOWN


@pytest.mark.parametrize("engine", SEARCHES)
def test_a_stack_over_its_room_stops_with_unknown(engine, monkeypatch):
    monkeypatch.setattr(complete, "ROOM", 1)  # bytes: any stack holds more
    monkeypatch.setattr(complete, "PIECE", 0.05)
    (puzzle,) = load(HARD)
    result = pipeline.solve(puzzle, engine, time_limit=30)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "memory"
    assert result.stats["held"] > 1


def test_a_board_the_search_finishes_is_answered_within_its_room(monkeypatch):
    monkeypatch.setattr(complete, "ROOM", 1)
    monkeypatch.setattr(complete, "PIECE", 60)  # the room is looked at only when a piece ends unanswered
    (puzzle,) = load(PUZZLES / "gen_30x30_01.txt")  # finished within the first piece
    result = pipeline.solve(puzzle, "search-python", time_limit=30)
    assert result.status is Status.SOLVED and violations(puzzle, result.solution) == []


SOLVER_LIBRARIES = ("ortools", "pulp", "pysat", "highspy")
IMPORTS = """
import json, sys
from cpflow.board.formats import load
from cpflow.engines import pipeline
from cpflow.workflows.unique import uniqueness
(puzzle,) = load(sys.argv[1])
solved = pipeline.solve(puzzle, sys.argv[2])
found, status = pipeline.count(puzzle, 10, sys.argv[2])
verdict = uniqueness(puzzle, sys.argv[2]).verdict
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[3:]))
print(json.dumps([solved.status.value, len(found), status.value, verdict.value, loaded]))
"""


@pytest.mark.parametrize("engine", SEARCHES)
def test_a_solve_a_count_and_a_uniqueness_proof_import_no_solver_library(engine):
    path = PUZZLES / "gen_14x14_01.txt"  # a board the front end does not answer alone
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS, str(path), engine, *SOLVER_LIBRARIES], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["solved", 1, "solved", "unique", []]

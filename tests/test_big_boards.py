"""Boards up to the size limit (65,536 cells, e.g. 256x256) are answered, never crashed: no recursion
in the board's vocabulary, the front end or the engines grows with the board, so none leans on
Python's recursion limit."""

from __future__ import annotations

import inspect
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from conftest import PUZZLES
from cpflow.board.formats import load, picture
from cpflow.board.grid import Puzzle
from cpflow.deduce.rules import dead_turns
from cpflow.engines import catalog, memory, pipeline
from cpflow.results import Status
from cpflow.workflows.unique import Verdict, count, uniqueness

HEADROOM = 100  # frames of stack allowed above the caller's, whatever the board's size


def corner_to_corner(side: int) -> Puzzle:
    """One colour from the top left corner to the bottom right one: no solution under the game's
    rules (it would fill the board and touch itself), a Hamiltonian path with --allow-touch."""
    return Puzzle.build(side, side, {"A": ((0, 0), (side - 1, side - 1))})


def one_colour_a_row(side: int) -> Puzzle:
    """Each row a colour from its first cell to its last: solved by straight paths."""
    return Puzzle.build(side, side, {f"c{row}": ((row, 0), (row, side - 1)) for row in range(side)})


@contextmanager
def shallow_stack(frames: int = HEADROOM):
    """Python's recursion limit a fixed number of frames above the caller's depth."""
    was = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(was)


def cpflow(*args, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cpflow", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def test_a_long_diagonal_of_dead_turns_needs_no_deeper_stack():
    turn = ((0, 1), (0, 2), (1, 1))  # its diagonal runs from (1, 2) to (78, 79), 78 turns away
    open_diagonal = corner_to_corner(80)
    endpoint_on_it = Puzzle.build(80, 80, {"A": ((0, 0), (78, 79))})
    with shallow_stack():  # following the diagonal by recursion took 4 frames a turn
        assert turn in dead_turns(open_diagonal)
        assert turn not in dead_turns(endpoint_on_it)


@pytest.mark.parametrize("engine", ["cpsat", "cpsat-circuit", "ilp-highs"])
def test_every_engine_answers_a_big_board_on_a_shallow_stack(engine):
    if engine not in catalog.available():
        pytest.skip(f"{engine} is not installed")
    catalog.warm(engine)
    pipeline.solve(one_colour_a_row(2), engine)  # imports done before the stack is made shallow
    with shallow_stack():
        assert pipeline.solve(corner_to_corner(60), engine, time_limit=30).status is Status.UNSOLVABLE


def test_solving_proving_and_counting_a_big_board_need_no_deeper_stack():
    puzzle = one_colour_a_row(100)
    catalog.warm("cpsat")
    with shallow_stack():
        solved = pipeline.solve(puzzle, time_limit=30)  # verified by the pipeline
        shown = picture(puzzle, solved.solution)
        proved = uniqueness(puzzle, time_limit=30)
        counted = count(puzzle, 2, time_limit=30)
    assert solved.status is Status.SOLVED and len(shown.splitlines()) >= 100
    assert proved.verdict is Verdict.UNIQUE and (counted.number, counted.exact) == (1, True)


@pytest.mark.timeout(120)
def test_a_250x250_board_from_corner_to_corner_gets_its_verdict_not_a_traceback(tmp_path):
    board = tmp_path / "corner_250.txt"
    board.write_text(picture(corner_to_corner(250)))
    ran = cpflow("solve", "--quiet", "--time-limit", 60, board)
    assert (ran.returncode, ran.stderr) == (1, "")
    assert ran.stdout.split()[:2] == [str(board), "unsolvable"]


@pytest.mark.timeout(120)
def test_a_board_at_the_size_limit_stops_at_the_time_limit_with_its_verdict(tmp_path):
    board = tmp_path / "corner_256.txt"
    board.write_text(picture(corner_to_corner(256)))  # 65,536 cells; a Hamiltonian path with --allow-touch
    ran = cpflow("solve", "--quiet", "--allow-touch", "--time-limit", 2, board)
    if ran.returncode == 2:  # a machine with less than the model's 4.2 GB free: the memory guard's one line
        (line,) = ran.stderr.splitlines()
        assert ran.stdout == "" and line.startswith(f"cpflow: {board}: the cpsat model")
        return
    assert ran.stderr == "" and ran.stdout.split()[0] == str(board)
    assert (ran.returncode, ran.stdout.split()[1]) in {(0, "solved"), (1, "unknown")}  # a solution is verified


def test_the_front_end_stops_at_the_time_limit_on_a_board_of_many_colours():
    puzzle = load(PUZZLES / "scaling" / "dense_100x100_01.txt")[0]  # 909 colours: settling floods for seconds
    catalog.warm("cpsat")
    began = time.perf_counter()
    result = pipeline.solve(puzzle, time_limit=0.5)
    assert result.status is Status.UNKNOWN and time.perf_counter() - began < 0.5 + 1.5
    assert result.seconds >= 0.5 and result.stats["stopped"] == "building"  # the seconds it spent (0.0 was said)


def test_the_memory_guard_counts_the_colour_domains_of_a_board_of_many_colours(monkeypatch):
    from typer.testing import CliRunner

    from cpflow.cli import app

    dense = PUZZLES / "scaling" / "dense_60x60_01.txt"  # 327 colours: its domains take about as much as the rest
    nodes_alone = len(load(dense)[0].nodes) * catalog.ENGINES["cpsat"].bytes_per_node
    monkeypatch.setattr(memory, "free_memory", lambda: nodes_alone * 1.3)
    refused = CliRunner().invoke(app, ["solve", "--quiet", str(dense)])
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.startswith(f"cpflow: {dense}: the cpsat model of this 60x60 board with 327 colours needs")

"""The SAT engine: its clauses alone (no front end) agree with brute force on every board kind
and rule set, loops are cut lazily, its DIMACS file holds every solution, and the time limit,
the missing package and the options it does not take are said in one line."""

from __future__ import annotations

import importlib.util
import os
import time
from dataclasses import replace

import pytest
from brute import brute_count
from hypothesis import HealthCheck, given, settings
from test_variants import tiny_boards, tiny_puzzles_under_any_rules
from typer.testing import CliRunner

from conftest import board, cells, project_puzzles
from cpflow.board.formats import load
from cpflow.board.grid import Rules, tag
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.engines import catalog, pipeline
from cpflow.errors import EngineUnavailable, EngineUnsupported
from cpflow.results import Status

pytest.importorskip("pysat", reason="the sat extra is not installed (pip install 'cpflow[sat]')")

SAT = [name for name, entry in catalog.ENGINES.items() if entry.family == "SAT"]
ALONE = {"forced": False}  # the clauses alone, without the front end's forced moves
# R may run round the empty middle under --allow-touch; the clauses allow a loop beside R's path.
ROOMY = """
    R....
    .....
    .....
    .....
    ....R
"""


@pytest.mark.parametrize("engine", SAT)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_puzzles_under_any_rules())
def test_the_clauses_alone_count_as_brute_force_does_under_any_rules(engine, puzzle):
    expected, limit = brute_count(puzzle), 60
    found, status = pipeline.count(puzzle, limit, engine, **ALONE)
    assert (len(found), status) == ((expected, Status.SOLVED) if expected < limit else (limit, Status.UNKNOWN))
    assert len(set(map(repr, found))) == len(found)
    result = pipeline.solve(puzzle, engine, **ALONE)
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(puzzle=tiny_boards())
def test_the_clauses_alone_solve_every_board_kind_under_the_games_rules(puzzle):
    expected = brute_count(puzzle)
    result = pipeline.solve(puzzle, "sat", **ALONE)
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
    found, status = pipeline.count(puzzle, 50, "sat", **ALONE)
    assert status is Status.SOLVED and len(found) == expected


# Boards up to 20x20: bigger ones are the front end's job (bench/sat.py measures the clauses alone on them).
@pytest.mark.parametrize("path", [p for p in project_puzzles() if cells(p) <= 400], ids=lambda p: p.stem)
def test_the_clauses_alone_solve_the_project_puzzles(path):
    (puzzle,) = load(path)
    result = pipeline.solve(puzzle, "sat", **ALONE)
    assert result.status is Status.SOLVED and violations(puzzle, result.solution) == []


def test_loops_in_answers_are_cut_and_every_solution_is_still_counted():
    from cpflow.clock import NEVER
    from cpflow.engines import cnf, sat

    puzzle = replace(board(ROOMY), rules=Rules(touch=True))
    found, finished, stats = sat.solutions(cnf.build(puzzle), sat.DEFAULT, 10_000, (), NEVER)
    assert finished and stats["cuts"] > 0  # some answers had a loop beside R's path
    assert stats["rounds"] > len(found) + 1  # a round for each solution, the last, and those cut
    expected, status = pipeline.count(puzzle, 10_000, "cpsat")
    assert status is Status.SOLVED and len(found) == len(expected)
    assert {repr(s) for s in found} == {repr(s) for s in expected}
    assert all(violations(puzzle, solution) == [] for solution in found)


def test_the_cnf_file_holds_every_solution_of_the_puzzle(tmp_path):
    from pysat.formula import CNF

    (puzzle,) = load(project_puzzles()[0])
    out = tmp_path / "board.cnf"
    result = CliRunner().invoke(app, ["export", str(project_puzzles()[0]), "--out", str(out), "--engine", "sat"])
    assert result.exit_code == 0, result.output
    cnf = CNF(from_file=str(out))
    names = {}
    for line in out.read_text().splitlines():
        parts = line.split()
        if line.startswith("c ") and len(parts) == 3 and parts[1].isdigit():
            names[parts[2]] = int(parts[1])
    solution = pipeline.solve(puzzle, "cpsat").solution
    true = set()
    for colour, path in solution.paths.items():
        true |= {names[f"paint_{tag(node)}_{colour}"] for node in path}
        true |= {names[f"joined_{tag(min(a, b))}_{tag(max(a, b))}"] for a, b in zip(path, path[1:], strict=False)}
        for before, node, after in zip(path, path[1:], path[2:], strict=False):
            a, b = sorted((before, after))
            true.add(names[f"turn_{tag(node)}_{tag(a)}_{tag(b)}"])
    named = set(names.values())
    # Every clause over named variables alone holds in the solution; those with counter variables
    # (pysat.card) hold for some values of them, which a solver finds with the named ones fixed.
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as sat:
        assert sat.solve(assumptions=[var if var in true else -var for var in sorted(named)])
    assert cnf.nv >= len(named) and len(cnf.clauses) > len(named)


def test_a_search_past_the_time_limit_is_unknown_and_its_child_is_gone(monkeypatch):
    from cpflow.engines import sat

    monkeypatch.setattr(sat, "solutions", lambda *args: time.sleep(60))  # runs in the forked child
    (puzzle,) = load(project_puzzles()[0])
    before = set(_children())
    result = pipeline.solve(puzzle, "sat", time_limit=0.2, **ALONE)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "searching"
    assert set(_children()) <= before  # the child was killed and reaped
    assert pipeline.solve(puzzle, "sat", time_limit=1e-9, **ALONE).status is Status.UNKNOWN


def _children() -> list[str]:
    """The PIDs of this process's children that still live."""
    path = f"/proc/{os.getpid()}/task/{os.getpid()}/children"
    return open(path).read().split() if os.path.exists(path) else []


def test_workers_are_refused_in_one_line(tmp_path):
    path = project_puzzles()[0]
    result = CliRunner().invoke(app, ["solve", "--engine", "sat", "--workers", "2", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == "cpflow: engine sat runs one worker; leave out --workers"
    with pytest.raises(EngineUnsupported):
        pipeline.solve(load(path)[0], "sat", workers=2)


def test_without_python_sat_the_engine_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pysat" else real(name, *a))
    catalog._installed.cache_clear()
    try:
        with pytest.raises(EngineUnavailable, match=r"pip install 'cpflow\[sat\]'"):
            catalog.backend("sat")
        assert "sat" not in catalog.available()
    finally:
        monkeypatch.undo()
        catalog._installed.cache_clear()
    assert "sat" in catalog.available()

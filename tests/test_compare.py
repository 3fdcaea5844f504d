"""`cpflow compare` and `cpflow export`, and the engine options of solve, unique and count."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from conftest import project_puzzles
from cpflow.board.formats import load
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.engines.catalog import available
from cpflow.workflows.compare import FIELDS, Run, judge

runner = CliRunner()
SOLVABLE = [p for p in project_puzzles() if p.name.startswith("starter_")][:2]
UNSOLVABLE = project_puzzles(solvable=False)[0]
needs_ilp = pytest.mark.skipif("ilp-cbc" not in available(), reason="pulp is not installed")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def a_run(contender: str, status: str) -> Run:
    return Run("f.txt", 1, "f", 3, 3, 2, contender, status, 0.1, 0.2, 0.3, 1)


def test_an_unsolvable_claim_is_wrong_when_another_engine_solved_the_puzzle():
    runs = judge([a_run("cpsat", "solved"), a_run("ilp-cbc", "unsolvable"), a_run("ilp-highs", "unknown")])
    assert [r.correct for r in runs] == [True, False, False]
    assert [r.correct for r in judge([a_run("cpsat", "unsolvable"), a_run("ilp-cbc", "unsolvable")])] == [True, True]


def test_a_wrong_unsolvable_claim_is_said_in_words_not_only_in_colour():
    from rich.console import Console

    from cpflow.cli.engines import compare_table

    runs = judge([a_run("cpsat", "solved"), a_run("ilp-cbc", "unsolvable"), a_run("ilp-highs", "unknown")])
    console = Console(width=80, color_system=None, file=None)
    with console.capture() as shown:
        console.print(compare_table(runs, ["cpsat", "ilp-cbc", "ilp-highs"]))
    rows = {line.split("│")[4].strip(): line for line in shown.get().splitlines() if line.count("│") >= 7}
    assert "unsolvable (wrong)" in rows["ilp-cbc"] and "wrong" not in rows["cpsat"] + rows["ilp-highs"]


@needs_ilp
def test_compare_rows_carry_every_engine_and_status_to_csv_and_json(tmp_path):
    names = [n for n in available() if n in ("cpsat", "ilp-cbc", "ilp-highs")]
    engines = [arg for name in names for arg in ("--engine", name)]
    out_csv, out_json = tmp_path / "runs.csv", tmp_path / "runs.json"
    result = run("compare", *engines, "--csv", out_csv, "--json", out_json, *SOLVABLE, UNSOLVABLE)
    assert result.exit_code == 0, result.output
    assert all(name in result.stdout for name in names) and "unsolvable" in result.stdout
    assert "building" in result.stdout and "solving" in result.stdout
    with out_csv.open() as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == FIELDS
    expected = [
        (str(p), n, s) for p, s in [*((p, "solved") for p in SOLVABLE), (UNSOLVABLE, "unsolvable")] for n in names
    ]
    assert [(r["file"], r["contender"], r["status"]) for r in rows] == expected
    assert all(float(r["seconds"]) >= float(r["solve_seconds"]) >= 0 for r in rows)
    records = json.loads(out_json.read_text())
    assert [(r["file"], r["contender"], r["status"], r["correct"]) for r in records] == [e + (True,) for e in expected]


@needs_ilp
def test_compare_exits_1_when_an_engine_runs_out_of_time():
    result = run("compare", "--engine", "cpsat", "--engine", "ilp-cbc", "--time-limit", "1e-9", SOLVABLE[0])
    assert result.exit_code == 1
    assert "unknown" in result.stdout


def test_compare_refuses_an_unknown_engine_and_bad_input(tmp_path):
    result = run("compare", "--engine", "nope", SOLVABLE[0])
    assert result.exit_code == 2 and "'nope'" in result.stderr
    assert run("compare", "--engine", "cpsat", tmp_path / "none.txt").exit_code == 2
    nowhere = tmp_path / "no" / "runs.csv"
    unwritable = run("compare", "--engine", "cpsat", "--csv", nowhere, SOLVABLE[0])
    assert unwritable.exit_code == 2 and unwritable.stdout == ""
    assert unwritable.stderr == f"{nowhere}: cannot write: No such file or directory\n"


@needs_ilp
@pytest.mark.parametrize("options", [["--engine", "ilp-cbc"], ["-e", "cpsat-circuit"]])
def test_solve_unique_and_count_run_on_every_engine_by_the_same_name(options):
    path = SOLVABLE[0]
    solved = run("solve", "--format", "json", *options, path)
    assert solved.exit_code == 0
    (puzzle,) = load(path)
    assert violations(puzzle, load_json_solution(puzzle, solved.stdout)) == []
    assert run("unique", "--quiet", *options, path).stdout.split()[1] == "unique"
    assert run("count", *options, path).stdout.strip() == f"{path}: exactly 1 solution"
    assert run("solve", "--quiet", *options, UNSOLVABLE).exit_code == 1


def load_json_solution(puzzle, text):
    from cpflow.board.formats import parse_solution

    return parse_solution(puzzle, "\n".join(json.loads(text)["grid"]))


@pytest.mark.parametrize("command", ["solve", "unique", "count", "compare", "export"])
def test_every_command_takes_the_catalog_names_and_nothing_else(command):
    out = ["--out", "x.lp"] if command == "export" else []
    for name in ("ilp", "cbc", "nope"):
        result = run(command, "--engine", name, *out, SOLVABLE[0])
        assert result.exit_code == 2 and "--engine" in result.stderr
    assert run("solve", "--model", "circuit", SOLVABLE[0]).exit_code == 2
    assert run("solve", "--mip-solver", "highs", SOLVABLE[0]).exit_code == 2


@pytest.mark.parametrize(
    ("engine", "suffix", "marker"), [("cpsat", ".pb.txt", "variables {"), ("ilp-cbc", ".lp", "Subject To")]
)
def test_export_writes_a_model_file(tmp_path, engine, suffix, marker):
    if engine == "ilp-cbc" and "ilp-cbc" not in available():
        pytest.skip("pulp is not installed")
    out = tmp_path / f"model{suffix}"
    result = run("export", SOLVABLE[0], "--engine", engine, "--out", out)
    assert result.exit_code == 0, result.output
    assert marker in out.read_text()


def test_export_refuses_an_unknown_suffix_and_writes_nothing(tmp_path):
    out = tmp_path / "model.xyz"
    result = run("export", SOLVABLE[0], "--out", out)
    assert result.exit_code == 2 and "model.xyz" in result.stderr
    assert not out.exists()
    lp = run("export", SOLVABLE[0], "--out", tmp_path / "model.lp")  # the default engine writes CP-SAT protos
    assert lp.exit_code == 2 and not (tmp_path / "model.lp").exists()
    assert lp.stderr.strip().endswith(".lp files come from engine ilp-cbc or ilp-highs")
    assert run("export", SOLVABLE[0], "--out", tmp_path / "m.pb", "--index", "2").exit_code == 2


def test_an_exported_cpsat_model_solves_to_the_same_board(tmp_path):
    from ortools.sat.python import cp_model

    from cpflow.engines import base, cpsat

    (puzzle,) = load(SOLVABLE[0])
    out = tmp_path / "model.pb.txt"
    assert run("export", SOLVABLE[0], "--out", out).exit_code == 0
    model = cp_model.CpModel()
    model.proto.parse_text_format(out.read_text())
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    built, v = cpsat.build(puzzle)
    labels = [solver.value(model.get_int_var_from_proto_index(v.label[c].index)) for c in puzzle.nodes]
    expected = base.solve(cpsat, puzzle, name="cpsat").solution.colour_of()
    assert labels == [puzzle.colours.index(expected[c]) for c in puzzle.nodes]


def test_compare_prints_milliseconds_in_a_table_that_fits_80_columns(monkeypatch):
    """Issue 38: 0.000 s for every small board, and every cell cut to `0.0...` in 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    names = available()
    result = run("compare", *[arg for name in names for arg in ("--engine", name)], *SOLVABLE, UNSOLVABLE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in result.stdout
    assert "milliseconds" in result.stdout and all(name in result.stdout for name in names)
    assert "0.000" not in result.stdout  # seconds to three places read 0.000 on small boards

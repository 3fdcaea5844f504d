"""Engines declared as data: what an entry says it supports is what commands allow, and
`cpflow engines` prints the table."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from conftest import board
from cpflow.board.grid import Rules
from cpflow.cli import app
from cpflow.engines import registry
from cpflow.engines.registry import ENGINES, KINDS, kinds_of
from cpflow.errors import EngineUnsupported

runner = CliRunner()
HOLED = """
    board 3x3
    R.R
    B#.
    B..
"""


def run(*args) -> object:
    return runner.invoke(app, [str(a) for a in args])


def test_engines_prints_every_entry_and_whether_it_is_installed():
    result = run("engines")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split()[:3] == ["name", "family", "formulation"]
    assert [row.split()[0] for row in rows] == list(ENGINES)
    for row, entry in zip(rows, ENGINES.values(), strict=True):
        assert row.endswith("yes") == entry.available(), row
        if not entry.available():
            assert entry.install in row


def test_engines_json_is_a_record_a_line_with_what_each_supports():
    result = run("engines", "--format", "json")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["name"] for r in records] == list(ENGINES)
    for record in records:
        entry = ENGINES[record["name"]]
        assert record["front_end"] == entry.front and record["exports"] == list(entry.exports)
        assert set(record["kinds"]) <= set(KINDS) and record["installed"] == entry.available()


def test_the_kinds_of_a_board_are_read_from_its_graph():
    assert kinds_of(board(HOLED)) == ["holes"]
    assert kinds_of(board("R.R\nB.B")) == []


@pytest.fixture
def declared(monkeypatch):
    """Replace the default engine's entry by one declaring less, for one test."""

    def declare(**changes) -> None:
        monkeypatch.setitem(ENGINES, registry.DEFAULT, replace(ENGINES[registry.DEFAULT], **changes))

    return declare


def test_a_rule_set_an_entry_does_not_declare_is_refused_in_one_line(declared, tmp_path):
    declared(rule_sets=("flow",))
    path = tmp_path / "p.txt"
    path.write_text("R.R\nB.B\n")
    result = run("solve", "--allow-touch", path)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"cpflow: engine {registry.DEFAULT} does not support --allow-touch"
    assert run("solve", path).exit_code == 0  # the rules it declares still run


def test_a_board_kind_an_entry_does_not_declare_is_refused(declared):
    declared(kinds=("walls",))
    with pytest.raises(EngineUnsupported, match="does not support holes"):
        registry.solve(board(HOLED))
    with pytest.raises(EngineUnsupported, match="does not support holes"):
        registry.count(board(HOLED), 2)


def test_workers_are_refused_by_an_entry_that_runs_one(declared):
    declared(workers=False)
    with pytest.raises(EngineUnsupported, match="one worker"):
        registry.solve(board("R.R\nB.B"), workers=2)
    assert registry.solve(board("R.R\nB.B"), workers=1).solution is not None


def test_counting_follows_the_entry_not_the_module(declared, monkeypatch):
    """An entry that does not declare `counts` is counted by exclusion, even if its module could count."""
    declared(counts=False)
    calls = []
    module = registry.backend()
    real = module.solve
    monkeypatch.setattr(module, "solve", lambda *a, **k: calls.append(k) or real(*a, **k))
    touchy = replace(board("R..\n...\n..R"), rules=Rules(touch=True))  # two solutions
    found, _ = registry.count(touchy, 2)
    assert len(found) == 2 and len(calls) == 2 and all("exclude" in call for call in calls)

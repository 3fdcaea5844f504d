"""Engines declared as data: what an entry says it supports is what commands allow, what it
says its module offers the module offers (the Backend protocol, checked), and `cpflow
engines` prints the table."""

from __future__ import annotations

import inspect
import json
from dataclasses import replace
from types import ModuleType

import pytest
from typer.testing import CliRunner

from conftest import board
from cpflow.board.grid import BOARD_KINDS, Rules
from cpflow.cli import app
from cpflow.engines import catalog, pipeline
from cpflow.engines.catalog import ENGINES, Engine
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
        assert set(record["kinds"]) <= set(BOARD_KINDS) and record["installed"] == entry.available()


def test_the_kinds_of_a_board_are_read_from_its_graph():
    assert board(HOLED).kinds() == ["holes"]
    assert board("R.R\nB.B").kinds() == []


@pytest.fixture
def declared(monkeypatch):
    """Replace the default engine's entry by one declaring less, for one test."""

    def declare(**changes) -> None:
        monkeypatch.setitem(ENGINES, catalog.DEFAULT, replace(ENGINES[catalog.DEFAULT], **changes))

    return declare


def test_a_rule_set_an_entry_does_not_declare_is_refused_in_one_line(declared, tmp_path):
    declared(rule_sets=("flow",))
    path = tmp_path / "p.txt"
    path.write_text("R.R\nB.B\n")
    result = run("solve", "--allow-touch", path)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"cpflow: engine {catalog.DEFAULT} does not support --allow-touch"
    assert run("solve", path).exit_code == 0  # the rules it declares still run


def test_a_board_kind_an_entry_does_not_declare_is_refused(declared):
    declared(kinds=("walls",))
    with pytest.raises(EngineUnsupported, match="does not support holes"):
        pipeline.solve(board(HOLED))
    with pytest.raises(EngineUnsupported, match="does not support holes"):
        pipeline.count(board(HOLED), 2)


def test_workers_are_refused_by_an_entry_that_runs_one(declared):
    declared(workers=False)
    with pytest.raises(EngineUnsupported, match="one worker"):
        pipeline.solve(board("R.R\nB.B"), workers=2)
    assert pipeline.solve(board("R.R\nB.B"), workers=1).solution is not None


def test_counting_follows_the_entry_not_the_module(declared, monkeypatch):
    """An entry that does not declare `counts` is counted by exclusion, even if its module could count."""
    declared(counts=False)
    calls = []
    module = catalog.backend()
    real = module.search
    monkeypatch.setattr(module, "search", lambda *a, **k: calls.append(k) or real(*a, **k))
    touchy = replace(board("R..\n...\n..R"), rules=Rules(touch=True))  # two solutions
    found, _ = pipeline.count(touchy, 2)
    assert len(found) == 2 and len(calls) == 2 and all("exclude" in call for call in calls)


def mismatches(entry: Engine, module: ModuleType) -> list[str]:
    """Where the module does not offer what its catalog entry declares (cpflow.engines.catalog.Backend):
    the functions by name, each taking the arguments the pipeline and the base pass it."""
    wrong = []
    optioned = [entry.options] + [{**entry.options, **override} for override in entry.by_rules.values()]

    def takes(name: str, *args, **kwargs) -> None:
        function = getattr(module, name, None)
        if not callable(function):
            wrong.append(f"no {name}")
            return
        try:
            inspect.signature(function).bind(*args, **kwargs)
        except TypeError as error:
            wrong.append(f"{name}: {error}")

    for options in optioned:
        takes("available", **options)
        build = getattr(module, "build", None)
        named = set(inspect.signature(build).parameters) if callable(build) else set()
        model = {k: v for k, v in options.items() if k in named}
        searched = {k: v for k, v in options.items() if k not in named}
        takes("build", "puzzle", deadline="deadline", root=None, **model)
        takes("search", "model", "deadline", exclude=(), workers=None, **searched)
        if entry.counts:
            takes("count", "model", 2, "deadline", **searched)
        if entry.exports:
            takes("export", "puzzle", "path", **options)
        if entry.rounds:
            takes("search", "model", "deadline", on_round=print, **searched)
    if not entry.counts and hasattr(module, "count"):
        wrong.append("count, which the entry does not declare")
    if not entry.exports and hasattr(module, "export"):
        wrong.append("export, which the entry does not declare")
    if not entry.rounds and callable(getattr(module, "search", None)):
        if "on_round" in inspect.signature(module.search).parameters:
            wrong.append("search takes on_round, which the entry does not declare")
    return wrong


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_entry_declares_what_its_module_offers_and_no_more(name):
    entry = ENGINES[name]
    if not entry.available():
        pytest.skip(f"{name} is not installed here")
    assert mismatches(entry, entry.backend()) == []


def test_a_module_that_lacks_what_its_entry_declares_is_caught():
    module = ModuleType("half_an_engine")
    module.available = lambda: True
    module.build = lambda puzzle, deadline, root=None: puzzle
    module.search = lambda model, deadline, *, exclude=(): None  # no workers
    entry = Engine(name="half", family="-", module="half_an_engine", formulation="-", needs="cpflow", summary="-")
    assert mismatches(entry, module) == ["search: got an unexpected keyword argument 'workers'"]
    assert mismatches(replace(entry, counts=True, exports=(".x",)), module)[1:] == ["no count", "no export"]


def test_entries_take_their_fields_by_name():
    with pytest.raises(TypeError):
        Engine("cpsat", "CP-SAT", "cpflow.engines.cpsat", "label", "ortools", "a summary")  # type: ignore[misc]

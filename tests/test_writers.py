"""Writers print; whatever they print is computed before them (issue 40).

What "computes" means here: running an engine (cpflow.engines: solving, why, closest), a deduction
(cpflow.deduce), the verifier (cpflow.board.verify), or a workflow's work (a function of
cpflow.workflows: solve, prove, explain, hint, fix). So cpflow/cli/writers.py imports (at the top,
inside a function or for typing) no module of cpflow.engines, cpflow.deduce or cpflow.board.verify,
and from cpflow.workflows only classes and constants (the answers it prints and their names)
besides records, the JSON shapes of answers, which itself imports from the engines and the
workflows only classes. What a writer may use are views of the answer it is given: a record, a
picture, the words of a hint or of a reason (cpflow.workflows.unsolvable.Reason).
"""

from __future__ import annotations

import ast
import importlib
import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from cpflow.cli import app
from cpflow.results import Status

ROOT = Path(__file__).resolve().parent.parent
COMPUTING = ("cpflow.engines", "cpflow.deduce", "cpflow.board.verify")
UNSOLVABLE = str(PUZZLES / "unsolvable_6x6.txt")
runner = CliRunner()


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every import of a module (top level, in functions and under TYPE_CHECKING): (module, names)."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def functions(module: str, names: list[str]) -> list[str]:
    """The names a module gives that are functions (a class or a constant is no work)."""
    source = importlib.import_module(module)
    return [
        f"{module}.{name}"
        for name in names
        if callable(getattr(source, name)) and not isinstance(getattr(source, name), type)
    ]


def computing(module: str, names: list[str], classes_of: tuple[str, ...] = ("cpflow.workflows",)) -> list[str]:
    """What of an import computes: a module of COMPUTING, or a function of `classes_of`, where classes
    and constants may be imported (the records may name a reason's type, cpflow.engines.why.Why)."""
    if module.startswith(classes_of) and module != "cpflow.workflows.records":
        return functions(module, names)
    return [module] if module.startswith(COMPUTING) else []


def test_the_writers_import_nothing_that_computes():
    found = [bad for module, names in imports(ROOT / "cpflow/cli/writers.py") for bad in computing(module, names)]
    assert not found, f"cpflow/cli/writers.py imports what computes: {found}"
    assert ("cpflow.workflows", ["records"]) in imports(ROOT / "cpflow/cli/writers.py")


def test_the_records_the_writers_print_import_only_answers_classes_and_their_words():
    words = "cpflow.deduce.sentences"  # the words of a reason (records.explained)
    classes_of = ("cpflow.workflows", "cpflow.engines", "cpflow.board.verify")  # verify's Problem: a mistake's type
    found = [
        bad
        for module, names in imports(ROOT / "cpflow/workflows/records.py")
        if module != words
        for bad in computing(module, names, classes_of)
    ]
    assert not found, f"cpflow/workflows/records.py imports what computes: {found}"


def test_the_check_finds_an_engine_a_deduction_and_a_workflows_function():
    assert computing("cpflow.engines.why", ["Why"]) == ["cpflow.engines.why"]
    assert computing("cpflow.engines.why", ["Why", "why"], ("cpflow.engines",)) == ["cpflow.engines.why.why"]
    assert computing("cpflow.deduce.sentences", ["cells"]) == ["cpflow.deduce.sentences"]
    assert computing("cpflow.board.verify", ["violations"]) == ["cpflow.board.verify"]
    assert computing("cpflow.workflows.unsolvable", ["Reason", "explanation"]) == [
        "cpflow.workflows.unsolvable.explanation"
    ]
    assert computing("cpflow.workflows.hints", ["Hint", "MISTAKE"]) == []
    assert computing("cpflow.board.formats", ["picture"]) == []


# The outputs for an unsolvable puzzle, as they were when the writers still worked out why themselves
# (the set found since issue 39 is the whole board's label model's: another minimal set, r1c2 and r2c1).
TEXT = """\
# {name}: unsolvable in {seconds} s
# why: r1c2 and r2c1 cannot both be covered, whichever colours connect.
# R*G...
# *.....
# B....R
# ......
# ......
# ..G..B
"""
WHY = {
    "connect": [],
    "cover": [[0, 1], [1, 0]],
    "sentence": "r1c2 and r2c1 cannot both be covered, whichever colours connect.",
    "minimal": True,
}
GRID = ["R.G...", "......", "B....R", "......", "......", "..G..B"]


def solved(*options: str):
    return runner.invoke(app, ["solve", UNSOLVABLE, *options])


def test_the_text_of_an_unsolvable_puzzle_says_why_as_before():
    shown = solved("--format", "text")
    assert shown.exit_code == 1
    seconds = shown.stdout.split(" in ")[1].split()[0]
    assert shown.stdout == TEXT.format(name=UNSOLVABLE, seconds=seconds)
    proof = runner.invoke(app, ["unique", UNSOLVABLE, "--format", "text"])
    assert proof.exit_code == 1
    assert proof.stdout.splitlines()[1:] == [line[2:] for line in TEXT.splitlines()[1:]]


def test_the_json_of_an_unsolvable_puzzle_says_why_as_before():
    shown = solved("--format", "json")
    assert shown.exit_code == 1
    record = json.loads(shown.stdout)
    assert list(record) == ["file", "index", "width", "height", "status", "seconds", "paths", "grid", "why"]
    assert record["status"] == "unsolvable" and record["paths"] == {} and record["grid"] == GRID
    why = record["why"]
    assert {key: why[key] for key in WHY} == WHY
    assert [witness["drop"] for witness in why["witnesses"]] == [{"cover": [0, 1]}, {"cover": [1, 0]}]
    proof = json.loads(runner.invoke(app, ["unique", UNSOLVABLE, "--format", "json"]).stdout)
    assert proof["verdict"] == "unsolvable" and proof["why"] == why
    hinted = json.loads(runner.invoke(app, ["hint", UNSOLVABLE, "--format", "json"]).stdout)
    assert hinted["status"] == "unsolvable" and hinted["why"] == why  # the same record: cells to draw, found


@pytest.mark.parametrize(
    ("options", "said"), [(["-q"], [UNSOLVABLE, "unsolvable"]), (["--format", "header"], ["IMPOSSIBLE"])]
)
def test_a_writer_that_prints_no_why_has_none_worked_out(monkeypatch, options, said):
    from cpflow.engines import why

    def refused(*args, **kwargs):
        raise AssertionError("an explanation nobody prints")

    monkeypatch.setattr(why, "why", refused)
    shown = solved(*options)
    assert shown.exit_code == 1
    assert shown.stdout.split()[:2] == said


def test_the_explanation_is_part_of_the_batchs_answer():
    from cpflow.board.formats import load
    from cpflow.workflows.batch import solve_all, uniqueness_all

    puzzles = load(UNSOLVABLE) + load(PUZZLES / "starter_5x5.txt")
    unsolvable, solvable = solve_all(puzzles, explain=True)
    assert unsolvable.reason and unsolvable.reason.sentence == WHY["sentence"] and solvable.reason is None
    assert [answer.reason for answer in solve_all(puzzles)] == [None, None]  # not asked for
    (proof,) = uniqueness_all(puzzles[:1], explain=True)
    assert proof.reason == unsolvable.reason


@pytest.mark.parametrize(("options", "most"), [([], 10), (["--time-limit", "3"], 3)])
def test_the_explanation_takes_no_more_than_the_time_limit_leaves(monkeypatch, options, most):
    from cpflow.engines import why

    given: list[float] = []
    real = why.why

    def timed(puzzle, time_limit=None):
        given.append(time_limit)
        return real(puzzle, time_limit)

    monkeypatch.setattr(why, "why", timed)
    shown = solved(*options)
    assert shown.exit_code == 1 and f"why: {WHY['sentence']}" in shown.stdout
    assert len(given) == 1 and 0 < given[0] <= most


def test_no_explanation_is_looked_for_when_the_time_limit_has_passed(monkeypatch):
    from cpflow.board.formats import load
    from cpflow.engines import why
    from cpflow.workflows import unsolvable

    monkeypatch.setattr(why, "why", lambda *args, **kwargs: pytest.fail("looked for after the time limit"))
    (puzzle,) = load(UNSOLVABLE)
    assert unsolvable.left(time.monotonic() - 5, {"time_limit": 4}) < 0
    assert unsolvable.explanation(puzzle, Status.UNSOLVABLE, seconds=-1) is None

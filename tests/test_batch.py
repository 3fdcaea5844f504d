"""One puzzle's failure is that puzzle's verdict: an unexpected error inside its work becomes the
verdict `error` (one line on stderr, exit 4 at the end) and the batch goes on, here, on a pool of
processes (--jobs) and on a cluster (tests/test_cluster.py)."""

from __future__ import annotations

import os
import signal

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from cpflow.board.formats import load
from cpflow.cli import app
from cpflow.engines import catalog, memory
from cpflow.results import Status
from cpflow.workflows import batch
from cpflow.workflows.batch import Failed, Where, each
from cpflow.workflows.compare import Attempt, attempt
from cpflow.workflows.unsolvable import solved

runner = CliRunner()
GOOD, BROKEN = PUZZLES / "starter_5x5.txt", PUZZLES / "starter_6x6.txt"
WORK = {"solve": "solved", "unique": "proven", "count": "_count"}  # the batch's function each command's work calls


def breaking_on(name: str, work):
    """`work`, except that on the puzzle called `name` it fails as a bug would."""

    def broken(puzzle, *args, **options):
        if puzzle.name == name:
            raise RecursionError("maximum recursion depth exceeded")
        return work(puzzle, *args, **options)

    return broken


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("command", ["solve", "unique", "count"])
def test_an_unexpected_error_is_its_puzzles_verdict_and_the_batch_goes_on(monkeypatch, command, jobs):
    monkeypatch.setattr(batch, WORK[command], breaking_on(str(BROKEN), getattr(batch, WORK[command])))  # forked
    result = runner.invoke(app, [command, "--quiet", "--jobs", jobs, str(GOOD), str(BROKEN), str(GOOD)])
    assert result.exit_code == 4
    assert [line.split()[0] for line in result.stdout.splitlines()] == [str(GOOD), str(GOOD)]
    (said,) = [line for line in result.stderr.splitlines() if line.startswith(str(BROKEN))]
    assert said.startswith(f"{BROKEN}: error: RecursionError: maximum recursion depth exceeded (at test_batch.py:")
    assert said.endswith("; a bug in cpflow, please report it") and "Traceback" not in result.stderr


def test_an_error_verdict_outranks_a_bad_file_skipped_with_keep_going(monkeypatch, tmp_path):
    monkeypatch.setattr(batch, "solved", breaking_on(str(BROKEN), batch.solved))
    bad = tmp_path / "bad.txt"
    bad.write_text("RX\n")
    result = runner.invoke(app, ["solve", "--quiet", "-k", str(GOOD), str(bad), str(BROKEN)])
    assert result.exit_code == 4  # a bug in cpflow is not hidden behind the user's bad file (exit 2)
    assert any(line.startswith(f"{bad}:1:1: ") for line in result.stderr.splitlines())


@pytest.mark.timeout(60)  # a multiprocessing.Pool waited forever for the item of a process that died
def test_a_process_of_a_pool_that_dies_in_a_puzzle_is_its_verdict_and_the_batch_goes_on(monkeypatch):
    def killed_on_broken(puzzle, **options):
        if puzzle.name == str(BROKEN):
            os.kill(os.getpid(), signal.SIGKILL)  # as the kernel ends a process out of memory
        return solved(puzzle, **options)

    monkeypatch.setattr(batch, "solved", killed_on_broken)  # the pool's processes are forked
    result = runner.invoke(app, ["solve", "--quiet", "--jobs", "2", str(BROKEN), str(GOOD), str(BROKEN), str(GOOD)])
    assert result.exit_code == 4
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [[str(GOOD), "solved"]] * 2
    said = [line for line in result.stderr.splitlines() if line.startswith(str(BROKEN))]
    assert said == [f"{BROKEN}: error: its process was killed (SIGKILL: out of memory?); {batch.BUG}"] * 2


def test_a_batch_with_an_error_counts_it_in_its_summary_line(monkeypatch):
    monkeypatch.setattr(batch, "solved", breaking_on(str(BROKEN), batch.solved))
    result = runner.invoke(app, ["solve", "--quiet", str(GOOD), str(BROKEN), str(GOOD)])
    assert result.stderr.splitlines()[-1].startswith("3 puzzles: 2 solved, 0 unsolvable, 0 unknown, 1 error; ")


def test_an_error_outranks_a_refusal_in_the_exit_code(monkeypatch):
    large = PUZZLES / "gen_20x20_01.txt"
    need = catalog.ENGINES["cpsat"].model_bytes(load(GOOD)[0])
    monkeypatch.setattr(memory, "free_memory", lambda: 2 * need)  # enough for the small boards only
    monkeypatch.setattr(batch, "solved", breaking_on(str(BROKEN), batch.solved))
    result = runner.invoke(app, ["solve", "--quiet", str(large), str(BROKEN), str(GOOD)])
    assert result.exit_code == 4 and result.stdout.split()[:2] == [str(GOOD), "solved"]
    assert [line.split(":")[:2] for line in result.stderr.splitlines()[:2]] == [
        ["cpflow", f" {large}"],
        [str(BROKEN), " error"],
    ]


@pytest.mark.parametrize("where", [Where(jobs=1), Where(jobs=2)], ids=["here", "pool"])
def test_each_gives_a_failed_bug_for_the_item_whose_work_raised(where):
    puzzle = load(GOOD)[0]
    attempts = [
        Attempt(puzzle, "cpsat", None, 1),
        Attempt(puzzle, "cpsat", "soon", 1),
        Attempt(puzzle, "cpsat", None, 1),
    ]
    first, broken, last = each(attempt, attempts, where)
    assert first.status is last.status is Status.SOLVED
    assert isinstance(broken, Failed) and broken.bug and broken.line.startswith(f"{GOOD}: error: TypeError: ")


def test_a_generator_giving_up_on_a_pool_ends_the_command_with_its_own_line():
    result = runner.invoke(app, ["generate", "--size", "4x4", "--colours", "1", "--count", "2", "--jobs", "2"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("cpflow: found no cover of a 4x4 board") and len(result.stderr.splitlines()) == 1

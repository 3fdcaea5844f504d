"""Each error kind owns its exit code, HTTP status and line, and every face shows it alike:
the command line (`failures`), a batch's item (`guarded`) and the web API (`failure`)."""

from __future__ import annotations

import pytest
import typer

from cpflow import errors
from cpflow.cli.group import failures
from cpflow.web.tasks import Failure, failure
from cpflow.workflows.items import ANSWERS, BUG, Failed, guarded

SAMPLES = {
    errors.CpflowError: errors.CpflowError("something went wrong"),
    errors.PuzzleFormatError: errors.PuzzleFormatError("board.txt", 3, 5, "colour 'B' appears once"),
    errors.InvalidSolution: errors.InvalidSolution("cpsat", ["3:5: path B touches itself"]),
    errors.SolverFailed: errors.SolverFailed("CP-SAT returned MODEL_INVALID"),
    errors.EngineUnavailable: errors.EngineUnavailable("engine 'sat' is not available"),
    errors.EngineUnsupported: errors.EngineUnsupported("engine sat runs one worker"),
    errors.ExtraMissing: errors.ExtraMissing("import needs OpenCV"),
    errors.GenerationFailed: errors.GenerationFailed("no unique 5x5 puzzle with 9 colours"),
    errors.ModelTooLarge: errors.ModelTooLarge("the model needs 40 GiB"),
    errors.OverLimit: errors.OverLimit("a 300x300 board is over this server's 150x150"),
    errors.ScreenshotUnreadable: errors.ScreenshotUnreadable("shot.png: no board found"),
    errors.NotAnImage: errors.NotAnImage("shot.png: not an image"),
    errors.ClusterUnavailable: errors.ClusterUnavailable("no scheduler at tcp://x:8786"),
    errors.RulesUnsupported: errors.RulesUnsupported("hints need Flow Free's rules"),
    errors.OutputError: errors.OutputError("out/a.txt", "cannot write: No space left on device"),
}
# What docs/commands.md and docs/web.md promise: exit code, HTTP status, and how the line begins.
PROMISED = {
    errors.PuzzleFormatError: (2, 400, "board.txt:3:5: "),
    errors.InvalidSolution: (4, 500, "internal error: "),
    errors.SolverFailed: (4, 500, "internal error: "),
    errors.EngineUnavailable: (2, 400, "cpflow: "),
    errors.ExtraMissing: (2, 501, "cpflow: "),
    errors.GenerationFailed: (1, 422, "cpflow: "),
    errors.ModelTooLarge: (2, 413, "cpflow: "),
    errors.OverLimit: (2, 413, "cpflow: "),
    errors.ScreenshotUnreadable: (1, 422, "shot.png: "),
    errors.NotAnImage: (2, 400, "shot.png: "),
    errors.OutputError: (2, 500, "out/a.txt: cannot write: "),
}


def test_every_error_kind_has_a_sample():
    kinds = {kind for kind in vars(errors).values() if isinstance(kind, type) and issubclass(kind, Exception)}
    assert kinds == set(SAMPLES)


@pytest.mark.parametrize("kind", PROMISED, ids=lambda kind: kind.__name__)
def test_an_error_kind_has_the_exit_code_status_and_line_promised(kind):
    error = SAMPLES[kind]
    code, status, start = PROMISED[kind]
    assert (error.exit_code, error.http_status) == (code, status)
    assert error.one_line().startswith(start) and "\n" not in error.one_line()


@pytest.mark.parametrize("error", SAMPLES.values(), ids=lambda error: type(error).__name__)
def test_the_command_line_shows_an_error_by_its_kind(error, capsys):
    with pytest.raises(typer.Exit) as stopped, failures():
        raise error
    assert stopped.value.exit_code == error.exit_code
    assert capsys.readouterr().err == error.one_line() + "\n"


@pytest.mark.parametrize("error", SAMPLES.values(), ids=lambda error: type(error).__name__)
def test_the_web_answers_an_error_by_its_kind(error):
    assert failure(error) == Failure(error.http_status, error.one_line())


@pytest.mark.parametrize("error", SAMPLES.values(), ids=lambda error: type(error).__name__)
def test_a_batch_item_fails_by_its_error_kind(error):
    def work(item):
        raise error

    if isinstance(error, ANSWERS):  # the work's own "no" ends the batch, as the command's answer
        with pytest.raises(type(error)):
            guarded(work, "item")
        return
    failed = guarded(work, "item")
    if error.exit_code == 4:
        assert failed.bug and failed.line.startswith("item 'item': error: ") and failed.line.endswith(BUG)
    else:
        assert failed == Failed(error.one_line())


def test_the_web_and_a_batch_call_an_unexpected_error_a_bug():
    def work(item):
        raise ZeroDivisionError("division by zero")

    assert failure(ZeroDivisionError("division by zero")) == Failure(
        500, "internal error: ZeroDivisionError: division by zero"
    )
    failed = guarded(work, "item")
    assert failed.bug and "ZeroDivisionError: division by zero" in failed.line


def test_a_format_error_pickles_across_processes_with_its_place():
    import pickle

    error = pickle.loads(pickle.dumps(SAMPLES[errors.PuzzleFormatError]))
    assert (error.source, error.line, error.col, str(error)) == (
        "board.txt",
        3,
        5,
        "board.txt:3:5: colour 'B' appears once",
    )

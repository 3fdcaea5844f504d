"""What a batch shows beside its answers: a progress display on stderr, the line of each puzzle
left without an answer, the batch's summary line, and the exit code those call for; and a
status line on stderr for one long piece of work (`cpflow fix`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from cpflow.cli.lines import shown, stderr
from cpflow.results import Status
from cpflow.workflows.inputs import Entry
from cpflow.workflows.items import Failed

Answer = TypeVar("Answer")


def answered(
    entries: Sequence[Entry], answers: Iterable[Answer | Failed], failures: list[Failed]
) -> Iterator[tuple[Entry, Answer]]:
    """Each entry with its answer, in order; an entry whose work gave none (batch.Failed: refused, or
    verdict `error`) is said on stderr in one line, its Failed added to `failures`, and left out."""
    for entry, answer in zip(entries, answers, strict=True):
        if isinstance(answer, Failed):
            stderr(answer.line)
            failures.append(answer)
        else:
            yield entry, answer


def failed_exit(failures: Sequence) -> int:
    """The exit code that puzzles left without an answer (batch.Failed) call for, before the answers'
    own: 4 when some ended in an unexpected error (verdict `error`, a bug), 2 when some were refused on
    bad input, 0 when there are none."""
    return 4 if any(failure.bug for failure in failures) else 2 if failures else 0


def with_progress(what: str, answers: Iterable[Answer], total: int) -> Iterator[Answer]:
    """The answers, as they come, under a spinner with the time elapsed (and for a batch a bar
    and a count) on stderr when it is a terminal; nothing is shown otherwise. What is printed
    meanwhile goes above it. Rich is imported only for a terminal (one board piped pays nothing for it)."""
    if not sys.stderr.isatty():
        yield from answers
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    many = [BarColumn(), MofNCompleteColumn()] if total > 1 else []
    columns = [SpinnerColumn(), TextColumn("{task.description}"), *many, TimeElapsedColumn()]
    terminal = console.is_terminal
    # On one screen with stdout, what is printed goes above the display; a piped stdout is left alone.
    with Progress(
        *columns, console=console, transient=True, disable=not terminal, redirect_stdout=sys.stdout.isatty()
    ) as shown:
        task = shown.add_task(what, total=total)
        for answer in answers:
            yield answer
            shown.advance(task)


def summary_line(statuses: Sequence[tuple[Status, float]], errors: int = 0) -> str:
    """A batch in one line: how many puzzles ended how (`errors` of them in verdict `error`, said only
    when there are some), and the seconds the others took."""
    counts = ", ".join(f"{sum(s is status for s, _ in statuses)} {status.value}" for status in Status)
    counts += f", {errors} error" if errors else ""
    return f"{len(statuses) + errors} puzzles: {counts}; {sum(t for _, t in statuses):.3f} s"


@contextmanager
def status_line(what: str) -> Iterator[Callable[[str], None] | None]:
    """Within: a line on stderr under a spinner, `what` at first, then what the callback yielded is
    given, when stderr is a terminal; None otherwise (nothing is shown). It is gone at the end."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.text import Text

    with Console(stderr=True).status(Text(shown(what))) as status:
        yield lambda line: status.update(Text(shown(line)))  # as it is: no markup, no control characters

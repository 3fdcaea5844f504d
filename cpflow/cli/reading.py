"""What commands read before their work: the puzzles named (file by file, or each batch of a
stream as it arrives), and where a batch runs (--jobs, --cluster)."""

from __future__ import annotations

import sys
from pathlib import Path

from cpflow.cli.group import option
from cpflow.cli.lines import stderr
from cpflow.errors import PuzzleFormatError


def load(
    files: list[str],
    input_format,
    touch: bool = False,
    blanks: bool = False,
    play: Path | None = None,
    keep_going: bool = False,
):
    """The puzzles named; with `keep_going`, each bad file is reported on stderr and left out."""
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import load_all

    bad: list[PuzzleFormatError] | None = [] if keep_going else None
    entries = load_all(files, input_format.value, Rules(touch=touch, blanks=blanks), play, bad)
    for error in bad or []:
        stderr(error.one_line())
    return entries, bool(bad)


SEVERITY = (4, 2, 1, 3, 0)  # exit codes, the one that outranks the others first


def each_batch(files: list[str], input_format, touch: bool, blanks: bool, play: Path | None, keep_going: bool, show):
    """Show each batch of puzzles as it is read (a stream's pieces as they arrive; cpflow.workflows.inputs):
    the exit code that outranks the others'; 2 when some file was bad (with --keep-going), unless 4 (a bug)."""
    from cpflow.board.grid import Rules
    from cpflow.workflows.inputs import batches

    bad: list[PuzzleFormatError] | None = [] if keep_going else None
    codes, said = [0], 0
    for entries in batches(files, input_format.value, Rules(touch=touch, blanks=blanks), play, bad):
        for error in (bad or [])[said:]:
            stderr(error.one_line())
        said = len(bad or [])
        if entries:
            codes.append(show(entries))
        sys.stdout.flush()  # a stream's answers are read as they come
    for error in (bad or [])[said:]:
        stderr(error.one_line())
    code = min(codes, key=SEVERITY.index)
    return code if code == 4 else 2 if bad else code


def where(jobs: int, cluster: str | None):
    """Where a batch runs, from --jobs and --cluster (a usage error when both are given or the address is bad)."""
    from cpflow.workflows.batch import Where

    return option("--cluster", Where.of, jobs, cluster)

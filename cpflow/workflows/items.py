"""A batch's items: where they run (`Where`), and the answer for one whose work gave none (`Failed`),
made from what it raised in one place (`guarded`). Shared by the pool (cpflow.workflows.batch) and
the cluster (cpflow.workflows.cluster).

Glossary
- Where: where a batch runs, from `--jobs N` and `--cluster ADDRESS`, e.g. `Where(jobs=2)`,
  `Where(cluster="local:2")`, `Where(cluster="tcp://10.0.0.5:8786")`
- Failed: the answer for an item whose work gave none: refused (an error of cpflow's own with
  its exit code: bad input, a board too large for free memory, an engine not installed), or
  broken (`bug`: an invalid solution, an unexpected error; the item's verdict is `error`); it
  stands in that item's place and the others go on
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from cpflow.errors import CpflowError, GenerationFailed, InvalidSolution

Item = TypeVar("Item")
Answer = TypeVar("Answer")
LOCAL = "local"  # --cluster local[:N]: a LocalCluster of N worker processes on this machine
BUG = "a bug in cpflow, please report it"  # ends the line of an item in verdict `error`
BUG_EXIT = InvalidSolution.exit_code  # the exit code of an error that is a bug in cpflow
ANSWERS = (GenerationFailed,)  # the work's own way to say no: it goes up to the caller and ends the batch


@dataclass(frozen=True)
class Where:
    """Where a batch runs: here (jobs 1), on a pool of `jobs` processes, or on the Dask cluster at
    `cluster` (a scheduler address such as 'tcp://host:8786', or 'local' / 'local:N')."""

    jobs: int = 1
    cluster: str | None = None

    @classmethod
    def of(cls, jobs: int = 1, cluster: str | None = None) -> Where:
        """From the command line's --jobs and --cluster; ValueError on a cluster address that cannot be one,
        or on both at once."""
        if cluster is None:
            return cls(jobs)
        if jobs > 1:
            raise ValueError("use --jobs N or --cluster ADDRESS, not both")
        address = cluster.strip()
        if re.fullmatch(rf"{LOCAL}:0*", address):
            raise ValueError(f"{cluster!r} starts no worker: local:N needs N of 1 or more")
        local = re.fullmatch(rf"{LOCAL}(:[1-9]\d*)?", address)
        remote = re.fullmatch(r"([a-z]+://)?[\w.\-\[\]:]+:(\d+)", address)
        if not local and not (remote and not address.startswith(LOCAL) and 0 < int(remote[2]) < 65536):
            raise ValueError(f"{cluster!r} is not 'local', 'local:N' or a scheduler address like tcp://host:8786")
        return cls(1, address)


@dataclass(frozen=True)
class Failed:
    """An item's work that gave no answer: the one line that says why, as the CLI prints it. Refused on bad
    input, or, when `bug`, broken by an error nothing expected (a bug in cpflow: the item's verdict is `error`)."""

    line: str
    bug: bool = False


def guarded(work: Callable[[Item], Answer], item: Item) -> Answer | Failed:
    """The work's answer, or Failed: when it refuses the item on bad input, or when anything else
    goes wrong in it (a bug), so that one item's failure never ends the batch. Only the work's own
    answers by exception (a generator giving up) and interrupts go on up."""
    try:
        return work(item)
    except ANSWERS:
        raise
    except CpflowError as error:
        if error.exit_code != BUG_EXIT:  # refused: its kind's line (cpflow.errors)
            return Failed(error.one_line())
        return Failed(f"{name_of(item)}: error: {describe(error)}; {BUG}", bug=True)
    except Exception as error:
        return Failed(f"{name_of(item)}: error: {describe(error)}; {BUG}", bug=True)


def name_of(item) -> str:
    """What an item is called in a line about it: a puzzle's name, or the item itself."""
    return getattr(item, "name", None) or f"item {item!r}"[:60]


def describe(error: Exception) -> str:
    """An unexpected error in one line: its kind, its message and where it was raised, e.g.
    `ZeroDivisionError: division by zero (at forced.py:120 in settle)`."""
    message = " ".join(str(error).split())[:200]
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    return f"{type(error).__name__}{': ' + message if message else ''}{where}"

"""Child processes and scratch folders that never outlive the request that made them.

An engine runs another program (CBC) with `run`, or a solver library it cannot stop at
will (HiGHS) with `fork`: the child has a session of its own, so that a terminal's
Ctrl-C is ours to handle and one `killpg` ends it with whatever it started, and it is
killed at the deadline and on every way out (an answer, an exception, KeyboardInterrupt).
On Linux the child also dies with the thread that started it, so even a SIGKILLed
cpflow leaves nothing running.

A solve's files go in a `scratch()` folder, `cpflow-PID-XXXXXXXX` in the temp folder, removed
on the way out. A process killed outright cannot remove its own: `sweep()` removes the
folders whose PID no longer lives, at the next `scratch()` and wherever workers are
killed (a process pool, a local Dask cluster, the web server's jobs).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import pickle
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import TypeVar

from cpflow.clock import NEVER, Deadline
from cpflow.errors import SolverFailed

T = TypeVar("T")

PREFIX = "cpflow-"
SCRATCH = re.compile(rf"{PREFIX}(\d+)-\w+")  # a scratch folder's name, with its owner's PID
TICK = 0.02  # seconds between looks at the deadline while a child runs
PR_SET_PDEATHSIG = 1  # prctl(2)


def run(args: Sequence[str], deadline: Deadline = NEVER) -> int | None:
    """Run a program to its end and return its exit code, or None when the deadline came first.

    Its output is discarded. However `run` is left, the program and its process group are
    gone by then.
    """
    with subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=partial(_die_with, os.getpid(), _prctl()),  # libc loaded here: a child must not load it
    ) as child:
        try:
            while True:
                left = deadline.left()
                if left == 0:
                    return None
                with suppress(subprocess.TimeoutExpired):
                    return child.wait(TICK if left is None else min(TICK, left))
        finally:
            _end(child)


def fork(work: Callable[[], T], deadline: Deadline = NEVER) -> T | None:
    """`work()` in a forked child (it starts with this process's memory, so nothing is copied
    over), its answer sent back pickled; None when the deadline came first. The child has a
    session of its own and dies with this process, as `run`'s does; however `fork` is left,
    it is gone by then. An exception in the child is raised here as SolverFailed.

    Where there is no fork (Windows), `work()` runs in this process, to its end.
    """
    if not hasattr(os, "fork"):
        return work()
    prctl, parent = _prctl(), os.getpid()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        _work_and_exit(work, parent, prctl, read, write)
    os.close(write)
    try:
        sent = _receive(read, deadline)
    finally:
        os.close(read)
        _end_forked(pid)
    if sent is None:
        return None
    if not sent:
        raise SolverFailed("a solver's child process failed: it ended without an answer")
    done, answer = pickle.loads(sent)
    if not done:
        raise SolverFailed(f"a solver's child process failed: {answer}")
    return answer


def _work_and_exit(work: Callable, parent: int, prctl, read: int, write: int) -> None:
    """The forked child's life: a session of its own, death with its parent, `work()`, its answer."""
    code = 1
    try:
        os.setsid()
        _die_with(parent, prctl)
        os.close(read)
        try:
            answer = (True, work())
        except Exception as error:  # told to the parent, which raises it
            answer = (False, f"{type(error).__name__}: {error}")
        with open(write, "wb") as pipe:
            pipe.write(pickle.dumps(answer))
        code = 0
    finally:
        os._exit(code)  # never back into the parent's code (its stack, its atexit handlers)


def _receive(read: int, deadline: Deadline) -> bytes | None:
    """All that comes through the pipe until it closes; None when the deadline comes first."""
    chunks: list[bytes] = []
    while True:
        left = deadline.left()
        if left == 0:
            return None
        ready, _, _ = select.select([read], [], [], TICK if left is None else min(TICK, left))
        if ready:
            chunk = os.read(read, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _end_forked(pid: int) -> None:
    """Kill a forked child's session (or the child, before it made one), and reap it."""
    if os.waitpid(pid, os.WNOHANG) == (0, 0):
        for kill, target in ((os.killpg, pid), (os.kill, pid)):
            with suppress(ProcessLookupError):
                kill(target, signal.SIGKILL)
        os.waitpid(pid, 0)


def _end(child: subprocess.Popen) -> None:
    """Kill the child's process group, unless the child has already been reaped (its PID may be another's)."""
    if child.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def die_with_parent(parent: int | None = None) -> None:
    """Linux: SIGKILL comes to this process when the thread that started it ends, however it ends; and
    when `parent` (the PID that started it) has already ended by then, it exits at once. Elsewhere
    nothing happens (the parent's own ways out still end its children)."""
    _die_with(parent, _prctl())


def _die_with(parent: int | None, prctl) -> None:
    """Ask for SIGKILL when the parent ends; in a new child (`parent` its PID), exit at once if it
    already has."""
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


@functools.cache
def _prctl():
    """libc's prctl on Linux, else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


@contextmanager
def scratch() -> Iterator[Path]:
    """A private folder for a solve's files, removed with them on the way out; first the folders
    of dead processes are swept."""
    sweep()
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sweep() -> list[Path]:
    """Remove the scratch folders in the temp folder whose process no longer lives; return them."""
    swept = []
    with suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            found = SCRATCH.fullmatch(entry.name)
            if found and entry.is_dir(follow_symlinks=False) and not _alive(int(found[1])):
                shutil.rmtree(entry.path, ignore_errors=True)
                swept.append(Path(entry.path))
    return swept


def _alive(pid: int) -> bool:
    """Whether a process with this PID exists (one we may not signal counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

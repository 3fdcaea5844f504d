"""Ctrl-C: the whole command stops at once, keeps what it finished, and exits 130; and
however a command ends, no solver it started outlives it and no file of it is left.

Each test runs `cpflow` as a terminal would, in its own process group, and sends SIGINT
to the group once the first result is out. The slow board is an open 16x16 grid whose
one colour joins two corners of the same checkerboard colour: with paths allowed to
touch themselves, no parity argument is in the model, and the search runs for minutes.
CBC runs for minutes on one of the project's 30x30 boards, in one solve. Its temp folder
is the test's own (TMPDIR), so that any process whose command line names it is one of
the test's.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import LARGE, PUZZLES
from cpflow.board.formats import load, load_solution
from cpflow.board.verify import violations
from cpflow.engines.catalog import available

QUICK = PUZZLES / "starter_5x5.txt"
HANG_GUARD = 60  # seconds before a test gives up on a command that ignored the interrupt
GONE_GUARD = 5  # seconds for killed processes to be gone
CBC_BUSY = PUZZLES / "gen_30x30_01.txt"  # with paths that may touch themselves: no search first, CBC runs for minutes
BUSY_RULES = "--allow-touch"
needs_cbc = pytest.mark.skipif("ilp-cbc" not in available(), reason="the ilp-cbc engine is not installed")


def slow_board(folder: Path) -> Path:
    path = folder / "parity_16x16.txt"
    rows = [["."] * 16 for _ in range(16)]
    rows[0][0] = rows[15][15] = "R"
    path.write_text("".join("".join(row) + "\n" for row in rows))
    return path


def interrupted(*args, ready=None) -> tuple[int, str, str]:
    """Run `cpflow ARGS`, send Ctrl-C to its process group once `ready(process)` holds (by
    default: once the first line is out), and return its exit code, stdout and stderr."""
    command = [sys.executable, "-m", "cpflow", *map(str, args)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        first = ""
        if ready is None:
            first = process.stdout.readline()
        else:
            waited = time.monotonic()
            while not ready(process) and time.monotonic() - waited < HANG_GUARD:
                time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=HANG_GUARD)
    return process.returncode, first + out, err


def has_workers(process: subprocess.Popen) -> bool:
    """Whether the process has started child processes (Linux)."""
    return bool(Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split())


def part_has_lines(path: Path, lines: int):
    """Whether the part (cpflow.outputs) that will land on `path` holds `lines` lines yet."""

    def holds(_) -> bool:
        for part in path.parent.glob(f".cpflow-part-*-{path.name}"):
            with contextlib.suppress(FileNotFoundError):  # landed meanwhile
                if len(part.read_text().splitlines()) >= lines:
                    return True
        return False

    return holds


def assert_stopped_cleanly(code: int, err: str) -> None:
    assert code == 130
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("cpflow: interrupted")


def test_ctrl_c_stops_a_batch_keeps_what_was_solved_and_exits_130(tmp_path):
    code, out, err = interrupted("solve", "-q", "--allow-touch", QUICK, slow_board(tmp_path), QUICK)
    assert_stopped_cleanly(code, err)
    assert out.splitlines() == [out.splitlines()[0]]  # the next puzzle was not solved after all
    assert out.split()[:2] == [str(QUICK), "solved"]


def test_ctrl_c_stops_a_pool_of_processes(tmp_path):
    slow = slow_board(tmp_path)
    code, out, err = interrupted("solve", "-q", "--allow-touch", "--jobs", "2", slow, slow, ready=has_workers)
    assert_stopped_cleanly(code, err)
    assert out == ""


def children_of(pid: int) -> list[int]:
    """The processes `pid` started that are still its children (Linux)."""
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def is_gone(pid: int) -> bool:
    """Whether the process has ended (a zombie not yet reaped counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_a_pool_s_workers_die_with_a_killed_cpflow(tmp_path):
    # Issue 42: SIGKILL of `solve --jobs 2` left both workers running for minutes, their parent PID 1.
    slow = slow_board(tmp_path)
    command = [sys.executable, "-m", "cpflow", "solve", "-q", "--allow-touch", "--jobs", "2", slow, slow]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True) as cp:
        assert until(lambda: len(children_of(cp.pid)) == 2, HANG_GUARD)
        workers = children_of(cp.pid)
        time.sleep(1)  # the workers are at work on the slow board
        cp.kill()
    assert until(lambda: all(map(is_gone, workers)), GONE_GUARD), [w for w in workers if not is_gone(w)]


def test_ctrl_c_stops_a_count(tmp_path):
    code, out, err = interrupted("count", "--allow-touch", "--limit", "1000000", QUICK, slow_board(tmp_path))
    assert_stopped_cleanly(code, err)
    assert out.splitlines()[0].startswith(f"{QUICK}: exactly 1 solution") and len(out.splitlines()) == 1


def test_ctrl_c_keeps_the_finished_runs_of_compare_in_csv_and_json(tmp_path):
    runs_csv, runs_json = tmp_path / "runs.csv", tmp_path / "runs.json"
    args = ["compare", "-e", "cpsat", "--allow-touch", "--csv", runs_csv, "--json", runs_json]
    code, out, err = interrupted(*args, QUICK, slow_board(tmp_path), ready=part_has_lines(runs_csv, 2))
    assert_stopped_cleanly(code, err)
    assert not list(tmp_path.glob(".cpflow-*"))  # the parts landed
    with runs_csv.open() as handle:
        rows = list(csv.DictReader(handle))
    records = json.loads(runs_json.read_text())
    assert len(rows) == len(records) == 1
    assert "starter_5x5" in out  # the table of what finished
    assert all(row["file"] == str(QUICK) and row["status"] == "solved" for row in [*rows, *records])


def test_ctrl_c_stops_generate_and_every_file_it_wrote_is_whole(tmp_path):
    out_dir = tmp_path / "made"
    args = ["generate", "--size", "20x20", "--count", "100", "--seed", "3", "--out", out_dir]
    code, _, err = interrupted(*args, ready=lambda _: any(out_dir.glob("*.solution.txt")))
    assert_stopped_cleanly(code, err)
    made = sorted(p for p in out_dir.glob("*.txt") if not p.name.endswith(".solution.txt"))
    assert len(made) < 100
    for path in made:
        (puzzle,) = load(path)
        assert violations(puzzle, load_solution(puzzle, path.with_suffix(".solution.txt"))) == []


# ---- child solvers and their files ----


def scratch_of(tmp_path: Path) -> Path:
    """The test's own temp folder, for TMPDIR."""
    folder = tmp_path / "tmp"
    folder.mkdir(exist_ok=True)
    return folder


def solvers_in(scratch: Path) -> list[int]:
    """The processes whose command line names a file in `scratch` (CBC is given its model file)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(scratch).encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:  # ended meanwhile
            continue
    return found


def until(holds: Callable[[], object], seconds: float) -> bool:
    waited = time.monotonic()
    while not holds():
        if time.monotonic() - waited > seconds:
            return False
        time.sleep(0.05)
    return True


def leftovers(scratch: Path) -> list[str]:
    return sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*"))


@contextmanager
def cpflow_with_cbc(scratch: Path, *args) -> Iterator[subprocess.Popen]:
    """`cpflow ARGS` in a session of its own with TMPDIR=scratch, once CBC runs for it; killed
    on the way out if it is still running."""
    command = [sys.executable, "-m", "cpflow", *map(str, args)]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    try:
        assert until(lambda: solvers_in(scratch), HANG_GUARD), "CBC never started"
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


def ctrl_c(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it, to the foreground group


def sigterm(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)  # as kill, systemd or a container runtime sends it


needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="Dask is not installed")


@needs_cbc
@pytest.mark.parametrize(
    ("where", "stop"),
    [
        ([], ctrl_c),
        ([], sigterm),
        (["--jobs", "2"], sigterm),  # the pool's workers are ended at once: CBC dies with them
        pytest.param(["--cluster", "local:1"], ctrl_c, marks=needs_dask),  # so are the cluster's
    ],
    ids=["ctrl-c", "sigterm", "sigterm-jobs", "ctrl-c-cluster"],
)
def test_an_interrupted_cbc_solve_leaves_no_cbc_and_no_files(tmp_path, where, stop):
    scratch = scratch_of(tmp_path)
    args = ["solve", "--engine", "ilp-cbc", BUSY_RULES, *where, CBC_BUSY, CBC_BUSY]
    with cpflow_with_cbc(scratch, *args) as process:
        stop(process)
        _, err = process.communicate(timeout=HANG_GUARD)
        assert_stopped_cleanly(process.returncode, err)
    assert until(lambda: not solvers_in(scratch), GONE_GUARD), f"still running: {solvers_in(scratch)}"
    assert [name for name in leftovers(scratch) if not name.startswith("dask-")] == []


@needs_cbc
def test_a_cbc_solve_stopped_by_its_time_limit_leaves_no_cbc_and_no_files(tmp_path):
    scratch = scratch_of(tmp_path)
    began = time.monotonic()
    limit = 8  # forced moves and building the model take some seconds of it: CBC must start
    with cpflow_with_cbc(
        scratch, "solve", "--engine", "ilp-cbc", BUSY_RULES, "--time-limit", str(limit), CBC_BUSY
    ) as process:
        out, err = process.communicate(timeout=HANG_GUARD)
        assert "unknown in" in out and "Traceback" not in err
    assert time.monotonic() - began < limit + 3  # the limit, the interpreter's start, the allowance
    assert not solvers_in(scratch) and leftovers(scratch) == []


@needs_cbc
def test_cbc_dies_with_a_killed_cpflow_and_the_next_run_sweeps_its_files(tmp_path):
    scratch = scratch_of(tmp_path)
    with cpflow_with_cbc(scratch, "solve", "--engine", "ilp-cbc", BUSY_RULES, CBC_BUSY) as process:
        process.kill()
        process.wait(timeout=HANG_GUARD)
    assert until(lambda: not solvers_in(scratch), GONE_GUARD), f"outlived cpflow: {solvers_in(scratch)}"
    assert leftovers(scratch)  # a process killed outright cannot tidy up ...
    # --allow-blanks: forced moves do not apply, so CBC runs and needs the temp folder
    command = [sys.executable, "-m", "cpflow", "solve", "--engine", "ilp-cbc", "--allow-blanks", str(QUICK)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0
    assert leftovers(scratch) == []  # ... the next run that needs the temp folder does


@needs_cbc
def test_a_web_worker_stopped_mid_cbc_leaves_no_cbc_and_no_files(tmp_path, monkeypatch):
    from cpflow.web import tasks
    from cpflow.web.jobs import Gone, Jobs
    from cpflow.web.limits import Limits

    scratch = scratch_of(tmp_path)
    monkeypatch.setenv("TMPDIR", str(scratch))  # the workers' temp folder ...
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # ... and the server's, which this process read before
    text = CBC_BUSY.read_text()
    ask = {
        "puzzle": text,
        "name": "busy",
        "input_format": "auto",
        "index": 1,
        "engine": "ilp-cbc",
        "time_limit": 60,
        "allow_touch": True,
    }

    async def main():
        jobs = Jobs(Limits(workers=1))
        jobs.start()
        try:
            waited = time.monotonic()

            async def gone_once_cbc_runs() -> bool:  # the client leaves
                assert time.monotonic() - waited < HANG_GUARD, "CBC never started"
                return bool(solvers_in(scratch))

            with pytest.raises(Gone):
                await jobs.run(tasks.solve, ask, gone_once_cbc_runs)
        finally:
            jobs.stop()

    asyncio.run(main())
    assert until(lambda: not solvers_in(scratch), GONE_GUARD), f"outlived its worker: {solvers_in(scratch)}"
    assert leftovers(scratch) == []


@pytest.mark.skipif("ilp-highs" not in available(), reason="the ilp-highs engine is not installed")
@pytest.mark.skipif(not LARGE.is_dir(), reason="../shared/puzzles/large is absent")
def test_ctrl_c_stops_a_highs_solve_at_once():
    """HiGHS runs in this process: its solve must not keep Python from seeing the interrupt."""
    began = time.monotonic()
    slow = LARGE / "adc2015_20x36_Q34.txt"  # with BUSY_RULES: no search first, HiGHS runs for minutes
    code, out, err = interrupted(
        "solve", "--engine", "ilp-highs", BUSY_RULES, slow, ready=lambda _: time.monotonic() > began + 4
    )
    assert_stopped_cleanly(code, err)
    assert time.monotonic() - began < 4 + 10


def test_a_forked_solver_is_killed_at_the_deadline(tmp_path):
    from cpflow.clock import Deadline
    from cpflow.engines import children

    pid_file = tmp_path / "pid"

    def stubborn() -> None:  # a solver that looks at no deadline
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    began = time.monotonic()
    assert children.fork(stubborn, Deadline(1.0)) is None
    assert time.monotonic() - began < 1.0 + 2.0
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_a_worker_ended_while_it_starts_dies_quietly(capfd):
    """The CLI's SIGTERM handler raises KeyboardInterrupt, and a forked worker keeps it until it sets its
    own: a worker the parent ends at once (Ctrl-C as the pool starts) printed a traceback, and lived on."""
    from cpflow.workflows import batch

    def as_interrupt(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, as_interrupt)
    try:
        with batch.interrupts_held():
            worker = batch._Worker(str, None)
            worker.process.terminate()  # before the child can set its own handlers
        worker.process.join(10)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert worker.process.exitcode == -signal.SIGTERM
    assert "Traceback" not in capfd.readouterr().err

"""Batches on a Dask cluster (--cluster): the same answers, in the same order, as a local run;
worker deaths survived; bad input refused for its puzzle only; mismatched workers refused.

One LocalCluster of two worker processes serves most tests through its scheduler's
address (as a remote cluster would be used); `--cluster local:2` is run once, by generate.
The fault test starts a scheduler and two workers with Dask's own commands.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES, project_puzzles
from cpflow.board.formats import load, load_solution
from cpflow.board.grid import Solution
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.engines import catalog, memory
from cpflow.results import Status
from cpflow.workflows import cluster
from cpflow.workflows.batch import Failed, Where, each, uniqueness_all
from cpflow.workflows.compare import Attempt, attempt
from cpflow.workflows.unique import Verdict

runner = CliRunner()
BATCH = [
    PUZZLES / name
    for name in ("gen_10x10_03.txt", "starter_9x9.txt", "gen_7x7_01.txt", "hex_7x7_01.txt", "holes_8x8_02.txt")
]
UNSOLVABLE = project_puzzles(solvable=False)


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def address():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, **cluster.LOCAL_CLUSTER) as here:
        yield here.scheduler_address


def without_seconds(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in record.items() if "seconds" not in k} for record in records]


@pytest.mark.parametrize("command", ["solve", "unique", "count"])
def test_a_batch_on_a_cluster_prints_what_a_local_run_prints_in_input_order(address, command):
    files = [*BATCH, *UNSOLVABLE]
    here = run(command, "--format", "json", *files)
    there = run(command, "--format", "json", "--cluster", address, *files)
    assert there.exit_code == here.exit_code == (0 if command == "count" else 1)
    records = [json.loads(line) for line in there.stdout.splitlines()]
    assert without_seconds(records) == without_seconds([json.loads(line) for line in here.stdout.splitlines()])
    assert [record["file"] for record in records] == [str(f) for f in files]
    for record, file in zip(records, files, strict=True):
        puzzle = load(file)[0]
        for paths in [record.get("paths")] + [s["paths"] for s in record.get("solutions", [])]:
            if paths:  # solved on a worker, checked here again
                solution = Solution({colour: tuple(map(tuple, path)) for colour, path in paths.items()})
                assert violations(puzzle, solution) == []


def test_compare_on_a_cluster_gives_the_local_statuses_and_writes_every_run(address, tmp_path):
    files = [BATCH[0], BATCH[1], UNSOLVABLE[0]]
    options = ["-e", "cpsat", "-e", "cpsat-circuit", "--repeat", "2"]
    here = run("compare", *options, "--json", tmp_path / "here.json", *files)
    there = run(
        "compare",
        *options,
        "--json",
        tmp_path / "there.json",
        "--csv",
        tmp_path / "there.csv",
        "--cluster",
        address,
        *files,
    )
    assert there.exit_code == here.exit_code == 0, there.output
    rows = json.loads((tmp_path / "there.json").read_text())
    assert without_seconds(rows) == without_seconds(json.loads((tmp_path / "here.json").read_text()))
    assert [(row["contender"], row["status"], row["repeats"]) for row in rows[-2:]] == [
        ("cpsat", "unsolvable", 2),
        ("cpsat-circuit", "unsolvable", 2),
    ]
    assert len((tmp_path / "there.csv").read_text().splitlines()) == 1 + len(rows) == 7


def test_generate_makes_the_same_files_for_a_seed_here_on_a_pool_and_on_a_local_cluster(tmp_path):
    for where, options in (("here", []), ("pool", ["--jobs", "2"]), ("cluster", ["--cluster", "local:2"])):
        made = run("generate", "--size", "8x7", "--count", "4", "--seed", "5", "--out", tmp_path / where, *options)
        assert made.exit_code == 0, made.output
    here = {p.name: p.read_text() for p in (tmp_path / "here").iterdir()}
    assert len(here) == 8
    for where in ("pool", "cluster"):
        assert {p.name: p.read_text() for p in (tmp_path / where).iterdir()} == here


def test_workers_of_another_cpflow_version_are_refused(address, monkeypatch):
    monkeypatch.setattr(cluster, "here", lambda: "0.0.0-other")
    refused = run("solve", "--cluster", address, BATCH[0])
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.startswith("cpflow: worker tcp://") and refused.stderr.strip().endswith(
        "runs cpflow 0.1.0, this is 0.0.0-other"
    )


def test_bad_input_on_a_worker_is_refused_for_its_item_and_the_others_go_on(address):
    puzzle = load(BATCH[0])[0]
    attempts = [
        Attempt(puzzle, "cpsat", None, 1),
        Attempt(puzzle, "no-such-engine", None, 1),
        Attempt(puzzle, "cpsat", None, 1),
    ]
    first, refused, last = each(attempt, attempts, Where(cluster=address))
    assert first.status is last.status is Status.SOLVED
    assert isinstance(refused, Failed) and refused.line.startswith("cpflow: ") and "no-such-engine" in refused.line


def test_an_unexpected_error_on_a_worker_is_its_items_verdict_and_the_others_go_on(address):
    puzzle = load(BATCH[0])[0]
    attempts = [
        Attempt(puzzle, "cpsat", None, 1),
        Attempt(puzzle, "cpsat", "soon", 1),
        Attempt(puzzle, "cpsat", None, 1),
    ]
    first, broken, last = each(attempt, attempts, Where(cluster=address))  # "soon" breaks the solve (a TypeError)
    assert first.status is last.status is Status.SOLVED
    assert isinstance(broken, Failed) and broken.bug and broken.line.startswith(f"{BATCH[0]}: error: TypeError: ")


def test_a_puzzle_refused_on_bad_input_is_said_for_it_alone_and_the_batch_exits_2(monkeypatch):
    small, large = PUZZLES / "starter_5x5.txt", PUZZLES / "gen_20x20_01.txt"
    need = catalog.ENGINES["cpsat"].model_bytes(load(small)[0])
    monkeypatch.setattr(memory, "free_memory", lambda: 2 * need)  # enough for the small board only
    result = run("solve", "--quiet", small, large, small)
    assert result.exit_code == 2
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [[str(small), "solved"]] * 2
    assert f"cpflow: {large}: the cpsat model" in result.stderr


def test_bad_cluster_addresses_and_jobs_with_cluster_are_usage_errors():
    assert run("solve", "--cluster", "not an address", BATCH[0]).exit_code == 2
    for address in ("local:0", "local:00", "tcp://127.0.0.1:0", "local:x"):
        began = time.monotonic()
        result = run("solve", "--cluster", address, BATCH[0])
        assert result.exit_code == 2 and time.monotonic() - began < 5, (address, result.stderr)  # refused at once
    assert "starts no worker" in run("solve", "--cluster", "local:0", BATCH[0]).stderr
    assert run("unique", "--jobs", "2", "--cluster", "local:2", BATCH[0]).exit_code == 2
    assert Where.of(1, "tcp://10.0.0.5:8786") == Where(1, "tcp://10.0.0.5:8786")
    assert Where.of(3, None) == Where(3)


def test_mismatch_names_the_worker_and_both_versions():
    assert cluster.mismatch({"tcp://a:1": "0.1.0", "tcp://b:2": "0.1.0"}, "0.1.0") is None
    assert cluster.mismatch({"tcp://b:2": "0.2.0"}, "0.1.0") == "worker tcp://b:2 runs cpflow 0.2.0, this is 0.1.0"
    assert "has no cpflow" in cluster.mismatch({"tcp://b:2": None}, "0.1.0")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dask(*args) -> subprocess.Popen:
    """A `dask` command in its own process group (so that it can be killed whole, nanny and worker)."""
    command = [str(Path(sys.executable).with_name("dask")), *args]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def test_a_worker_killed_mid_batch_loses_nothing_every_answer_arrives_once():
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    files = [p for p in project_puzzles() if p.name.startswith(("gen_20x20", "gen_30x30"))]
    puzzles = [load(p)[0] for p in files]
    started = [dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    try:
        for name in ("w1", "w2"):
            worker = ["worker", address, "--nthreads", "1", "--name", name, "--no-dashboard", "--host", "127.0.0.1"]
            started.append(dask(*worker))
        wait_for_workers(address, 2)
        failed: list[BaseException] = []  # the killer's failure, raised here (a thread's is lost)
        killer = threading.Thread(target=_caught, args=(failed, kill_mid_task, address, "w2", started[2]))
        killer.start()  # beside the batch: w2 is killed as soon as it works on a task, however fast the tasks
        answers = [answer.answer for answer in uniqueness_all(puzzles, Where(cluster=address))]
        killer.join(timeout=60)
        assert not failed, failed
        assert started[2].wait(timeout=10) is not None and len(puzzles) > 2
        assert len(answers) == len(puzzles)
        assert all(answer.verdict is Verdict.UNIQUE for answer in answers)
        intended = [
            (load_solution(puzzle, file.with_suffix(".solution.txt")),)
            for puzzle, file in zip(puzzles, files, strict=True)
        ]
        assert [answer.solutions for answer in answers] == intended  # each in its place, once
    finally:
        for process in reversed(started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


def test_a_scheduler_without_workers_is_given_up_in_one_line_within_30_s(monkeypatch):
    from distributed import LocalCluster

    assert cluster.CONNECT_SECONDS + cluster.WORKERS_SECONDS <= 30
    monkeypatch.setattr(cluster, "WORKERS_SECONDS", 2)  # the wait itself, not its length, is under test
    with LocalCluster(n_workers=0, **cluster.LOCAL_CLUSTER) as empty:
        began = time.monotonic()
        result = run("solve", "--cluster", empty.scheduler_address, BATCH[0])
    assert result.exit_code == 2 and time.monotonic() - began < 15
    assert result.stderr == f"cpflow: the Dask scheduler at {empty.scheduler_address} has no workers after 2 s\n"


@pytest.mark.timeout(120)
def test_a_cluster_whose_every_worker_is_gone_is_given_up_in_one_line(tmp_path):
    from test_interrupts import QUICK, slow_board

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    started = [dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    try:
        worker = ["worker", address, "--nthreads", "1", "--name", "only", "--no-dashboard", "--host", "127.0.0.1"]
        started.append(dask(*worker))
        wait_for_workers(address, 1)
        command = [sys.executable, "-m", "cpflow", "solve", "-q", "--allow-touch", "--cluster", address]
        with subprocess.Popen(
            [*command, str(QUICK), str(slow_board(tmp_path))], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as process:
            assert process.stdout.readline().split()[:2] == [str(QUICK), "solved"]
            kill_mid_task(address, "only", started[1])
            gone = time.monotonic()
            code = process.wait(timeout=60)
            assert time.monotonic() - gone < 30  # not forever: the scheduler would wait for a worker
            lines = process.stderr.read().splitlines()
        assert code == 2
        assert lines[-1].startswith(f"cpflow: every worker of the Dask cluster at {address} is gone")
    finally:
        for process in reversed(started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


def _caught(failed: list[BaseException], work, *args) -> None:
    try:
        work(*args)
    except BaseException as error:  # noqa: BLE001 - handed to the test's thread
        failed.append(error)


def kill_mid_task(address: str, name: str, process: subprocess.Popen) -> None:
    """Kill the worker called `name` (its whole process group) once it is working on a task."""
    from distributed import Client

    with Client(address, timeout=30) as client:
        (worker,) = [a for a, w in client.scheduler_info()["workers"].items() if w["name"] == name]
        waited = time.monotonic()
        while not client.processing([worker])[worker] and time.monotonic() - waited < 30:
            time.sleep(0.01)
        assert client.processing([worker])[worker], "the worker was never given a task"
        os.killpg(process.pid, signal.SIGKILL)


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    began = time.monotonic()
    with Client(address, timeout=30) as client:
        client.wait_for_workers(count, timeout=max(1, 60 - (time.monotonic() - began)))


def test_ctrl_c_cancels_a_batch_on_a_local_cluster_keeps_what_was_printed_and_exits_130(tmp_path, monkeypatch):
    from test_interrupts import QUICK, assert_stopped_cleanly, interrupted, slow_board

    slow = slow_board(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    code, out, err = interrupted("solve", "-q", "--allow-touch", "--cluster", "local:2", QUICK, slow, slow)
    assert_stopped_cleanly(code, err)
    assert out.split()[:2] == [str(QUICK), "solved"] and len(out.splitlines()) == 1
    assert list(temp.iterdir()) == []  # Dask's scratch space (its lock files) went with the command


def test_a_local_cluster_leaves_no_file_behind(tmp_path):
    """Every run left dask-scratch-space/{global,purge}.lock in the temp folder."""
    from test_interrupts import QUICK

    temp = tmp_path / "temp"
    temp.mkdir()
    command = [sys.executable, "-m", "cpflow", "solve", "-q", "--cluster", "local:2", str(QUICK)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "TMPDIR": str(temp)})
    assert done.returncode == 0 and done.stdout.split()[1] == "solved"
    assert list(temp.iterdir()) == []

"""Ctrl-C: the whole command stops at once, keeps what it finished, and exits 130.

Each test runs `cpflow` as a terminal would, in its own process group, and sends SIGINT
to the group once the first result is out. The slow board is an open 16x16 grid whose
one colour joins two corners of the same checkerboard colour: with paths allowed to
touch themselves, no parity argument is in the model, and the search runs for minutes.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import PUZZLES
from cpflow.board.formats import load, load_solution
from cpflow.board.verify import violations

QUICK = PUZZLES / "starter_5x5.txt"
HANG_GUARD = 60  # seconds before a test gives up on a command that ignored the interrupt


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


def has_lines(path: Path, lines: int):
    return lambda _: path.exists() and len(path.read_text().splitlines()) >= lines


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


def test_ctrl_c_stops_a_count(tmp_path):
    code, out, err = interrupted("count", "--allow-touch", "--limit", "1000000", QUICK, slow_board(tmp_path))
    assert_stopped_cleanly(code, err)
    assert out.splitlines()[0].startswith(f"{QUICK}: exactly 1 solution") and len(out.splitlines()) == 1


def test_ctrl_c_keeps_the_finished_runs_of_compare_in_csv_and_json(tmp_path):
    runs_csv, runs_json = tmp_path / "runs.csv", tmp_path / "runs.json"
    args = ["compare", "-e", "cpsat", "--allow-touch", "--csv", runs_csv, "--json", runs_json]
    code, out, err = interrupted(*args, QUICK, slow_board(tmp_path), ready=has_lines(runs_csv, 2))
    assert_stopped_cleanly(code, err)
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

"""Puzzles from a stream that stays open (a FIFO, a pipe): each is answered as it arrives."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys

import pytest

from conftest import PUZZLES

STARTER = (PUZZLES / "starter_5x5.txt").read_text()
SIX = (PUZZLES / "starter_6x6.txt").read_text()


def line_within(stream, seconds: float) -> str:
    """The next line of a process's output, or fail when none comes in time (the stream stays open)."""
    chooser = selectors.DefaultSelector()
    chooser.register(stream, selectors.EVENT_READ)
    assert chooser.select(seconds), f"no answer within {seconds} s"
    return stream.readline()


def cpflow(*args: str, **options) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cpflow", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options
    )


def test_a_stdin_that_stays_open_is_answered_puzzle_by_puzzle():
    process = cpflow("solve", "-", "-f", "json", stdin=subprocess.PIPE)
    try:
        process.stdin.write(STARTER + "\n")
        process.stdin.flush()
        first = json.loads(line_within(process.stdout, 30))
        assert first["status"] == "solved" and first["index"] == 1
        process.stdin.write(SIX + "\n")
        process.stdin.flush()
        second = json.loads(line_within(process.stdout, 30))
        assert second["status"] == "solved" and second["index"] == 2 and second["width"] == 6
        process.stdin.close()
        assert process.wait(30) == 0
    finally:
        process.kill()


def test_a_fifo_is_read_as_a_stream_with_errors_located_in_it(tmp_path):
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)
    process = cpflow("unique", str(fifo), "-k", "--format", "json")
    try:
        with fifo.open("w") as writer:
            writer.write("5 5\n" + STARTER)  # the header format: answered after its 5th row, no blank line needed
            writer.flush()
            assert json.loads(line_within(process.stdout, 30))["verdict"] == "unique"
            writer.write("\nRX\n\nRB\nRB\n\n")  # the piece on line 8 is bad; the one after it is read on
            writer.flush()
            assert (
                line_within(process.stderr, 30)
                == f"{fifo}:8:1: colour 'R' appears once; each colour needs exactly 2 endpoints\n"
            )
            answer = json.loads(line_within(process.stdout, 30))
            assert (answer["verdict"], answer["index"], answer["width"]) == ("unique", 2, 2)
        assert process.wait(30) == 2
    finally:
        process.kill()


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_a_stream_with_no_puzzle_is_one_line_and_exit_2(text):
    done = subprocess.run([sys.executable, "-m", "cpflow", "solve", "-"], input=text, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["<stdin>: the stream ended with no puzzle in it"]

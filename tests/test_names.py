"""A file's name is shown, never obeyed: control characters in it (a terminal's escape sequences, a
newline) are escaped in every line of text, and carried as they are in JSON (issue 42)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES
from cpflow.cli.lines import shown

HOSTILE = "a\x1b[2J\x1b]0;title\x07b\nc\u202ed"  # clear screen, window title, bell, newline, right-to-left override
ESCAPED = "a\\x1b[2J\\x1b]0;title\\x07b\\nc\\u202ed"


def cpflow(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cpflow", *map(str, args)], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def named(tmp_path: Path) -> Path:
    """A solvable puzzle whose file name holds control characters."""
    path = tmp_path / f"{HOSTILE}.txt"
    shutil.copy(PUZZLES / "starter_5x5.txt", path)
    return path


def assert_harmless(text: str) -> None:
    assert not any(ch in text for ch in "\x1b\x07\u202e"), text


def test_shown_escapes_control_characters_and_leaves_the_rest():
    assert shown(HOSTILE) == ESCAPED
    assert shown("plain name, é and 日本.txt") == "plain name, é and 日本.txt"


@pytest.mark.parametrize("args", [["solve", "-q"], ["solve", "-f", "text"], ["unique", "-q"], ["count"], ["verify"]])
def test_a_hostile_name_is_escaped_in_text_lines(named, args):
    done = cpflow(*args, named.name, cwd=named.parent)
    assert done.returncode == (0 if args[0] != "verify" else 2), done.stderr  # verify: no solution given
    lines = (done.stdout + done.stderr).splitlines()
    assert_harmless(done.stdout + done.stderr)
    assert any(line.startswith(f"{'# ' if '-f' in args else ''}{ESCAPED}.txt") for line in lines), lines


def test_a_quiet_line_stays_one_line(named):
    done = cpflow("solve", "-q", named.name, named.name, cwd=named.parent)
    answers = done.stdout.splitlines()
    assert [line.split()[1] for line in answers[:2]] == ["solved", "solved"]
    assert len(answers) == 2  # no line split by the name's newline


def test_a_hostile_name_is_escaped_in_error_lines(tmp_path):
    bad = tmp_path / f"{HOSTILE}.txt"
    bad.write_text("AB\n..\n")  # colours with one endpoint each
    missing = f"{HOSTILE}-missing.txt"
    for name in (bad.name, missing):
        done = cpflow("solve", name, cwd=tmp_path)
        assert done.returncode == 2
        assert_harmless(done.stderr)
        assert done.stderr.startswith(ESCAPED) and len(done.stderr.splitlines()) == 1, done.stderr


def test_json_carries_the_name_as_it_is(named):
    done = cpflow("solve", "-f", "json", named.name, cwd=named.parent)
    assert done.returncode == 0
    assert json.loads(done.stdout)["file"] == named.name


def test_compare_s_table_escapes_the_name(named):
    done = cpflow("compare", "-e", "cpsat", named.name, cwd=named.parent)
    assert done.returncode == 0, done.stderr
    assert_harmless(done.stdout)
    assert ESCAPED.partition("\\n")[0] in done.stdout

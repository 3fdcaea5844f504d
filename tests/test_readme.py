"""README's quick start stays true: CI runs its test command, its solve command names a real puzzle."""

from __future__ import annotations

import re

from conftest import ROOT


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```(?:sh|bash)?\n(.+?)\n```", section, re.M | re.S)


def test_quick_start_has_exactly_two_one_line_commands():
    commands = quick_start_commands()
    assert len(commands) == 2 and all("\n" not in c for c in commands), commands


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start_commands()[1] in ci


def test_the_readme_solve_command_names_a_puzzle_in_the_collection():
    (puzzle,) = re.findall(r"puzzles/\S+\.txt", quick_start_commands()[0])
    assert (ROOT / puzzle).is_file()

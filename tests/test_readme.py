"""README, docs/ and models/ stay true: every example in them runs, or says why it does not.

A fenced block is one of:
- `console`: `$ cpflow ...` commands, each followed by the output it prints (times in
  seconds are compared as `N s`); run in a copy of `puzzles/`, as a user would from the
  repository, and the output must be what is shown;
- `sh`/`bash`: commands that must exit 0 (same copy; `# ...` comments dropped);
- a block after `<!-- puzzle -->`: text every reader of cpflow must read (a format's example);
- a block after `<!-- not run: WHY -->` or `<!-- output: WHERE FROM -->`: said, not run.
Any other block fails the test, so a new example is run or marked.

Links between them stay true too: every relative link names a file that exists (and a heading
of it, after `#`), and README links to every document in docs/.

The quick start's two commands are CI's own (.ci/run runs the second verbatim).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import PUZZLES, ROOT
from cpflow.board.formats import parse_with_solutions

FENCE = re.compile(r"^(?P<indent>[ ]*)```(?P<tag>\w*)\n(?P<body>.*?)\n(?P=indent)```", re.M | re.S)
MARK = re.compile(r"<!-- (puzzle|not run: .+?|output: .+?) -->\s*$")
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "models").glob("*.md"))]
SECONDS = re.compile(r"\d+\.\d+ s\b")
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)\)")


@dataclass(frozen=True)
class Block:
    document: Path
    line: int
    tag: str
    mark: str | None
    body: str

    def __str__(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text()
        for fence in FENCE.finditer(text):
            before = text[: fence.start()].rstrip("\n").splitlines()
            mark = MARK.search(before[-1]) if before else None
            body = textwrap.dedent(fence["body"])
            line = text[: fence.start()].count("\n") + 1
            found.append(Block(document, line, fence["tag"], mark[1] if mark else None, body))
    return found


BLOCKS = blocks()


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


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_every_block_is_run_or_says_why_not(block):
    assert block.tag in ("console", "sh", "bash") or block.mark, (
        f"{block}: mark the block <!-- puzzle -->, <!-- output: ... --> or <!-- not run: ... -->, or make it "
        "a console or sh example"
    )


@pytest.fixture(scope="module")
def user(tmp_path_factory) -> tuple[Path, dict]:
    """A folder as a user has it (the repository's puzzles/), and `cpflow` on the PATH."""
    home = tmp_path_factory.mktemp("user")
    shutil.copytree(PUZZLES, home / "puzzles")
    bin_ = home / "bin"
    bin_.mkdir()
    command = bin_ / "cpflow"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cpflow "$@"\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    env.pop("COLUMNS", None)
    return home, env


def run(line: str, user) -> subprocess.CompletedProcess:
    home, env = user
    return subprocess.run(line, shell=True, cwd=home, env=env, capture_output=True, text=True, timeout=240)


def same(text: str) -> str:
    return SECONDS.sub("N s", text).rstrip("\n")


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.tag == "console" and not b.mark], ids=str)
def test_console_examples_print_what_is_shown(block, user):
    shown = re.split(r"^\$ ", block.body, flags=re.M)[1:]
    assert shown, f"{block}: no '$ ' command"
    for example in shown:
        command, _, output = example.partition("\n")
        done = run(command, user)
        assert same(done.stdout) == same(output), f"{block}: {command}\n{done.stderr}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.tag in ("sh", "bash") and not b.mark], ids=str)
def test_shell_examples_exit_0(block, user):
    for line in block.body.splitlines():
        command = line.split("  #")[0].strip()
        if command:
            done = run(command, user)
            assert done.returncode == 0, f"{block}: {command}\n{done.stderr}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.mark == "puzzle"], ids=str)
def test_format_examples_are_read(block):
    assert parse_with_solutions(block.body + "\n", str(block))


def anchors(document: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings."""
    text = FENCE.sub("", document.read_text())
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def links() -> list[tuple[str, str]]:
    found = []
    for document in DOCUMENTS:
        for link in LINK.finditer(FENCE.sub("", document.read_text())):
            target = link["target"]
            if not re.match(r"[a-z]+:", target):
                found.append((str(document.relative_to(ROOT)), target))
    return found


@pytest.mark.parametrize(("document", "target"), links(), ids=lambda x: x)
def test_relative_links_lead_somewhere(document, target):
    path, _, anchor = target.partition("#")
    file = (ROOT / document).parent / path if path else ROOT / document
    assert file.exists(), f"{document}: no {path}"
    if anchor:
        assert anchor in anchors(file), f"{document}: no heading #{anchor} in {path or document}"


def test_readme_links_to_every_document_in_docs():
    readme = (ROOT / "README.md").read_text()
    missing = [d.name for d in sorted((ROOT / "docs").glob("*.md")) if f"(docs/{d.name})" not in readme]
    assert (ROOT / "docs").is_dir() and not missing, missing

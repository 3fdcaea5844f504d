"""Docs quote their figures from one source, and docs/api.md's examples run.

A measured figure in README, docs/ or models/ is a link to the table it comes from:
`[0.014 s](docs/figures/classic.md)` (a link to a table without a digit, `[the table](...)`, only
leads there). Each table in docs/figures/ is a bench script's output,
written by the script with `--save` under its date and its command (bench/common.py,
`recorded`). So a figure is written once, in its table, and quoted wherever it is said:
- every quoted figure appears in the table it links to;
- every table carries its date and a command of a bench script that writes it, and is quoted;
- README's prose gives no measurement that is not such a quote.
docs/api.md names every name of `cpflow.__all__` and no other, and its ```python examples run
from the repository's folder, each printing what the block marked `<!-- output: ... -->` after
it shows.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import sys
from pathlib import Path

import pytest

import cpflow
from conftest import ROOT

FIGURES = ROOT / "docs" / "figures"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "models").glob("*.md"))]
FENCE = re.compile(r"^[ ]*```(\w*)\n(.*?)\n[ ]*```", re.M | re.S)
QUOTE = re.compile(r"\[(?P<figure>[^\]]+)\]\((?P<target>[^)\s]*figures/[\w-]+\.md)\)")
MEASURE = re.compile(r"\d(?:[\d,.]*\d)?(?: ?(?:s|ms|MB|MiB|GB|GiB)\b|x\b|(?:-\d+)? times\b)")
API = ROOT / "docs" / "api.md"


def prose(document: Path) -> str:
    """The text of a document without its fenced blocks."""
    return FENCE.sub("", document.read_text())


def links() -> list[tuple[str, str, Path]]:
    """(document, link text, table) for every link to a table in docs/figures/."""
    return [
        (str(document.relative_to(ROOT)), quote["figure"], (document.parent / quote["target"]).resolve())
        for document in DOCUMENTS
        for quote in QUOTE.finditer(prose(document))
    ]


LINKS = links()
QUOTES = [(document, text, table) for document, text, table in LINKS if re.search(r"\d", text)]  # figures


def test_figures_are_quoted():
    assert len(QUOTES) >= 10 and any(d == "README.md" for d, _, _ in QUOTES)


@pytest.mark.parametrize(("document", "figure", "table"), QUOTES, ids=lambda x: str(x).split("/")[-1][:40])
def test_a_quoted_figure_is_in_its_table(document, figure, table):
    assert table.parent == FIGURES and table.is_file(), f"{document}: no table {table}"
    alone = rf"(?<![\w.]){re.escape(figure)}(?!\w|\.\d)"
    assert re.search(alone, table.read_text()), f"{document}: {figure!r} is not in {table.name}"


@pytest.mark.parametrize("table", sorted(FIGURES.glob("*.md")), ids=lambda p: p.name)
def test_a_table_carries_its_date_and_the_bench_script_that_writes_it(table):
    text = table.read_text()
    assert re.search(r"^- date: \d{4}-\d\d-\d\d$", text, re.M), f"{table.name}: no date"
    command = re.search(r"^- command: `python bench/(?P<script>\w+)\.py\b[^`]*`$", text, re.M)
    assert command, f"{table.name}: no command"
    script = ROOT / "bench" / f"{command['script']}.py"
    assert f'recorded("{table.stem}"' in script.read_text(), f"{script.name} does not write {table.name}"


@pytest.mark.parametrize("table", sorted(FIGURES.glob("*.md")), ids=lambda p: p.name)
def test_a_table_is_quoted(table):
    assert any(linked == table for _, _, linked in LINKS), f"nothing links to {table.name}"


def test_a_saved_table_is_what_the_script_printed_under_its_date_and_command(tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    common = importlib.import_module("common")
    monkeypatch.setattr(common, "FIGURES", tmp_path)
    monkeypatch.setattr(sys, "argv", ["bench/demo.py", "--count", "3", "--save"])
    for save in (False, True):
        with common.recorded(f"demo-{save}", save):  # written only when saved
            print("| kind | exact |\n|---|---|\n| square | 50 |")
    assert capsys.readouterr().out == "| kind | exact |\n|---|---|\n| square | 50 |\n" * 2
    (saved,) = tmp_path.iterdir()
    text = saved.read_text()
    assert saved.name == "demo-True.md" and text.endswith("\n\n| kind | exact |\n|---|---|\n| square | 50 |\n")
    assert "- command: `python bench/demo.py --count 3`" in text
    assert re.search(r"^- date: \d{4}-\d\d-\d\d$", text, re.M) and re.search(r"^- commit: \w+", text, re.M)


def test_readme_quotes_its_measurements_rather_than_retyping_them():
    text = QUOTE.sub("", prose(ROOT / "README.md"))
    text = re.sub(r"`[^`]*`", "", text)  # commands and their options
    assert not MEASURE.findall(text), "quote these from docs/figures/ (see tests/test_docs.py)"


def test_the_measure_pattern_finds_what_a_retyped_figure_looks_like():
    said = "takes 0.080 s, 3.9 s and 1.2 ms, peaks at 90 MB, 13x; 10-20 times slower; 5x5 to 50x50 boards"
    assert MEASURE.findall(said) == ["0.080 s", "3.9 s", "1.2 ms", "90 MB", "13x", "10-20 times"]


def api_names() -> set[str]:
    """The names docs/api.md's table gives: the code spans of each row's first cell."""
    cells = re.findall(r"^\| (`[^|]+) \|", API.read_text(), re.M)
    return {name for cell in cells for name in re.findall(r"`(\w+)", cell)}


def test_api_page_names_exactly_the_public_names():
    assert api_names() == set(cpflow.__all__)


def examples() -> list[tuple[int, str, str | None]]:
    """(line, code, what it prints or None) for each ```python block of docs/api.md."""
    text = API.read_text()
    fences = list(FENCE.finditer(text))
    found = []
    for fence, after in zip(fences, [*fences[1:], None], strict=True):
        if fence[1] != "python":
            continue
        between = text[fence.end() : after.start()] if after else ""
        shown = after[2] + "\n" if after and "<!-- output:" in between else None
        found.append((text[: fence.start()].count("\n") + 1, fence[2], shown))
    return found


@pytest.mark.parametrize(("line", "code", "shown"), examples(), ids=lambda x: f"line {x}" if isinstance(x, int) else "")
def test_an_api_example_runs_and_prints_what_is_shown(line, code, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"docs/api.md:{line}", "exec"), {})
    assert shown is not None, f"docs/api.md:{line}: mark what it prints with <!-- output: the example above -->"
    assert printed.getvalue() == shown

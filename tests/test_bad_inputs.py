"""The bad-input corpus (tests/bad_inputs/): every file is refused with exit 2 and one located line.

Each file is named for what is wrong with it and carries the suffix its format would
use (.txt, .level, .json). Bad encodings, sizes, every format and hostile content all
fail while reading, so every command that reads puzzles must say so the same way:
`path:line:col: message`, or `path: message` for the file as a whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpflow.cli import app

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
BAD_FILES = sorted(CORPUS.iterdir())
COMMANDS = ("solve", "unique", "count", "verify")  # verify takes one FILE; the others take many

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_the_corpus_holds_at_least_40_bad_files():
    assert len([path for path in BAD_FILES if path.is_file()]) >= 40


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_a_bad_file_exits_2_with_one_located_line_on_stderr(command, path):
    result = run(command, path)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and result.stderr.endswith("\n"), result.stderr
    assert lines[0].startswith(f"{path}:"), lines[0]
    assert "Traceback" not in lines[0]


# Files that once gave a traceback or were read as a puzzle, and the one line each gives now.
ONCE_ACCEPTED = {
    "control_c1_csi_as_colour.txt": ":2:1: not a text file (control character '\\x9b')",
    "line_separator_u2028.txt": ":1:4: not a text file (line separator '\\u2028')",
    "rtl_override_as_colour.txt": ":2:1: colour '\\u202e' is not printable",
    "native_tab_as_colour.txt": ":2:1: row 1 should be 4 cells with no spaces",
    "header_huge_digits.txt": ":1:1: number 999999999... is too large (5000 digits)",
    "native_wall_huge_digits.txt": ":3:7: number 999999999... is too large (5000 digits)",
    "level_superscript_digit.level": ":1:9: '²' is not a cell number of a 3x3 board",
    "level_size_huge_digits.level": ":1:1: number 999999999... is too large (5000 digits)",
    "level_path_of_one_cell.level": ":1:1: colour 'R' has both endpoints on r1c1",
    "level_shared_endpoint.level": ":1:1: r1c1 is an endpoint of both 'R' and 'G'",
    "json_deeply_nested_arrays.json": ": not JSON cpflow can read: arrays or objects nested too deep",
    "json_huge_integer.json": ": not JSON cpflow can read: a number is too long",
    "json_node_huge_coordinate.json": ":1:20: [0, 1000000000000000000000000000000] is not a node [row, col] or [row, ",
    "json_width_a_string.json": ':1:2: width must be a whole number from 1 to 1024, not "abc"',
    "json_size_smaller_than_nodes.json": ":1:27: node [0, 1] is outside the 1x1 board",
    "json_edge_to_itself.json": ":1:65: an edge from [0, 1] to itself",
    "json_colour_escape_sequence.json": ":1:58: colour '\\x1b[2J' is not one word of printable characters",
    "json_bridge_lane_alone.json": ":1:2: bridge [0, 1] has one lane; a bridge is two nodes, lanes 0 and 1",
    "json_node_twice.json": ":1:28: [0, 0] is listed twice among the nodes; a node is listed once",
    "json_edge_twice.json": ":1:57: the edge between [0, 1] and [0, 0] is listed twice",
}


@pytest.mark.parametrize(("name", "message"), ONCE_ACCEPTED.items())
def test_what_once_slipped_through_is_now_one_located_line(name, message):
    path = CORPUS / name
    result = run("solve", path)
    assert result.exit_code == 2 and result.stderr.startswith(f"{path}{message}"), result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"paths": {"R": [[0]]}}', ": paths must be lists of cells [row, col]"),
        ('{"paths": {"R": [[true, 0], [0, 2]]}}', ": paths must be lists of cells [row, col]"),
        ('{"paths": {"R": ' + "[" * 10_000 + "]" * 10_000 + "}}", ": not JSON cpflow can read: arrays or objects"),
        ('{"paths": {"R": [[0, ' + "9" * 5000 + "]]}}", ": not JSON cpflow can read: a number is too long"),
    ],
)
def test_a_bad_json_solution_file_exits_2_with_one_line(tmp_path, text, message):
    puzzle, solution = tmp_path / "p.txt", tmp_path / "s.json"
    puzzle.write_text("R.R\n...\n")
    solution.write_text(text)
    result = run("verify", puzzle, solution)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{solution}{message}") and len(result.stderr.splitlines()) == 1

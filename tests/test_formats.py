"""Reading and writing puzzles: round trips, format detection, and every kind of bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, board, project_puzzles
from cpflow.board.formats import MAX_CELLS, load, load_solution, parse, parse_solution, picture
from cpflow.board.grid import Puzzle
from cpflow.board.verify import violations
from cpflow.engines.pipeline import solve
from cpflow.errors import PuzzleFormatError
from cpflow.results import Status

CLASSIC = "R.G\n...\nR.G\n"


def test_classic_grid_reads_endpoints_in_reading_order():
    (puzzle,) = parse(CLASSIC)
    assert (puzzle.width, puzzle.height) == (3, 3)
    assert dict(puzzle.endpoints) == {"R": ((0, 0), (2, 0)), "G": ((0, 2), (2, 2))}


def test_zero_format_is_the_classic_grid_with_zeros():
    assert parse("r0g\n000\nr0g\n") == parse("r.g\n...\nr.g\n")


def test_header_format_with_character_rows_and_token_rows_agree():
    (chars,) = parse("3 2\nR.G\nR.G\n")
    (tokens,) = parse("3 2\n1 - 2\n1 0 2\n")
    assert list(chars.endpoints.values()) == list(tokens.endpoints.values())
    assert tokens.colours == ("1", "2")


def test_header_format_reads_multi_digit_colours_and_several_puzzles():
    text = "3 2\n10 . 11\n10 . 11\n\n2 2\n7 7\n. .\n"
    first, second = parse(text, "many.txt")
    assert set(first.colours) == {"10", "11"}
    assert dict(second.endpoints) == {"7": ((0, 0), (0, 1))}
    assert (first.name, second.name) == ("many.txt#1", "many.txt#2")


def test_header_character_rows_read_digits_as_colours():
    (puzzle,) = parse("4 2\n0..9\n0..9\n")
    assert dict(puzzle.endpoints) == {"0": ((0, 0), (1, 0)), "9": ((0, 3), (1, 3))}


def test_a_zero_and_nine_pair_in_character_rows_is_solved():
    (puzzle,) = parse("2 3\n09\n..\n09\n")
    result = solve(puzzle)
    assert result.status is Status.SOLVED
    assert violations(puzzle, result.solution) == []
    assert {cell for path in result.solution.paths.values() for cell in path} == set(puzzle.cells)


def test_header_token_rows_read_zero_dash_and_dot_as_empty():
    (puzzle,) = parse("4 2\n1 0 - 10\n1 . 0 10\n")
    assert dict(puzzle.endpoints) == {"1": ((0, 0), (1, 0)), "10": ((0, 3), (1, 3))}


def test_the_collections_stream_reads_with_comments_blank_lines_and_an_end_mark():
    text = "# Author: someone\n\n2 2\n01\n01\n\n# the next one\n# is wider\n3 1\na.a\n0 0\n5 5\nnot read\n"
    first, second = parse(text, "inputs")
    assert dict(first.endpoints) == {"0": ((0, 0), (1, 0)), "1": ((0, 1), (1, 1))}
    assert dict(second.endpoints) == {"a": ((0, 0), (0, 2))}


def test_a_comment_first_does_not_turn_the_stream_into_one_classic_grid():
    puzzles = parse("# Copyright\n\n2 1\nBB\n\n2 1\nCC\n", "janko")
    assert [(p.width, p.height, p.colours) for p in puzzles] == [(2, 1, ("B",)), (2, 1, ("C",))]


def test_a_hash_inside_a_board_is_a_colour_as_in_the_go_reader():
    (puzzle,) = parse("# comment\n2 2\n#a\n#a\n")
    assert set(puzzle.colours) == {"#", "a"}


def test_format_can_be_named_instead_of_detected():
    # Read as classic, '0' is a colour; read as zero format, it is empty.
    assert "0" in parse("R0R\n0..\n", fmt="classic")[0].colours
    assert parse("R0R\n0..\n", fmt="zero")[0].colours == ("R",)
    with pytest.raises(PuzzleFormatError, match="colour '0' appears 3 times"):
        parse("R0R\n0.0\n", fmt="classic")


@pytest.mark.parametrize("text", [CLASSIC, "3 2\n10 . 11\n10 . 11\n", "ab\nab\n"])
def test_picture_round_trips(text):
    (puzzle,) = parse(text)
    assert parse(picture(puzzle)) == [puzzle]


@st.composite
def puzzles(draw) -> Puzzle:
    width, height = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = [(r, c) for r in range(height) for c in range(width)]
    chosen = draw(st.permutations(cells))
    pairs = draw(st.integers(1, len(cells) // 2)) if len(cells) >= 2 else 0
    names = draw(st.sampled_from(["letters", "numbers"]))
    colours = [chr(ord("A") + i) if names == "letters" else str(10 + i) for i in range(pairs)]
    return Puzzle.build(width, height, {c: (chosen[2 * i], chosen[2 * i + 1]) for i, c in enumerate(colours)})


@st.composite
def character_puzzles(draw) -> Puzzle:
    """Small boards whose colours are single characters, digits `0`-`9` among them."""
    width, height = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    cells = [(r, c) for r in range(height) for c in range(width)]
    chosen = draw(st.permutations(cells))
    names = draw(st.lists(st.sampled_from("0123456789RGBa#"), min_size=1, max_size=len(cells) // 2, unique=True))
    return Puzzle.build(width, height, {c: (chosen[2 * i], chosen[2 * i + 1]) for i, c in enumerate(names)})


@settings(max_examples=60, deadline=None)
@given(character_puzzles())
def test_classic_and_header_character_rows_read_back_the_same_board_and_verdict(puzzle):
    classic, header = picture(puzzle, fmt="classic"), picture(puzzle, fmt="header")
    assert header.splitlines()[1:] == classic.splitlines()
    (from_classic,) = parse(classic)
    (from_header,) = parse(header)
    assert from_classic == from_header
    assert {c: set(pair) for c, pair in from_header.endpoints.items()} == {
        c: set(pair) for c, pair in puzzle.endpoints.items()
    }
    assert solve(from_classic).status is solve(from_header).status


@given(puzzles().filter(lambda p: p.colours))
def test_any_board_round_trips_through_picture(puzzle):
    (again,) = parse(picture(puzzle))
    assert {c: set(pair) for c, pair in again.endpoints.items()} == {
        c: set(pair) for c, pair in puzzle.endpoints.items()
    }
    assert (again.width, again.height) == (puzzle.width, puzzle.height)


@pytest.mark.parametrize("path", project_puzzles(), ids=lambda p: p.name)
def test_stored_solutions_read_back_and_pass_the_verifier(path):
    (puzzle,) = load(path)
    solution = load_solution(puzzle, path.with_suffix(".solution.txt"))
    assert violations(puzzle, solution) == []
    assert picture(puzzle, solution) == path.with_suffix(".solution.txt").read_text()


def test_a_solution_grid_with_a_gap_reads_into_paths_the_verifier_rejects():
    puzzle = board(CLASSIC)
    solution = parse_solution(puzzle, "RGG\nRRG\nR.G\n")
    assert violations(puzzle, solution)


BAD_TEXT = [
    ("", " empty file"),
    ("\n  \n\n", " empty file"),
    ("R.G\n..\nR.G\n", "2:3: row has 2 cells, the first row has 3"),
    ("R.G\n....\nR.G\n", "2:4: row has 4 cells, the first row has 3"),
    ("R.G\n...\n..G\n", "1:1: colour 'R' appears once"),
    ("R.R\n.R.\nGG.\n", "2:2: colour 'R' appears 3 times or more"),
    ("...\n...\n", "1:1: no colours"),
    ("R.G\n\nR.G\n", "2:1: blank line inside the board"),
    ("R G\nR.G\n", "1:2: space inside a row"),
    ("3 3\nR.G\nR.G\n", "4:1: the header promises 3 rows, found 2"),
    ("3 2\n1 . 2\n1 2 3 4\n", "3:7: row has 4 cells, the header says 3"),
    ("3 2\nR.G\nR.\n", "3:3: row has 2 cells, the header says 3"),
    ("3 1\n0..\n", "2:1: colour '0' appears once"),
    ("# a comment\n0 0\n3 1\n0.0\n", "2:1: no puzzle before the end mark"),
    ("3 2\nR.G\nR.G\nxyz\n", "4:1: expected a header line"),
    ("0 3\n", "1:1: board of 0x3 cells has no cells"),
    (f"{MAX_CELLS + 1} 1\n", "1:1: board of 65537x1 is over the size limit"),
    ("R" + "." * 300 + "R\n" + ("." * 302 + "\n") * 300, "1:1: board of 302x301 is over the size limit"),
]


@pytest.mark.parametrize(("text", "where_what"), BAD_TEXT)
def test_bad_text_is_refused_with_its_location(text, where_what):
    with pytest.raises(PuzzleFormatError) as caught:
        parse(text, "bad.txt")
    assert str(caught.value).startswith(f"bad.txt:{where_what}")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("data", "where_what"),
    [
        (b"R.G\nR.\xffG\n", "2:3: not a text file (undecodable byte)"),
        (b"R.G\n\x00\x01\x02\n", "2:1: not a text file (control character"),
    ],
)
def test_binary_files_are_refused(tmp_path, data, where_what):
    path = tmp_path / "binary.txt"
    path.write_bytes(data)
    with pytest.raises(PuzzleFormatError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}:{where_what}")


def test_a_missing_file_and_a_directory_are_refused(tmp_path):
    with pytest.raises(PuzzleFormatError, match=r"\.txt: no such file$"):
        load(tmp_path / "nowhere.txt")
    with pytest.raises(PuzzleFormatError, match=r": is a directory"):
        load(tmp_path)


def test_a_file_too_large_to_be_a_board_is_refused_unread(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"." * (5 * 1024 * 1024))
    with pytest.raises(PuzzleFormatError, match=r": file is larger than the limit"):
        load(path)


def test_project_puzzles_all_load():
    assert len(list(PUZZLES.glob("*.txt"))) >= 7
    for path in project_puzzles() + project_puzzles(solvable=False):
        assert load(path)[0].colours

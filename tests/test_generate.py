"""The generator: reproducible, every puzzle proven unique, repairs instead of throwing away."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from cpflow.board.formats import load, load_solution, picture
from cpflow.board.formats import parse as load_text
from cpflow.board.grid import Rules
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.errors import GenerationFailed, OverLimit
from cpflow.workflows.generate.cover import cover
from cpflow.workflows.generate.order import SHORTEST, BadOption, Order, colour_range, default_colours, plain, size_of
from cpflow.workflows.generate.pack import generate_many, generate_one
from cpflow.workflows.generate.prove import generate, make_unique
from cpflow.workflows.unique import Verdict, uniqueness

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_unique_and_written_whole(made) -> None:
    """The puzzle made has exactly its solution, which the verifier passes, and its file reads back the same board."""
    assert violations(made.puzzle, made.solution) == []
    found = uniqueness(made.puzzle)
    assert found.verdict is Verdict.UNIQUE and found.solutions == (made.solution,)
    (again,) = load_text(picture(made.puzzle))
    assert again.neighbours == made.puzzle.neighbours


def test_the_same_seed_makes_the_same_puzzles_and_another_seed_others():
    first = [picture(g.puzzle, g.solution) for g in generate_many(Order(plain(7, 6), (5, 7)), 3, seed=11)]
    again = [picture(g.puzzle, g.solution) for g in generate_many(Order(plain(7, 6), (5, 7)), 3, seed=11)]
    other = [picture(g.puzzle, g.solution) for g in generate_many(Order(plain(7, 6), (5, 7)), 3, seed=12)]
    assert first == again
    assert first != other


@pytest.mark.parametrize(("width", "height", "colours"), [(5, 5, (3, 5)), (8, 5, (4, 7)), (9, 9, (6, 10))])
def test_generated_puzzles_are_unique_with_their_solution_in_range(width, height, colours):
    for made in generate_many(Order(plain(width, height), colours), 2, seed=width * height):
        puzzle = made.puzzle
        assert (puzzle.width, puzzle.height) == (width, height)
        assert colours[0] <= len(puzzle.colours) <= colours[1]
        assert violations(puzzle, made.solution) == []
        found = uniqueness(puzzle)
        assert found.verdict is Verdict.UNIQUE and found.solutions == (made.solution,)


def test_a_cover_with_two_solutions_is_repaired_by_splitting_a_path():
    # The intended solution of a board whose blue and green paths can trade sides.
    paths = [
        ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (1, 2)),
        ((0, 3), (0, 2), (0, 1), (1, 1)),
        ((2, 1), (2, 2)),
    ]
    puzzle, solution, repairs = make_unique(Order(plain(4, 4), (3, 6), time_limit=10), plain(4, 4), paths, Random(1))
    assert repairs >= 1 and len(puzzle.colours) == 3 + repairs
    assert violations(puzzle, solution) == []
    assert uniqueness(puzzle).verdict is Verdict.UNIQUE


def test_an_impossible_colour_count_fails_clearly():
    with pytest.raises(GenerationFailed, match="4x4 board by 1-1 non-touching paths"):
        cover(plain(4, 4), (1, 1), Random(0), tries=50)


def test_size_and_colour_options_are_read_or_refused():
    assert size_of("12x8") == (12, 8) and colour_range("5", 49) == (5, 5) and colour_range("4-9", 49) == (4, 9)
    for bad in ("7", "0x9", "1x3", "axb"):
        with pytest.raises(ValueError):
            size_of(bad)
    for bad in ("0", "5-4", "x", "17"):
        with pytest.raises(ValueError):
            colour_range(bad, 49)


def test_an_order_is_parsed_from_the_options_as_the_cli_and_the_web_give_them():
    options = {"shape": "hex", "holes": 2, "walls": 3, "warps": 1, "touch_proof": True, "time_limit": 5}
    parsed = Order.parse("8x6", "5-9", grade="easy", **options)
    assert parsed == Order(
        plain(8, 6, "hex"), (5, 9), holes=2, walls=3, touch_proof=True, time_limit=5, grade="easy", warps=1
    )
    assert Order.parse("10x10", holes=40).colours == default_colours(10, 10, 40)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"size": "7"}, "size"),
        ({"size": "5x5", "holes": 20}, "holes"),
        ({"size": "5x5", "shape": "hex", "bridges": 1}, "bridges"),
        ({"size": "5x5", "colours": "9"}, "colours"),
        ({"size": "5x5", "colours": "9", "holes": 20}, "holes"),  # the first option wrong is named
    ],
)
def test_an_order_that_cannot_be_names_the_option(options, field):
    with pytest.raises(BadOption) as refused:
        Order.parse(**options)
    assert refused.value.field == field


def test_a_server_refuses_a_size_over_its_caps_before_the_board_is_built():
    asked = []
    with pytest.raises(OverLimit, match="too big here"):
        Order.parse("256x256", caps=lambda width, height: asked.append((width, height)) or "too big here")
    assert asked == [(256, 256)]


def test_generate_cli_writes_unique_puzzles_with_verified_solutions(tmp_path):
    result = run("generate", "--size", "6x5", "--count", "3", "--seed", "4", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"gen_6x5_0{i}{end}" for i in (1, 2, 3) for end in (".solution.txt", ".txt")]
    for number in (1, 2, 3):
        (puzzle,) = load(tmp_path / f"gen_6x5_0{number}.txt")
        assert violations(puzzle, load_solution(puzzle, tmp_path / f"gen_6x5_0{number}.solution.txt")) == []
    assert run("unique", "--quiet", tmp_path).exit_code == 0


def test_generate_cli_refuses_to_overwrite_and_writes_nothing(tmp_path):
    (tmp_path / "gen_6x5_02.txt").write_text("kept\n")
    result = run("generate", "--size", "6x5", "--count", "3", "--seed", "4", "--out", tmp_path)
    assert result.exit_code == 2
    assert "gen_6x5_02.txt: file exists" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["gen_6x5_02.txt"]
    assert (tmp_path / "gen_6x5_02.txt").read_text() == "kept\n"
    assert run("generate", "--size", "6x5", "--seed", "4", "--out", tmp_path, "--force").exit_code == 0


def test_generate_cli_prints_without_out_and_reports_failure_and_bad_usage():
    printed = run("generate", "--size", "5x5", "--seed", "2")
    assert printed.exit_code == 0
    title, *lines = printed.stdout.split("\n\n")[0].splitlines()
    assert title.startswith("gen_5x5_01: ") and "proven unique" in title and len(lines) == 5
    failed = run("generate", "--size", "4x4", "--colours", "1")
    assert failed.exit_code == 1 and "non-touching paths" in failed.stderr and failed.stdout == ""
    assert run("generate", "--size", "5").exit_code == 2
    small = run("generate", "--size", "2x2")  # was said of --holes, which nobody gave
    assert small.exit_code == 2 and "--size: '2x2' is not a size like 7x7 (6 cells at least)" in small.stderr
    assert run("generate", "--size", "5x5", "--colours", "13").exit_code == 2


def test_a_count_past_a_million_and_a_prefix_with_a_slash_are_refused_before_any_work(tmp_path):
    """--count 10**20 built the names of every puzzle first (922 MB in 15 s, nothing made); --prefix a/b
    made the --out folder, then failed to write into it and left it behind."""
    many = run("generate", "--size", "5x5", "--count", str(10**20))
    assert many.exit_code == 2 and "--count: 100000000000000000000 is not in the range" in many.stderr
    slashed = run("generate", "--size", "5x5", "--prefix", "a/b", "--out", tmp_path / "made")
    assert slashed.exit_code == 2 and "--prefix: 'a/b' is no file name (no '/')" in slashed.stderr
    assert not (tmp_path / "made").exists()


def test_the_collection_in_puzzles_is_what_its_documented_command_makes():
    # README: the gen_* puzzles were made by `cpflow generate --size WxH --count N --seed 2026`.
    for size, count in (("5x5", 10), ("12x8", 3)):
        width, height = size_of(size)
        made = generate_many(Order(plain(width, height), default_colours(width, height)), count, seed=2026)
        for number, puzzle in enumerate(made, 1):
            assert (PUZZLES / f"gen_{size}_{number:02d}.txt").read_text() == picture(puzzle.puzzle)


def test_a_board_of_a_pack_depends_on_the_seed_and_its_number_only():
    pack = [picture(g.puzzle) for g in generate_many(Order(plain(7, 6), (5, 7)), 4, seed=11)]
    alone = [picture(generate_one(number, Order(plain(7, 6), (5, 7)), seed=11).puzzle) for number in (4, 2)]
    assert alone == [pack[3], pack[1]] and len(set(pack)) == 4


@pytest.mark.parametrize(
    ("shape", "holes", "walls"), [("square", 6, 0), ("square", 0, 6), ("square", 4, 4), ("hex", 0, 0), ("hex", 3, 3)]
)
def test_boards_with_holes_walls_and_hexagons_are_generated_unique(shape, holes, walls):
    for made in generate_many(Order(plain(7, 6, shape), (4, 9), holes=holes, walls=walls), 2, seed=5):
        puzzle = made.puzzle
        assert (len(puzzle.holes()), len(puzzle.walls()), puzzle.shape) == (holes, walls, shape)
        assert_unique_and_written_whole(made)


def test_generate_cli_writes_a_board_with_holes_that_solves_back(tmp_path):
    result = run("generate", "--size", "7x7", "--holes", "5", "--walls", "3", "--seed", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    (puzzle,) = load(tmp_path / "gen_7x7_01.txt")
    assert len(puzzle.holes()) == 5 and len(puzzle.walls()) == 3
    assert violations(puzzle, load_solution(puzzle, tmp_path / "gen_7x7_01.solution.txt")) == []
    assert run("unique", "--quiet", tmp_path / "gen_7x7_01.txt").exit_code == 0


def test_generate_refuses_sizes_the_readers_refuse_and_folders_it_cannot_write(tmp_path):
    too_big = run("generate", "--size", "2000x2")
    assert too_big.exit_code == 2 and "size limit" in too_big.stderr
    blocked = tmp_path / "file"
    blocked.write_text("a file, not a folder\n")
    for option in ("--out", "--svg"):
        result = run("generate", "--size", "5x5", "--seed", "1", option, blocked / "inside")
        assert result.exit_code == 2 and "cannot write here" in result.stderr and "Traceback" not in result.output
    assert run("solve", "--png", blocked / "inside", PUZZLES / "starter_5x5.txt").exit_code == 2


def test_advice_on_what_cannot_be_made_is_true_when_followed():
    too_many = CliRunner().invoke(app, ["generate", "--size", "5x5", "--holes", "30", "--seed", "1"])
    assert too_many.exit_code == 2 and "at most 19" in too_many.stderr
    assert CliRunner().invoke(app, ["generate", "--size", "5x5", "--holes", "19", "--seed", "1"]).exit_code == 0
    few = CliRunner().invoke(app, ["generate", "--size", "10x10", "--colours", "1", "--seed", "1"])
    assert few.exit_code == 1 and "allow more colours, e.g. --colours " in few.stderr
    advised = few.stderr.split("--colours ")[-1].split()[0]
    assert CliRunner().invoke(app, ["generate", "--size", "10x10", "--colours", advised, "--seed", "1"]).exit_code == 0


@pytest.mark.parametrize(("width", "height"), [(9, 9), (12, 12)])
def test_generated_paths_are_never_two_endpoints_side_by_side_nor_short(width, height):
    made = list(generate_many(Order(plain(width, height), default_colours(width, height)), 6, seed=width))
    lengths = [len(path) for one in made for path in one.solution.paths.values()]
    assert min(lengths) >= SHORTEST
    assert sum(length <= 3 for length in lengths) <= 0.1 * len(lengths)


def test_a_touch_proof_puzzle_is_unique_also_when_paths_may_touch_themselves():
    order = Order(plain(8, 8), default_colours(8, 8), touch_proof=True)
    for made in generate_many(order, 3, seed=3):
        assert violations(made.puzzle, made.solution) == []
        for rules in (Rules(), Rules(touch=True)):
            found = uniqueness(replace(made.puzzle, rules=rules))
            assert found.verdict is Verdict.UNIQUE and found.solutions == (made.solution,)


@pytest.mark.parametrize("grade", ["easy", "medium"])
def test_generate_makes_puzzles_of_the_grade_asked_as_their_hint_chain_grades_them(grade):
    from cpflow.workflows.hints import graded

    for made in generate_many(Order(plain(9, 9), default_colours(9, 9), grade=grade), 2, seed=4):
        summary = graded(made.puzzle)
        assert summary.grade == grade
        assert (summary.what_ifs == 0) == (grade == "easy")


def test_a_grade_that_cannot_be_made_fails_clearly():
    with pytest.raises(GenerationFailed, match="of grade hard"):
        generate(Order(plain(4, 4), (2, 4), grade="hard"), plain(4, 4), Random(0), tries=5)


@pytest.mark.parametrize(("warps", "bridges", "walls"), [(2, 0, 0), (0, 2, 0), (2, 2, 3)])
def test_boards_with_warps_and_bridges_are_generated_unique_and_use_every_warp(warps, bridges, walls):
    from itertools import pairwise

    from cpflow.board.grid import cell_of

    for made in generate_many(Order(plain(8, 8), (6, 11), walls=walls, warps=warps, bridges=bridges), 3, seed=9):
        puzzle, solution = made.puzzle, made.solution
        assert (len(puzzle.warps()), len(puzzle.bridges()), len(puzzle.walls())) == (warps, bridges, walls)
        assert_unique_and_written_whole(made)
        steps = {frozenset(map(cell_of, pair)) for path in solution.paths.values() for pair in pairwise(path)}
        assert all(frozenset(warp) in steps for warp in puzzle.warps())  # a warp the puzzle never uses is no warp


def test_generate_cli_makes_warps_and_bridges_and_refuses_bridges_where_there_are_none(tmp_path):
    done = run("generate", "--size", "8x8", "--warps", "1", "--bridges", "1", "--seed", "2", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    (puzzle,) = load(tmp_path / "gen_8x8_01.txt")
    assert len(puzzle.warps()) == 1 and len(puzzle.bridges()) == 1
    hexagonal = run("generate", "--size", "7x7", "--shape", "hex", "--bridges", "1")
    assert hexagonal.exit_code == 2 and "bridges stand on square boards only" in hexagonal.stderr
    crowded = run("generate", "--size", "4x4", "--bridges", "9", "--seed", "1")
    assert crowded.exit_code == 1 and "room for" in crowded.stderr

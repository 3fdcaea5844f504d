"""Screenshot import: real screenshots of the game and synthetic ones read exactly; bad ones
are refused in one line, and nothing half read is written."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES, ROOT, board
from cpflow.board.formats import load, load_play, load_solution, parse, picture
from cpflow.board.grid import Puzzle, Solution, cell_name
from cpflow.cli import app
from cpflow.errors import NotAnImage, ScreenshotUnreadable

pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision import read_screenshot  # noqa: E402
from cpflow.vision.screenshot import read  # noqa: E402
from cpflow.vision.synthetic import Shot, draw, make, make_played  # noqa: E402

SCREENSHOTS = ROOT.parent / "shared" / "screenshots"
needs_screenshots = pytest.mark.skipif(not SCREENSHOTS.is_dir(), reason="../shared/screenshots is absent")
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def pairs(puzzle: Puzzle) -> tuple[int, int, list, set[frozenset]]:
    """The board's size, holes and pairs of endpoint cells: the puzzle up to renaming colours."""
    return puzzle.width, puzzle.height, puzzle.holes(), {frozenset(ends) for ends in puzzle.endpoints.values()}


@needs_screenshots
@pytest.mark.parametrize("shot", sorted(SCREENSHOTS.glob("*.png")), ids=lambda p: p.stem)
def test_every_shared_screenshot_imports_exactly(shot):
    expected = parse(shot.with_suffix(".txt").read_text(), str(shot))[0]
    assert pairs(read_screenshot(shot.read_bytes())) == pairs(expected)


SHOTS = [
    Shot(5, 5, (720, 1480), seed=1),
    Shot(6, 6, (1080, 2400), played=0.9, seed=2),
    Shot(7, 7, (1080, 1920), light=True, seed=3),
    Shot(8, 8, (720, 1480), quality=60, seed=4),
    Shot(9, 9, (1440, 2560), played=0.5, quality=75, seed=5),
    Shot(10, 10, (720, 1480), light=True, played=0.9, quality=85, seed=6),
    Shot(11, 11, (1080, 2400), rescale=0.6, seed=7),
    Shot(12, 12, (720, 1480), letters=True, seed=8),
    Shot(13, 13, (1080, 1920), played=0.9, rescale=1.25, quality=95, seed=9),
    Shot(14, 14, (720, 1480), light=True, letters=True, seed=10),
    Shot(15, 15, (1080, 2400), played=0.5, quality=70, seed=11),
    Shot(14, 18, (1080, 2400), played=0.9, seed=12),
    Shot(8, 10, (1366, 768), quality=80, seed=13),
    Shot(15, 15, (1366, 768), letters=True, played=0.5, seed=14),
    Shot(5, 5, (1440, 2560), light=True, played=0.9, quality=60, rescale=0.8, seed=15),
    Shot(10, 12, (720, 1480), played=0.9, letters=True, quality=90, seed=16),
    Shot(8, 8, (1080, 2400), shaped=True, seed=17),
    Shot(12, 12, (720, 1480), light=True, played=0.9, shaped=True, quality=85, seed=18),
    Shot(7, 7, (1080, 2400), played=0.9, finger=True, seed=19),
    Shot(9, 9, (720, 1480), light=True, played=0.9, finger=True, quality=85, seed=20),
    Shot(12, 12, (1440, 2560), played=0.9, finger=True, quality=75, rescale=0.8, seed=21),
    Shot(6, 6, (1080, 1920), light=True, played=0.9, finger=True, letters=True, seed=22),
]


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.kind)
def test_synthetic_screenshots_import_exactly(shot):
    data, puzzle = make(shot)
    assert pairs(read_screenshot(data)) == pairs(puzzle)


@pytest.mark.parametrize("margin", [0, 12])
def test_a_screenshot_cut_to_the_board_imports_exactly(margin):
    from PIL import Image

    (puzzle,) = load(PUZZLES / "starter_8x8.txt")
    whole = Image.open(io.BytesIO(draw(puzzle, Shot(8, 8, (1080, 2400)))))
    left, top, step = _board_box(whole)
    box = [round(v) for v in (left - margin, top - margin, left + 8 * step + margin, top + 8 * step + margin)]
    cut = io.BytesIO()
    whole.crop(box).save(cut, format="PNG")
    assert pairs(read_screenshot(cut.getvalue())) == pairs(puzzle)


def test_dots_are_named_after_the_game_colours_they_show():
    data, puzzle = make(Shot(7, 7, (720, 1480), seed=21))
    named = lambda p: {colour: frozenset(ends) for colour, ends in p.endpoints.items()}  # noqa: E731
    assert named(read_screenshot(data)) == named(puzzle)


def test_colours_that_look_alike_are_told_apart_by_comparing_dots():
    alike = board(
        """
        B.b.P.M
        .......
        G.g.c.C
        .......
        B.b.P.M
        .......
        G.g.c.C
        """
    )
    for shot in (Shot(7, 7, (720, 1480), quality=60), Shot(7, 7, (1080, 2400), light=True, rescale=0.6)):
        named = read_screenshot(draw(alike, shot)).endpoints
        assert {colour: frozenset(ends) for colour, ends in named.items()} == {
            colour: frozenset(ends) for colour, ends in alike.endpoints.items()
        }


def test_more_pairs_than_the_game_has_colours_get_distinct_names():
    from cpflow.vision.colours import name_pairs
    from cpflow.vision.dots import Dot

    dots = [Dot((k, side), (50.0, 3.0 * k, -2.0 * k), (0, 0, 0), 0.33) for k in range(40) for side in (0, 1)]
    named = name_pairs([(dots[2 * k], dots[2 * k + 1]) for k in range(40)])
    assert len(named) == 40 and not {".", "#", "+"} & set(named)


def test_noise_and_blank_images_are_refused_in_one_line(tmp_path):
    import numpy as np
    from PIL import Image

    noise = (np.random.default_rng(1).random((1480, 720, 3)) * 255).astype("uint8")
    for name, image in (("noise.png", Image.fromarray(noise)), ("blank.png", Image.new("RGB", (720, 1480)))):
        Image.Image.save(image, tmp_path / name)
        result = run("import", tmp_path / name, "--out", tmp_path / "out.txt")
        assert result.exit_code == 1
        assert result.stderr == f"{tmp_path / name}: no board found: no grid of lines in the picture\n"
        assert result.stdout == "" and not (tmp_path / "out.txt").exists()


def test_colours_that_do_not_pair_are_reported_and_nothing_is_written(tmp_path):
    from PIL import Image, ImageDraw

    shot = Shot(7, 7, (720, 1480), seed=22)
    data, puzzle = make(shot)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    (r, c) = next((r, c) for r in range(7) for c in range(7) if (r, c) not in puzzle.endpoint_colour())
    left, top, step = _board_box(image)
    x, y, radius = left + (c + 0.5) * step, top + (r + 0.5) * step, 0.32 * step
    ImageDraw.Draw(image).ellipse((x - radius, y - radius, x + radius, y + radius), fill=(120, 60, 200))
    image.save(tmp_path / "odd.png")
    result = run("import", tmp_path / "odd.png", "--out", tmp_path / "odd.txt")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'odd.png'}: colours do not pair up: no dot of the same colour")
    assert f" {cell_name((r, c))} " in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "odd.txt").exists()


def _board_box(image) -> tuple[float, float, float]:
    """Where the synthetic screenshot put the board: left, top and cell size in the image's pixels."""
    from cpflow.vision.board import find_lattice
    from cpflow.vision.ridges import line_masks
    from cpflow.vision.screenshot import decode

    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    picture = decode(buffer.getvalue())
    lattice = find_lattice(*line_masks(picture))
    shrink = max(image.size) / max(decode(buffer.getvalue()).shape[:2])
    return lattice.xs[0] * shrink, lattice.ys[0] * shrink, lattice.step * shrink


def test_import_prints_the_puzzle_writes_it_with_out_and_solves_it_with_solve(tmp_path):
    (puzzle,) = load(PUZZLES / "starter_5x5.txt")
    (tmp_path / "starter.png").write_bytes(draw(puzzle, Shot(5, 5, (1080, 2400), quality=85)))
    printed = run("import", tmp_path / "starter.png")
    assert printed.exit_code == 0 and pairs(parse(printed.stdout)[0]) == pairs(puzzle)
    written = run("import", tmp_path / "starter.png", "--out", tmp_path / "starter.txt", "--solve")
    assert written.exit_code == 0, written.output
    assert pairs(load(tmp_path / "starter.txt")[0]) == pairs(puzzle)
    assert written.stdout.startswith("# starter: solved in ")


def drawn_cells(puzzle: Puzzle, drawn) -> dict:
    """The cells a drawing colours that are not dots: what a play read from it must hold."""
    ends = puzzle.endpoint_colour()
    return {cell: colour for colour, path in drawn.paths.items() for cell in path if cell not in ends}


def renamed(read: Puzzle, puzzle: Puzzle, play: dict) -> dict:
    """A play read from a screenshot in the puzzle's own colour names (a reading names colours itself)."""
    names = {
        colour: c for colour, ends in read.endpoints.items() for c, e in puzzle.endpoints.items() if set(e) == set(ends)
    }
    return {cell: names[colour] for cell, colour in play.items()}


@pytest.mark.parametrize("light", [False, True])
def test_a_partly_played_board_reads_its_dots_and_every_pipe_drawn(light):
    (puzzle,) = load(PUZZLES / "starter_7x7.txt")
    solution = load_solution(puzzle, PUZZLES / "starter_7x7.solution.txt")
    half = Solution({k: path[: len(path) // 2 + 1] for k, path in solution.paths.items()})  # not the file's paint
    for drawn in (solution, half):
        reading = read(draw(puzzle, Shot(7, 7, (720, 1480), light=light), drawn))
        assert pairs(reading.puzzle) == pairs(puzzle)
        assert renamed(reading.puzzle, puzzle, reading.play.drawn) == drawn_cells(puzzle, drawn)
        assert reading.play.unsure == ()


@pytest.mark.parametrize("shot", [s for s in SHOTS if s.played], ids=lambda s: s.kind)
def test_synthetic_half_played_screenshots_read_every_pipe(shot):
    data, puzzle, drawn = make_played(shot)
    reading = read(data)
    assert renamed(reading.puzzle, puzzle, reading.play.drawn) == drawn_cells(puzzle, drawn)


def test_hint_and_solve_take_a_screenshot_and_import_writes_its_play(tmp_path):
    (puzzle,) = load(PUZZLES / "starter_7x7.txt")
    solution = load_solution(puzzle, PUZZLES / "starter_7x7.solution.txt")
    half = Solution({k: path[: len(path) // 2 + 1] for k, path in solution.paths.items()})  # not the file's paint
    shot = tmp_path / "half.jpg"
    shot.write_bytes(draw(puzzle, Shot(7, 7, (1080, 2400), quality=85), half))
    hinted = run("hint", shot, "--format", "json")
    assert hinted.exit_code == 0, hinted.output
    record = json.loads(hinted.stdout)
    assert record["status"] == "step"
    assert not {tuple(cell) for cell in record["cells"]} & set(drawn_cells(puzzle, half))  # past what is drawn
    solved = run("solve", shot)
    assert solved.exit_code == 0 and solved.stdout.startswith("# ") and "solved in" in solved.stdout.splitlines()[0]
    imported = run("import", shot, "--out", tmp_path / "half.txt", "--play", tmp_path / "play.txt")
    assert imported.exit_code == 0, imported.output
    (read_back,) = load(tmp_path / "half.txt")
    play = load_play(read_back, tmp_path / "play.txt")
    assert renamed(read_back, puzzle, play) == drawn_cells(puzzle, half)
    again = run("hint", tmp_path / "half.txt", "--play", tmp_path / "play.txt", "--format", "json")
    assert json.loads(again.stdout) == record


def test_debug_writes_the_intermediate_images(tmp_path):
    data, _ = make(Shot(6, 6, (720, 1480), seed=23))
    read_screenshot(data, tmp_path / "debug")
    names = sorted(p.name for p in (tmp_path / "debug").iterdir())
    assert names == [
        "0_lines.png", "1_board.png", "2_grid.png", "3_dots.png", "4_colours.png", "5_play.png", "debug.png"
    ]  # fmt: skip


def test_a_file_that_is_not_an_image_or_is_missing_is_bad_usage(tmp_path):
    (tmp_path / "shot.png").write_text("not a picture\n")
    with pytest.raises(NotAnImage):
        read_screenshot(b"not a picture")
    bad = run("import", tmp_path / "shot.png")
    assert bad.exit_code == 2 and bad.stderr.startswith(f"{tmp_path / 'shot.png'}: not an image")
    data, _ = make(Shot(6, 6, (720, 1480), seed=24))
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    cut = run("import", tmp_path / "cut.png")
    assert (
        cut.exit_code == 2
        and cut.stderr == f"{tmp_path / 'cut.png'}: not an image (PNG, JPEG, GIF, BMP, WebP), or a damaged one\n"
    )
    missing = run("import", tmp_path / "none.png")
    assert missing.exit_code == 2 and missing.stderr == f"{tmp_path / 'none.png'}: no such file\n"


def test_a_shaped_board_is_written_in_the_board_format_with_its_holes():
    data, puzzle = make(Shot(8, 8, (1080, 2400), shaped=True, seed=17))
    found = read_screenshot(data)
    assert picture(found).startswith("board 8x8\n") and found.holes() == puzzle.holes() != []


def test_a_picture_far_larger_than_a_screen_is_refused_from_its_header():
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("1", (8_000, 8_000)).save(buffer, format="PNG")
    with pytest.raises(ScreenshotUnreadable, match="far larger than a screenshot"):
        read_screenshot(buffer.getvalue())


def test_an_unreadable_board_raises_the_library_error():
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (300, 600), (255, 255, 255)).save(buffer, format="JPEG")
    with pytest.raises(ScreenshotUnreadable, match="^no board found"):
        read_screenshot(buffer.getvalue())


def test_without_the_vision_extra_import_says_how_to_install_it(tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m.startswith("cpflow.vision.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 now raises ImportError
    result = run("import", tmp_path / "shot.png")
    assert result.exit_code == 2
    assert result.stderr == "cpflow: reading a screenshot needs OpenCV and numpy: pip install 'cpflow[vision]'\n"


def test_solving_does_not_import_opencv():
    command = [sys.executable, "-X", "importtime", "-m", "cpflow", "solve", str(PUZZLES / "starter_5x5.txt")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
    assert "cv2" not in done.stderr and "cpflow.vision" not in done.stderr


def test_a_damaged_picture_given_to_solve_is_refused_in_one_line(tmp_path):
    path = tmp_path / "bad.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run("solve", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{path}: not an image (PNG, JPEG, GIF, BMP, WebP), or a damaged one\n"


KINDS = {  # what a board of each kind has: what the test looks for, and the generator's order
    "holes": ("holes", "square", {"holes": 6}),
    "walls": ("walls", "square", {"walls": 5}),
    "bridges": ("bridges", "square", {"bridges": 2}),
    "warps": ("warps", "square", {"warps": 2}),
    "hexagons": ("shape", "hex", {}),
    "hexagons with holes": ("holes", "hex", {"holes": 6}),
}


def shape_of(puzzle: Puzzle) -> dict:
    """What a board has besides its dots: its shape, holes, walls, bridges and warps."""
    found = {"holes": puzzle.holes(), "walls": puzzle.walls(), "bridges": puzzle.bridges(), "warps": puzzle.warps()}
    return found | {"shape": puzzle.shape == "hex"}


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_board_of_each_kind_imports_exactly_with_its_play(tmp_path, kind, light):
    from cpflow.workflows.generate.order import Order, default_colours, plain
    from cpflow.workflows.generate.pack import generate_many

    has, shape, order = KINDS[kind]
    order = Order(plain(8, 8, shape), default_colours(8, 8, order.get("holes", 0)), **order)
    (made,) = generate_many(order, 1, seed=3)
    half = Solution({k: p[: len(p) // 2 + 1] for k, p in made.solution.paths.items()})
    shot = tmp_path / f"{kind}.png"
    shot.write_bytes(draw(made.puzzle, Shot(8, 8, (1080, 2400), light=light, quality=85), half))
    result = run("import", shot, "--out", tmp_path / "board.txt", "--play", tmp_path / "play.txt")
    assert result.exit_code == 0, result.output
    (read_back,) = load(tmp_path / "board.txt")
    assert shape_of(read_back) == shape_of(made.puzzle) and shape_of(made.puzzle)[has]
    assert pairs(read_back) == pairs(made.puzzle)
    play = load_play(read_back, tmp_path / "play.txt")
    lanes = {node for node in drawn_cells(made.puzzle, half) if len(node) == 3}  # a play file marks a bridge `+`
    assert renamed(read_back, made.puzzle, play) == {
        node: colour for node, colour in drawn_cells(made.puzzle, half).items() if node not in lanes
    }
    reading = read(shot.read_bytes())  # the library's reading has the lanes
    assert renamed(reading.puzzle, made.puzzle, reading.play.drawn) == drawn_cells(made.puzzle, half)


def test_an_opening_in_the_border_with_no_other_end_is_said_never_read_as_a_warp():
    from PIL import Image, ImageDraw

    from cpflow.workflows.generate.order import Order, plain
    from cpflow.workflows.generate.pack import generate_many

    (made,) = generate_many(Order(plain(7, 7), (5, 8), warps=1), 1, seed=2)
    ((a, b),) = made.puzzle.warps()  # a: the end on the left (a row's warp) or at the top (a column's)
    picture = Image.open(io.BytesIO(draw(made.puzzle, Shot(7, 7, (1080, 2400)))))
    left, top, step = _board_box(picture)
    x, y = left + a[1] * step, top + a[0] * step  # the opening's first corner
    across = a[0] == b[0]  # a row's warp leaves by the left side
    side = [(x + 3, y), (x + 3, y + step)] if across else [(x, y + 3), (x + step, y + 3)]
    ImageDraw.Draw(picture).line(side, fill=(230, 230, 230), width=6)  # the border drawn over that end
    out = io.BytesIO()
    picture.save(out, format="PNG")
    with pytest.raises(ScreenshotUnreadable, match="^a warp's end at r[0-9]+c[0-9]+ has no other end"):
        read(out.getvalue())


LEVELS = ROOT.parent / "shared" / "puzzles" / "variants"
GAME_LEVELS = [  # the game's hexagonal levels and its mixes, on a theme each shows (no white dot on a light board)
    ("23_hexes_hex_L45", "light"),  # a hole cut by the border at a corner
    ("23_hexes_hex_L100", "dark"),
    ("28_party_mixed_L71", "dark"),  # hexagons, holes, walls, a row of holes on alternate columns
    ("28_party_mixed_L33", "light"),
    ("28_party_mixed_L30", "light"),  # warps and a bridge
    ("28_party_mixed_L87", "dark"),  # walls, warps and a bridge
    ("33_variety_mixed_L128", "dark"),
    ("w1-48_mixed_L9", "light"),
]


@pytest.mark.skipif(not LEVELS.is_dir(), reason="../shared/puzzles/variants is absent")
@pytest.mark.parametrize("played", [False, True], ids=["unsolved", "half played"])
@pytest.mark.parametrize(("level", "theme"), GAME_LEVELS)
def test_the_games_own_levels_of_every_kind_import_exactly(level, theme, played):
    from cpflow.board.formats import load_with_solutions

    ((puzzle, solution),) = load_with_solutions(LEVELS / f"{level}.level")
    half = Solution({k: p[: len(p) // 2 + 1] for k, p in solution.paths.items()} if played else {})
    shot = Shot(puzzle.width, puzzle.height, (1080, 2400), light=theme == "light", quality=85)
    reading = read(draw(puzzle, shot, half))
    assert shape_of(reading.puzzle) == shape_of(puzzle)
    assert pairs(reading.puzzle) == pairs(puzzle)
    assert renamed(reading.puzzle, puzzle, reading.play.drawn) == drawn_cells(puzzle, half)

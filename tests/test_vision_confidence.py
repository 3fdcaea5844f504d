"""Screenshot import's confidence per cell: how far each cell's evidence stood from the threshold that
decided it; a reading with a cell below confidence.SURE is refused in one line naming those cells."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import ROOT
from cpflow.board.formats import parse
from cpflow.board.grid import Puzzle, cell_name
from cpflow.cli import app
from cpflow.errors import ScreenshotUnreadable

cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision.board import find_lattice  # noqa: E402
from cpflow.vision.confidence import SURE, check, confidence, pairing  # noqa: E402
from cpflow.vision.dots import Dot  # noqa: E402
from cpflow.vision.ridges import REACH, line_masks  # noqa: E402
from cpflow.vision.screenshot import decode, read  # noqa: E402
from cpflow.vision.sides import BROAD, tinted_walls  # noqa: E402
from cpflow.vision.synthetic import Shot, make  # noqa: E402

REAL = ROOT.parent / "shared" / "screenshots" / "real"
TRUTH = ROOT / "tests" / "screenshots"
runner = CliRunner()


def pairs(puzzle: Puzzle) -> set[frozenset]:
    return {frozenset(ends) for ends in puzzle.endpoints.values()}


def faded(light: bool, alpha: float) -> tuple[bytes, Puzzle, list]:
    """A 7x7 screenshot whose first colour's two dots are blended toward the board's empty colour by
    `alpha` (1: gone), as a smudge or a dimmed screen fades them; the picture, its puzzle, those cells."""
    data, puzzle = make(Shot(7, 7, (1080, 1920), light=light, seed=3))
    image = decode(data)
    lattice = find_lattice(*line_masks(image, REACH))
    ends = [node[:2] for node in next(iter(puzzle.endpoints.values()))]
    ys, xs = np.mgrid[: image.shape[0], : image.shape[1]]
    smudged = image.astype(float)
    for cell in ends:
        x, y = lattice.centre(*cell)
        board = image[round(y - 0.4 * lattice.step), round(x - 0.4 * lattice.step)].astype(float)
        disc = (ys - y) ** 2 + (xs - x) ** 2 <= (0.42 * lattice.step) ** 2
        smudged[disc] = (1 - alpha) * smudged[disc] + alpha * board
    return cv2.imencode(".png", smudged.round().astype(np.uint8))[1].tobytes(), puzzle, ends


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_a_pair_of_dots_faded_to_the_edge_of_seen_is_refused_naming_its_cells(tmp_path, light):
    data, _, ends = faded(light, 0.9)
    shot = tmp_path / "faded.png"
    shot.write_bytes(data)
    done = runner.invoke(app, ["import", str(shot)])
    assert (done.exit_code, done.stdout, done.stderr.count("\n")) == (1, "", 1)
    named = done.stderr.split("unsure of the cells ", 1)[1].split(":", 1)[0]
    assert {name.split(" (")[0] for name in named.split(", ")} == {cell_name(cell) for cell in ends}


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_fading_a_pair_reads_it_exactly_or_refuses_naming_it_never_a_board_without_it(light):
    """Fading a pair step by step toward the board, the reading goes from exact, through refusals that name
    the faded cells, to none (where the dots are as good as gone): never a board without the pair written
    while they stand out by the contrast a dot is held to (beyond, at 0.9, the light theme's dots fall under it)."""
    refused = 0
    for alpha in np.linspace(0.84, 0.9, 13):
        data, puzzle, ends = faded(light, float(alpha))
        try:
            reading = read(data)
        except ScreenshotUnreadable as error:
            assert all(cell_name(cell) in str(error) for cell in ends), (alpha, str(error))
            refused += 1
            continue
        assert pairs(reading.puzzle) == pairs(puzzle), alpha
    assert refused


def test_import_format_json_gives_one_confidence_a_cell_in_range(tmp_path):
    data, puzzle = make(Shot(8, 8, (720, 1480), played=0.5, quality=80, seed=4))
    shot = tmp_path / "shot.png"
    shot.write_bytes(data)
    done = runner.invoke(app, ["import", str(shot), "--format", "json"])
    assert done.exit_code == 0, done.output
    record = json.loads(done.stdout)
    assert (record["file"], record["width"], record["height"]) == (str(shot), 8, 8)
    assert pairs(parse(record["text"], "record")[0]) == pairs(puzzle) and record["play"]
    cells = [(row, col) for row, col, _ in record["confidence"]]
    assert cells == [(row, col) for row in range(8) for col in range(8)]
    values = [value for *_, value in record["confidence"]]
    assert all(0 <= value <= 1 for value in values) and record["least_confidence"] == min(values) >= SURE


def test_a_refusal_names_the_unsure_cells_least_sure_first_in_one_line():
    sure = {(0, 0): 1.0, (2, 4): 0.01, (0, 1): 0.04, (3, 3): 0.05, **{(6, col): 0.0 for col in range(7)}}
    with pytest.raises(ScreenshotUnreadable) as refused:
        check(sure)
    said = str(refused.value)
    assert "\n" not in said and said.startswith("unsure of the cells r7c1 (0.00), r7c2 (0.00)")
    assert "and 3 more" in said and "r3c5" not in said and "r4c4" not in said  # six named, 0.05 is sure enough
    check({cell: value for cell, value in sure.items() if value >= SURE})  # nothing to refuse


def test_a_cells_confidence_is_the_least_of_its_margins_and_a_pairing_close_to_another_colour_is_unsure():
    assert confidence({(0, 0): 0.5, (0, 1): 1.0}, {(0, 0): 0.8, (1, 1): 0.2}) == {(0, 0): 0.5, (0, 1): 1.0, (1, 1): 0.2}
    red, red2 = Dot((0, 0), (50, 60, 40), (0, 0, 0), 0.3), Dot((3, 3), (50, 62, 40), (0, 0, 0), 0.3)
    far = [Dot((5, 5), (80, -60, 60), (0, 0, 0), 0.3), Dot((6, 6), (80, -61, 60), (0, 0, 0), 0.3)]
    clear = pairing([(red, red2), (far[0], far[1])], [red, red2, *far])
    assert min(clear.values()) > 0.9  # each pair near in colour, far from the other
    also = [Dot((1, 1), (50, 64, 40), (0, 0, 0), 0.3), Dot((2, 2), (50, 65, 40), (0, 0, 0), 0.3)]  # a red as near
    close = pairing([(red, red2), (also[0], also[1])], [red, red2, *also])
    assert close[(3, 3)] < SURE and close[(1, 1)] < 1.0


def test_a_tint_as_wide_as_a_wall_between_two_board_cells_leaves_them_unsure_a_tinted_grid_line_does_not():
    lattice = find_lattice(*line_masks(decode(make(Shot(5, 5, (1080, 1920), seed=1))[0]), REACH))
    both = lambda a, b, wide: {(a, b): wide, (b, a): wide}  # noqa: E731 (read_sides keeps a side both ways round)
    wall = tinted_walls(both((1, 1), (1, 2), 1.5 * BROAD), lattice, set())  # a level pack's light wall at half size
    assert wall[(1, 1)] < SURE and wall[(1, 2)] < SURE and len(wall) == 2
    line = tinted_walls(both((2, 2), (3, 2), 0.02), lattice, set())  # a grid line under the finger's highlight
    assert min(line.values()) >= 0.5
    assert tinted_walls(both((0, 0), (-1, 0), BROAD) | both((3, 3), (3, 4), BROAD), lattice, {(3, 4)}) == {}  # no wall


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/screenshots/real is absent")
@pytest.mark.parametrize(
    "name",
    [
        "ludovicb1239_FlowShapesSolver/FlowShapesSolver_tests_1.PNG",  # the least sure of the exact readings
        "pkonkle213_FlowFreeSolver/SolvedBoards_2022-08-30_18.17.47.jpg",
        "Harrison5399_Flow-Free-CNF-SAT-Solver/Boards_14x12_IMG_9178.PNG",
    ],
)
def test_an_exact_real_reading_is_sure_of_every_cell(name):
    truth = parse((TRUTH / f"{name}.txt").read_text(), name)[0]
    reading = read((REAL / name).read_bytes())
    assert pairs(reading.puzzle) == pairs(truth) and set(reading.puzzle.holes()) == set(truth.holes())
    assert len(reading.confidence) == reading.puzzle.width * reading.puzzle.height
    assert min(reading.confidence.values()) >= 2 * SURE  # not just above it

"""What the page asks the server for instead of copying the board's code: the board as the editor holds
it written as a puzzle file, and laid out (`/api/board`); and the page's modules served as JavaScript.
"""

from __future__ import annotations

from importlib import resources

import pytest

from cpflow.board.formats import parse
from cpflow.board.geometry import centre, outline
from cpflow.board.grid import lattice

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[test]'")
from fastapi.testclient import TestClient  # noqa: E402

from cpflow.web.app import create_app  # noqa: E402
from cpflow.web.limits import Limits  # noqa: E402

PAGE = resources.files("cpflow.web") / "page"
MODULES = sorted(path.name for path in PAGE.iterdir() if path.name.endswith(".js"))


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(workers=1)), base_url="http://127.0.0.1:8000") as test_client:
        yield test_client


def sketch(client, **board) -> dict:
    answer = client.post("/api/board", json={"width": 3, "height": 2, **board})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_plain_board_is_written_as_the_classic_grid_an_unpaired_endpoint_too(client):
    assert sketch(client, endpoints={"R": [[0, 0], [1, 2]], "B": [[0, 2]]})["text"] == "R.B\n..R\n"


def test_a_variant_board_is_written_in_the_board_format_and_reads_back(client):
    board = {
        "shape": "hex",
        "endpoints": {"R": [[0, 0], [1, 1]], "B": [[0, 2], [1, 0]]},
        "holes": [[0, 1]],
        "walls": [[[1, 1], [1, 2]]],
        "warps": [[[1, 0], [1, 2]]],
    }
    text = sketch(client, **board)["text"]
    assert text == "board 3x2 hex\nR#B\nBR.\nwalls 1,1|1,2\nwarps 1,0|1,2\n"
    (puzzle,) = parse(text)
    assert puzzle.shape == "hex" and puzzle.holes() == [(0, 1)] and puzzle.walls() == [((1, 1), (1, 2))]


def test_a_play_is_written_with_its_drawn_cells_in_their_colours(client):
    board = {"endpoints": {"R": [[0, 0], [0, 2]]}, "bridges": [[1, 1]], "drawn": [[0, 1, "R"]]}
    assert sketch(client, **board)["text"] == "board 3x2\nRRR\n.+.\n"


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_the_geometry_is_the_board_modules_own(client, shape):
    geometry = sketch(client, shape=shape, width=4, height=3, geometry=True)["geometry"]
    cells = [(r, c) for r in range(3) for c in range(4)]
    assert len(geometry["cells"]) == len(cells)
    for cell, laid in zip(cells, geometry["cells"], strict=True):
        assert [tuple(n) for n in laid["neighbours"]] == lattice(shape, 4, 3, cell)
        assert laid["centre"] == pytest.approx(list(centre(shape, cell)), abs=1e-4)
        assert laid["outline"] == [pytest.approx(list(p), abs=1e-4) for p in outline(shape, cell)]
    assert "geometry" not in sketch(client, shape=shape)  # only when asked


@pytest.mark.parametrize(
    ("board", "status", "words"),
    [
        ({"endpoints": {"RR": [[0, 0]]}}, 400, "one character"),
        ({"endpoints": {"#": [[0, 0]]}}, 400, "one character"),
        ({"holes": [[2, 0]]}, 400, "off the 3x2 board"),
        ({"width": 80, "height": 80}, 413, "cells"),
    ],
)
def test_a_board_the_page_could_not_have_made_is_refused_with_a_line(client, board, status, words):
    answer = client.post("/api/board", json={"width": 3, "height": 2, **board})
    assert answer.status_code == status and words in answer.json()["error"], answer.text


@pytest.mark.parametrize("name", MODULES)
def test_every_module_of_the_page_is_served_as_javascript(client, name):
    answer = client.get(f"/{name}")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.text == (PAGE / name).read_text()


def test_the_page_loads_its_script_as_a_module_and_computes_no_geometry():
    html = (PAGE / "index.html").read_text()
    assert '<script type="module" src="page.js"></script>' in html
    for name in MODULES:
        source = (PAGE / name).read_text()
        assert "Math.sqrt(3)" not in source and "Math.cos" not in source, name  # hexagons are the server's

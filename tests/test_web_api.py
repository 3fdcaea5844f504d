"""The JSON API of `cpflow serve` (FastAPI's TestClient): every endpoint, every status, bad inputs.

Answers are the CLI's JSON records, every solution passes the verifier, and a bad
puzzle answers with the very line `cpflow solve` prints. The worker pool (jobs) is
tested on its own: a full queue, a client that went away, a job past its time limit.
"""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES, ROOT, project_puzzles
from cpflow.board.formats import parse, parse_solution
from cpflow.board.grid import Rules
from cpflow.board.verify import violations
from cpflow.cli import app as cli
from cpflow.workflows.unique import Verdict, uniqueness

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[test]'")
from fastapi.testclient import TestClient  # noqa: E402

from cpflow.web import tasks  # noqa: E402
from cpflow.web.app import create_app  # noqa: E402
from cpflow.web.jobs import Busy, Gone, Jobs, Overdue  # noqa: E402
from cpflow.web.limits import Limits  # noqa: E402

STARTER = (PUZZLES / "starter_5x5.txt").read_text()
TWO_SOLUTIONS = "B..G\n.GB.\n.RR.\n....\n"
UNSOLVABLE = (PUZZLES / "unsolvable_6x6.txt").read_text()
LIMITS = Limits(workers=1, queue=2, max_count=50)
CORPUS = sorted((ROOT / "tests" / "bad_inputs").iterdir())
BOUND = "http://127.0.0.1:8000"  # the app answers the Host names of the address it is bound to (127.0.0.1:8000)
runner = CliRunner()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(LIMITS), base_url=BOUND) as test_client:
        yield test_client


def verified(puzzle_text: str, record: dict) -> list[str]:
    """The rules a record's paths break on the puzzle ([] when it is a solution)."""
    puzzle = parse(puzzle_text)[0]
    return violations(puzzle, parse_solution(puzzle, json.dumps(record)))


def cli_record(tmp_path, command: str, text: str, *options: str) -> dict:
    path = tmp_path / "puzzle.txt"
    path.write_text(text)
    return json.loads(runner.invoke(cli, [command, str(path), "--format", "json", *options]).stdout)


def without(record: dict, *keys: str) -> dict:
    return {k: v for k, v in record.items() if k not in keys}


# ---- solve, unique, count: the CLI's records ----


def test_solve_answers_the_cli_record_with_a_verified_solution(client, tmp_path):
    answer = client.post("/api/solve", json={"puzzle": STARTER})
    assert answer.status_code == 200
    record = answer.json()
    assert record["status"] == "solved" and verified(STARTER, record) == []
    expected = cli_record(tmp_path, "solve", STARTER)
    assert without(record, "file", "seconds") == without(expected, "file", "seconds")
    assert record["file"] == "puzzle" and record["index"] == 1 and record["seconds"] >= 0


def test_solve_with_draw_adds_the_picture_and_the_solution_text(client):
    record = client.post("/api/solve", json={"puzzle": STARTER, "draw": True, "name": "mine.txt"}).json()
    assert record["file"] == "mine.txt"
    assert record["svg"].startswith("<svg") and record["svg"].count('class="pipe"') == 6
    puzzle = parse(STARTER)[0]
    assert violations(puzzle, parse_solution(puzzle, record["solution_texts"][0])) == []


def test_solve_says_unsolvable_and_unknown(client):
    unsolvable = client.post("/api/solve", json={"puzzle": UNSOLVABLE}).json()
    assert (unsolvable["status"], unsolvable["paths"]) == ("unsolvable", {})
    biggest = project_puzzles()[-1].read_text()
    unknown = client.post("/api/unique", json={"puzzle": biggest, "time_limit": 1e-9})
    assert unknown.status_code == 200 and unknown.json()["verdict"] == "unknown"


@pytest.mark.parametrize("engine", ["cpsat-circuit", "ilp-highs"])
def test_solve_takes_any_engine(client, engine):
    record = client.post("/api/solve", json={"puzzle": STARTER, "engine": engine}).json()
    assert record["status"] == "solved" and verified(STARTER, record) == []


def test_variant_boards_are_solved_from_every_format(client):
    hex_board = (PUZZLES / "hex_7x7_01.txt").read_text()
    record = client.post("/api/solve", json={"puzzle": hex_board, "draw": True}).json()
    assert record["status"] == "solved" and verified(hex_board, record) == []
    assert record["svg"].count("<polygon") >= 49


def test_unique_answers_unique_and_not_unique_with_both_solutions(client, tmp_path):
    unique = client.post("/api/unique", json={"puzzle": STARTER}).json()
    assert unique["verdict"] == "unique" and len(unique["solutions"]) == 1
    two = client.post("/api/unique", json={"puzzle": TWO_SOLUTIONS, "draw": True}).json()
    assert two["verdict"] == "not-unique" and len(two["solutions"]) == 2 and two["differences"]
    assert without(two, "file", "seconds", "svg", "solution_texts", "solutions") == without(
        cli_record(tmp_path, "unique", TWO_SOLUTIONS), "file", "seconds", "solutions"
    )
    assert all(verified(TWO_SOLUTIONS, solution) == [] for solution in two["solutions"])
    assert two["svg"].count('class="mark"') == 2 * len(two["differences"])  # outlined in both
    assert client.post("/api/unique", json={"puzzle": UNSOLVABLE}).json()["verdict"] == "unsolvable"


def test_fix_answers_the_cli_record_and_the_fixed_board(client, tmp_path):
    fixed = client.post("/api/fix", json={"puzzle": TWO_SOLUTIONS}).json()
    assert fixed["status"] == "fixed" and fixed["edit"]["kind"] in ("wall", "move", "pair")
    assert without(fixed, "file", "seconds", "board") == without(
        cli_record(tmp_path, "fix", TWO_SOLUTIONS), "file", "seconds"
    )
    again = parse(fixed["puzzle"])[0]
    assert uniqueness(again).verdict is Verdict.UNIQUE
    assert set(fixed["board"]["endpoints"]) == set(again.colours)
    assert client.post("/api/fix", json={"puzzle": STARTER}).json()["status"] == "unique"
    assert client.post("/api/fix", json={"puzzle": UNSOLVABLE}).json()["status"] == "unsolvable"
    assert client.post("/api/fix", json={"puzzle": "R.\n.Q\n"}).status_code == 400


def test_count_answers_exact_and_capped_counts(client, tmp_path):
    exact = client.post("/api/count", json={"puzzle": TWO_SOLUTIONS}).json()
    assert without(exact, "file", "seconds") == without(cli_record(tmp_path, "count", TWO_SOLUTIONS), "file", "seconds")
    assert (exact["count"], exact["exact"]) == (2, True)
    capped = client.post("/api/count", json={"puzzle": TWO_SOLUTIONS, "limit": 1}).json()
    assert (capped["count"], capped["exact"]) == (1, False)
    over = client.post("/api/count", json={"puzzle": TWO_SOLUTIONS, "limit": LIMITS.max_count + 1})
    assert over.status_code == 422 and "limit" in over.json()["error"]


def test_rules_can_be_relaxed(client):
    touching = "R..\n...\n..R\n"
    assert client.post("/api/solve", json={"puzzle": touching}).json()["status"] == "unsolvable"
    relaxed = client.post("/api/solve", json={"puzzle": touching, "allow_touch": True}).json()
    assert relaxed["status"] == "solved"


# ---- generate, render, read ----


def test_generate_makes_the_same_unique_puzzle_from_the_same_seed(client):
    first = client.post("/api/generate", json={"size": "6x5", "seed": 7}).json()
    again = client.post("/api/generate", json={"size": "6x5", "seed": 7}).json()
    assert first["text"] == again["text"] and (first["width"], first["height"], first["seed"]) == (6, 5, 7)
    assert verified(first["text"], first) == []
    proof = client.post("/api/unique", json={"puzzle": first["text"]}).json()
    assert proof["verdict"] == "unique"


def test_generate_hex_boards_with_holes_and_colours(client):
    made = client.post(
        "/api/generate", json={"size": "6x6", "shape": "hex", "holes": 3, "colours": "4-7", "seed": 1, "draw": True}
    ).json()
    assert made["board"]["shape"] == "hex" and len(made["board"]["holes"]) == 3
    assert 4 <= made["colours"] <= 7 and made["svg"].startswith("<svg")
    assert verified(made["text"], made) == []


def test_generate_warps_bridges_and_a_grade_as_the_cli_does(client):
    ask = {"size": "8x8", "warps": 1, "bridges": 1, "grade": "easy", "touch_proof": True, "seed": 3}
    made = client.post("/api/generate", json=ask).json()
    assert len(made["board"]["warps"]) == 1 and len(made["board"]["bridges"]) == 1
    assert verified(made["text"], made) == []
    puzzle = parse(made["text"])[0]
    assert uniqueness(replace(puzzle, rules=Rules(touch=True))).verdict is Verdict.UNIQUE
    refused = client.post("/api/generate", json={"size": "6x6", "shape": "hex", "bridges": 1})
    assert refused.status_code == 400 and refused.json()["error"] == "bridges: bridges stand on square boards only"


@pytest.mark.parametrize(
    ("ask", "status", "message"),
    [
        ({"size": "7y7"}, 400, "size: '7y7' is not a size like 7x7 (6 cells at least)"),
        ({"size": "5x5", "colours": "20"}, 400, "colours: 20 colours need 60 cells"),
        ({"size": "4x4", "colours": "1"}, 422, "cpflow: found no cover of a 4x4 board"),
        ({"size": "60x60"}, 413, "cpflow: board of 60x60 is over this server's limit"),
        ({"size": "5x5", "shape": "triangle"}, 422, "shape: Input should be 'square' or 'hex'"),
    ],
)
def test_generate_refuses_what_it_cannot_make(client, ask, status, message):
    answer = client.post("/api/generate", json=ask)
    assert answer.status_code == status and answer.json()["error"].startswith(message), answer.json()


def test_render_draws_svg_and_png_with_solutions_side_by_side(client):
    solved = client.post("/api/unique", json={"puzzle": TWO_SOLUTIONS, "draw": True}).json()
    svg = client.post("/api/render", json={"puzzle": TWO_SOLUTIONS, "solutions": solved["solution_texts"]})
    assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text.count('class="dot"') == 12
    png = client.post("/api/render", json={"puzzle": STARTER, "picture": "png"})
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
    bad = client.post("/api/render", json={"puzzle": STARTER, "solutions": ["RR\n"]})
    assert bad.status_code == 400 and bad.json()["error"] == "solution 1: solution is 2x1, the puzzle 5x5"


def test_read_gives_the_board_of_any_format(client):
    level = ROOT.parent / "shared" / "puzzles" / "variants" / "15_bridges_L22.level"
    text = level.read_text() if level.exists() else "board 3x3\nR+B\n...\nR.B\n"
    board = client.post("/api/read", json={"puzzle": text, "name": "level"}).json()
    assert board["bridges"] and board["shape"] == "square" and board["endpoints"]
    written, original = parse(board["text"])[0], parse(text)[0]
    assert written.neighbours == original.neighbours
    assert {c: set(ends) for c, ends in written.endpoints.items()} == {c: set(e) for c, e in original.endpoints.items()}
    assert set(board["colours"]) == set(board["endpoints"])


# ---- import: a screenshot's bytes in, the board as read answers it ----

SCREENSHOTS = ROOT.parent / "shared" / "screenshots"
PNG = {"content-type": "image/png"}  # what /api/import takes: an image's type (or application/octet-stream)


def endpoint_pairs(board: dict) -> tuple[int, int, set[frozenset]]:
    """A board of an answer (or a Puzzle's), up to renaming colours: its size and its pairs of endpoint cells."""
    return board["width"], board["height"], {frozenset(map(tuple, ends)) for ends in board["endpoints"].values()}


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("quality", [None, 80])
def test_import_reads_a_synthetic_screenshot_as_read_answers_a_file(client, quality):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from cpflow.vision.synthetic import Shot, make_played

    data, puzzle, drawn = make_played(Shot(7, 7, (1080, 2400), played=0.5, quality=quality, seed=3))
    kind = "image/png" if quality is None else "image/jpeg"
    answer = client.post("/api/import?name=shot.png", content=data, headers={"content-type": kind})
    assert answer.status_code == 200, answer.json()
    board = answer.json()
    expected = tasks.board(puzzle)
    assert endpoint_pairs(board) == endpoint_pairs(expected) and board["holes"] == []
    assert (board["file"], board["index"], set(board["colours"])) == ("shot.png", 1, set(board["endpoints"]))
    own = {frozenset(map(tuple, ends)): colour for colour, ends in board["endpoints"].items()}
    names = {colour: own[frozenset(ends)] for colour, ends in puzzle.endpoints.items()}
    dots = puzzle.endpoint_colour()
    expected_play = {(*cell, names[c]) for c, path in drawn.paths.items() for cell in path if cell not in dots}
    assert {tuple(cell) for cell in board.pop("play")} == expected_play and expected_play
    assert board.pop("unsure") == []
    sure, least = board.pop("confidence"), board.pop("least_confidence")  # one a cell, 0 to 1, each sure enough
    assert sorted((row, col) for row, col, _ in sure) == [(row, col) for row in range(7) for col in range(7)]
    assert least == min(value for *_, value in sure) and 0.05 <= least <= 1
    read = client.post("/api/read", json={"puzzle": board["text"], "name": "shot.png"}).json()
    assert read == board  # the page's editor loads it as it loads a file


def test_import_takes_a_gif_and_a_shaped_board(client):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from PIL import Image

    from cpflow.vision.synthetic import Shot, make

    data, puzzle = make(Shot(8, 8, (1080, 2400), shaped=True, seed=17))
    gif = io.BytesIO()
    Image.open(io.BytesIO(data)).convert("RGB").save(gif, format="GIF")
    board = client.post("/api/import", content=gif.getvalue(), headers={"content-type": "image/gif"}).json()
    assert endpoint_pairs(board) == endpoint_pairs(tasks.board(puzzle))
    assert sorted(map(tuple, board["holes"])) == sorted(puzzle.holes()) and board["text"].startswith("board 8x8\n")


def test_import_refuses_noise_with_422_and_not_an_image_with_400_in_the_cli_line(client, tmp_path):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    import numpy as np
    from PIL import Image

    noise = png(Image.fromarray((np.random.default_rng(1).random((1480, 720, 3)) * 255).astype("uint8")))
    assert len(noise) > LIMITS.max_bytes  # over the JSON endpoints' cap, under the images' cap
    text = b".GY.Y\nGO..B\n"
    for name, data, status in (("noise.png", noise, 422), ("shot.png", text, 400), ("shot.png", b"", 400)):
        (tmp_path / name).write_bytes(data)
        cli_line = runner.invoke(cli, ["import", str(tmp_path / name)]).stderr.strip()
        answer = client.post(f"/api/import?name={tmp_path / name}", content=data, headers={"content-type": "image/png"})
        assert (answer.status_code, answer.json()) == (status, {"error": cli_line})


def test_import_refuses_an_image_over_its_cap_with_413(client):
    over = b"\x89PNG" + bytes(LIMITS.max_image_bytes)
    answer = client.post("/api/import", content=over, headers={"content-type": "image/png"})
    assert answer.status_code == 413 and answer.json()["error"].endswith(f"limit of {LIMITS.max_image_bytes} bytes")
    halves = iter([over[: len(over) // 2], over[len(over) // 2 :]])
    chunked = client.post("/api/import", content=halves, headers={"content-type": "image/png"})
    assert chunked.status_code == 413
    assert client.post("/api/read", json={"puzzle": "." * LIMITS.max_bytes}).status_code == 413  # JSON keeps its cap


def test_import_without_the_vision_extra_answers_501_saying_how_to_install_it(monkeypatch):
    for name in [m for m in sys.modules if m.startswith("cpflow.vision")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 now raises ImportError
    status, failure = tasks.run(tasks.screenshot, {"image": b"", "name": "shot.png"}, LIMITS)
    assert (status, failure.status) == ("failed", 501) and "pip install 'cpflow[vision]'" in failure.message


def test_import_never_loads_opencv_in_the_server_process():
    """The worker reads the screenshot; the process that serves never imports cv2."""
    script = (
        "import sys\n"
        "from fastapi.testclient import TestClient\n"
        "from cpflow.web.app import create_app\n"
        "from cpflow.web.limits import Limits\n"
        "if __name__ == '__main__':\n"
        "    with TestClient(create_app(Limits(workers=1)), base_url='http://127.0.0.1:8000') as client:\n"
        "        answer = client.post('/api/import', content=b'not a picture', headers={'content-type': 'image/png'})\n"
        "    print(answer.status_code, 'cv2' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.split() == ["400", "False"], done.stderr


@pytest.mark.skipif(not SCREENSHOTS.is_dir(), reason="../shared/screenshots is absent")
def test_import_reads_a_shared_screenshot_of_the_game(client):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    shot = sorted(SCREENSHOTS.glob("*.png"))[0]
    board = client.post(f"/api/import?name={shot.name}", content=shot.read_bytes(), headers=PNG).json()
    expected = parse(shot.with_suffix(".txt").read_text(), str(shot))[0]
    assert endpoint_pairs(board) == endpoint_pairs(tasks.board(expected))


# ---- errors: the CLI's line, 4xx, and the server keeps serving ----


def corpus_text(path) -> str:
    """A bad file's bytes as the JSON string a client would send (undecodable bytes as lone surrogates)."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


@pytest.mark.parametrize("path", [p for p in CORPUS if p.stat().st_size < 100_000], ids=lambda p: p.name)
def test_a_bad_file_answers_400_with_the_cli_line(client, path):
    body = json.dumps({"puzzle": corpus_text(path), "name": str(path)})
    answer = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
    cli_line = runner.invoke(cli, ["solve", str(path)]).stderr.strip()
    assert (answer.status_code, answer.json()) == (400, {"error": cli_line})


@pytest.mark.parametrize(
    ("ask", "status", "message"),
    [
        ({"puzzle": STARTER, "engine": "nope"}, 400, "cpflow: engine 'nope' is not available; known: cpsat"),
        ({"puzzle": "  \n"}, 400, "puzzle: empty file: no puzzle in it"),
        ({"puzzle": STARTER, "index": 2}, 400, "puzzle: holds 1 puzzle(s), no puzzle 2"),
        ({"puzzle": STARTER, "input_format": "xml"}, 400, "puzzle: unknown format 'xml'"),
        ({"puzzle": "R" + "." * 58 + "R\n" + ("." * 60 + "\n") * 59}, 413, "cpflow: puzzle: board of 60x60 is over"),
        ({"puzzle": STARTER, "time_limit": 31}, 422, "time_limit: at most 30 seconds on this server"),
        ({"puzzle": STARTER, "time_limit": -1}, 422, "time_limit: Input should be greater than 0"),
        ({"puzzle": 5}, 422, "puzzle: Input should be a valid string"),
        ({}, 422, "puzzle: Field required"),
    ],
)
def test_bad_requests_answer_4xx_with_one_line(client, ask, status, message):
    answer = client.post("/api/solve", json=ask)
    assert answer.status_code == status and answer.json()["error"].startswith(message), answer.json()
    assert "\n" not in answer.json()["error"]


def test_oversized_and_malformed_bodies_are_refused(client):
    huge = client.post("/api/solve", json={"puzzle": "." * (LIMITS.max_bytes + 1)})
    assert huge.status_code == 413 and "larger than this server's limit" in huge.json()["error"]
    pieces = iter([b'{"puzzle": "', b"." * LIMITS.max_bytes, b'"}'])
    chunked = client.post("/api/solve", content=pieces, headers={"content-type": "application/json"})
    assert chunked.status_code == 413
    broken = client.post("/api/solve", content=b'{"puzzle": ', headers={"content-type": "application/json"})
    assert broken.status_code == 422 and broken.json()["error"].startswith("body")
    assert client.get("/api/solve").status_code == 405
    assert client.get("/nowhere.js").status_code == 404


def test_the_server_keeps_serving_after_errors(client):
    for _ in range(3):
        client.post("/api/solve", json={"puzzle": "R.\n"})
    assert client.post("/api/solve", json={"puzzle": STARTER}).json()["status"] == "solved"


def test_the_page_and_the_api_documentation_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<svg id="editor"' in page.text and "__CONFIG__" not in page.text
    assert "http" not in page.text.split("<body>")[0]  # nothing from another site: no CDN
    assert client.get("/page.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/page.css").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/solve", "/api/unique", "/api/count", "/api/generate", "/api/render", "/api/import"} <= set(paths)
    assert "image/png" in paths["/api/import"]["post"]["requestBody"]["content"]
    docs = client.get("/docs").text
    assert "swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()


def test_a_full_queue_answers_503(client):
    jobs: Jobs = client.app.state.jobs
    still_there = _never_gone
    naps = [
        client.portal.start_task_soon(jobs.run, nap, {"seconds": 1.5}, still_there)
        for _ in range(LIMITS.workers + LIMITS.queue)
    ]
    time.sleep(0.2)
    busy = client.post("/api/solve", json={"puzzle": STARTER})
    assert busy.status_code == 503 and "busy" in busy.json()["error"] and busy.headers["retry-after"]
    assert [nap.result(timeout=30) for nap in naps] == [("ok", 1.5)] * len(naps)
    assert client.post("/api/solve", json={"puzzle": STARTER}).status_code == 200


def test_a_solve_past_its_time_limit_answers_unknown_in_time():
    """ILP-CBC on a 30x30 board whose paths may touch themselves (no search first) overruns a 1 s limit
    (model building is not cut short); the job is stopped after the grace, and the answer is the
    record of a time-out."""
    from cpflow.engines.catalog import available

    if "ilp-cbc" not in available():
        pytest.skip("ilp-cbc is not installed")
    with TestClient(create_app(Limits(workers=1, grace=0.5)), base_url=BOUND) as quick:
        began = time.perf_counter()
        big = (PUZZLES / "gen_30x30_01.txt").read_text()
        answer = quick.post(
            "/api/solve", json={"puzzle": big, "engine": "ilp-cbc", "time_limit": 1, "allow_touch": True}
        )
        assert answer.status_code == 200 and time.perf_counter() - began < 20
        record = answer.json()
        assert (record["status"], record["paths"], record["width"]) == ("unknown", {}, 30)


def test_a_real_server_stops_the_job_of_a_client_that_went_away(tmp_path):
    """Against `cpflow serve` itself: a count that would run 30 s is stopped when its client hangs up."""
    import socket
    import subprocess
    import sys

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "cpflow", "serve", "--port", str(port), "--workers", "1"]
    with log.open("w") as err:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(url)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        open_board = "R" + "." * 38 + "B\n" + ("." * 40 + "\n") * 38 + "B" + "." * 38 + "R\n"
        slow = {"puzzle": open_board, "allow_touch": True, "allow_blanks": True, "time_limit": 30}
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{url}/api/count", json=slow, timeout=2)
        for _ in range(100):
            if "stopped a count job (the client went away)" in log.read_text():
                break
            time.sleep(0.1)
        assert "stopped a count job (the client went away); its worker was replaced" in log.read_text()
        again = httpx.post(f"{url}/api/solve", json={"puzzle": STARTER}, timeout=30)
        assert again.json()["status"] == "solved"
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_real_server_stopped_with_ctrl_c_or_sigterm_exits_0_and_leaves_no_worker(stop):
    """docs/commands.md: serve exits 0 when stopped with Ctrl-C. uvicorn raises the signal again once
    it has shut down, and the server exited 130."""
    import os
    import signal
    import socket

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "cpflow", "serve", "--port", str(port), "--workers", "1"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(300):
            try:
                if httpx.post(f"http://127.0.0.1:{port}/api/solve", json={"puzzle": STARTER}, timeout=30).is_success:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        workers = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        assert workers
        server.send_signal(getattr(signal, stop))
        assert server.wait(timeout=30) == 0

        def alive(pid: int) -> bool:  # not gone, nor a zombie
            try:
                return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
            except FileNotFoundError:
                return False

        waited = time.monotonic()  # the workers are killed before the server ends; a helper it started (the
        while any(map(alive, map(int, workers))) and time.monotonic() - waited < 5:  # spawn context's resource
            time.sleep(0.05)  # tracker) ends once the server's end of its pipe closes, a moment after
        assert not [pid for pid in map(int, workers) if alive(pid)]
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# ---- the worker pool on its own ----


def nap(ask: dict, limits: Limits) -> float:
    """A task that takes its time (a stand-in for a long solve)."""
    time.sleep(ask["seconds"])
    return ask["seconds"]


async def _never_gone() -> bool:
    return False


def in_pool(limits: Limits, body) -> object:
    """Run `body(jobs)` with a started pool, then stop it."""

    async def main():
        jobs = Jobs(limits)
        jobs.start()
        try:
            return await body(jobs)
        finally:
            jobs.stop()

    return asyncio.run(main())


def test_a_job_whose_client_went_away_is_stopped_and_its_worker_replaced():
    async def body(jobs: Jobs):
        await jobs.run(nap, {"seconds": 0}, _never_gone)  # the worker is warm
        (before,) = jobs.workers
        began = time.perf_counter()
        left = asyncio.get_running_loop().time() + 0.3

        async def gone() -> bool:
            return asyncio.get_running_loop().time() > left

        with pytest.raises(Gone):
            await jobs.run(nap, {"seconds": 60}, gone)
        assert time.perf_counter() - began < 10 and not before.process.is_alive()
        (after,) = jobs.workers
        assert after is not before and after.process.is_alive()
        status, record = await jobs.run(tasks.solve, _ask(STARTER), _never_gone)
        assert (status, record["status"]) == ("ok", "solved")

    in_pool(Limits(workers=1), body)


def test_a_worker_killed_while_idle_is_replaced_and_the_job_runs_on_another():
    """A request sent to a worker killed while idle ended in a BrokenPipeError: a plain-text 500."""

    async def body(jobs: Jobs):
        await jobs.run(nap, {"seconds": 0}, _never_gone)  # the worker is warm, and idle
        (before,) = jobs.workers
        before.process.kill()
        before.process.join(timeout=5)
        status, record = await jobs.run(tasks.solve, _ask(STARTER), _never_gone)
        assert (status, record["status"]) == ("ok", "solved")
        (after,) = jobs.workers
        assert after is not before and after.process.is_alive()

    in_pool(Limits(workers=1), body)


def test_boards_answered_inline_go_one_at_a_time_and_past_the_line_are_busy():
    """A flood of /api/board (each 0.07 s for a 50x50 hexagonal board's geometry, its JSON made on the
    event loop) took every thread and slowed a solve from 4 ms to 3 s."""
    from cpflow.web.jobs import Inline

    async def main():
        inline, running = Inline(2), []

        def work(seconds: float) -> float:
            running.append(seconds)
            assert len(running) == 1  # one at a time
            time.sleep(seconds)
            running.pop()
            return seconds

        first = [asyncio.ensure_future(inline.run(work, 0.2)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy):
            await inline.run(work, 0)
        assert await asyncio.gather(*first) == [0.2, 0.2]
        assert await inline.run(work, 0) == 0

    asyncio.run(main())


def test_a_job_past_its_time_limit_and_grace_is_stopped():
    async def body(jobs: Jobs):
        with pytest.raises(Overdue):
            await jobs.run(nap, {"seconds": 60, "time_limit": 0.2}, _never_gone)
        status, answer = await jobs.run(nap, {"seconds": 0.01, "time_limit": 5}, _never_gone)
        return status, answer

    assert in_pool(Limits(workers=1, grace=0.3), body) == ("ok", 0.01)


def test_more_requests_than_workers_and_queue_are_refused_at_once():
    async def body(jobs: Jobs):
        running = [asyncio.ensure_future(jobs.run(nap, {"seconds": 1}, _never_gone)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy):
            await jobs.run(nap, {"seconds": 0}, _never_gone)
        return await asyncio.gather(*running)

    assert in_pool(Limits(workers=1, queue=1), body) == [("ok", 1), ("ok", 1)]


def test_a_bad_puzzle_fails_in_the_worker_with_the_cli_line():
    status, failure = tasks.run(tasks.solve, _ask("RR\n.\n"), LIMITS)
    assert status == "failed" and failure == tasks.Failure(400, "puzzle:2:2: row has 1 cells, the first row has 2")


def _ask(text: str) -> dict:
    return {"puzzle": text, "name": "puzzle", "input_format": "auto", "index": 1, "engine": "cpsat", "time_limit": 5}


# ---- what a browser is allowed to do with the answers ----

PAGES = ["/", "/page.js", "/page.css", "/docs", "/docs.js", "/openapi.json", "/static-offline-docs/swagger-ui.css"]


def policy(answer) -> dict[str, str]:
    """An answer's Content-Security-Policy, directive by directive."""
    directives = (part.strip().split(" ", 1) for part in answer.headers["content-security-policy"].split(";"))
    return {name: value for name, value in directives}


@pytest.mark.parametrize("path", PAGES + ["/nowhere.js"])
def test_every_page_carries_the_security_headers(client, path):
    assert_secured(client.get(path))


def test_every_api_answer_carries_the_security_headers_errors_too(client):
    for answer in [
        client.post("/api/solve", json={"puzzle": STARTER}),
        client.post("/api/solve", json={"puzzle": "R.\n"}),  # 400
        client.post("/api/solve", json={"puzzle": "." * (LIMITS.max_bytes + 1)}),  # 413
        client.post("/api/solve", json={}),  # 422
        client.post("/api/solve", json={"puzzle": STARTER}, headers={"host": "evil.example:8000"}),  # 421
        client.post("/api/render", json={"puzzle": STARTER}),  # an SVG
    ]:
        assert_secured(answer)


def assert_secured(answer) -> None:
    rules = policy(answer)
    assert rules["default-src"] == "'none'" and rules["script-src"] == "'self'" and rules["style-src"] == "'self'"
    assert rules["frame-ancestors"] == "'none'" and "unsafe" not in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY" and answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/docs"])
def test_the_pages_have_no_inline_script_style_or_handler(client, path):
    """The policy allows only the server's own files, so the pages must not need more."""
    import re

    html = client.get(path).text
    scripts = re.findall(r"<script([^>]*)>", html)
    assert all("src=" in attributes or 'type="application/json"' in attributes for attributes in scripts)
    assert not re.search(r"<style|\sstyle=|\son[a-z]+=", html)


# ---- the Host a request names (DNS rebinding) ----


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST.:8000", "127.0.0.2:8000"]
)
def test_requests_for_the_loopback_names_are_answered(client, host):
    assert client.post("/api/solve", json={"puzzle": STARTER}, headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host",
    ["rebind.example:8000", "rebind.example", "localhost.rebind.example:8000", "localhost:8001", "localhost",
     "127.0.0.1", "10.0.0.1:8000", "[::2]:8000", "a b:8000", ""],
)  # fmt: skip
def test_a_request_for_another_host_is_refused_with_421_in_one_line(client, host):
    answer = client.post("/api/solve", json={"puzzle": STARTER}, headers={"host": host})
    assert answer.status_code == 421 and answer.json()["error"].startswith("cpflow: ")
    if host:
        assert f"does not answer requests for {host}" in answer.json()["error"] and "--allowed-host" in answer.text


def test_allowed_hosts_are_answered_on_any_port_or_on_the_one_named():
    from cpflow.web.hosts import Hosts

    hosts = Hosts.bound("127.0.0.1", 8000, allowed=["flow.example.org", "Proxy.Example:443"])
    assert (
        hosts.allows("flow.example.org:8000") and hosts.allows("flow.example.org") and hosts.allows("proxy.example:443")
    )
    assert not hosts.allows("proxy.example:8000") and not hosts.allows("rebind.example:8000")


def test_bound_to_every_interface_any_address_and_this_machines_names_are_answered():
    import socket

    from cpflow.web.hosts import Hosts

    hosts = Hosts.bound("0.0.0.0", 8000)
    for host in ["192.168.1.20:8000", "[fe80::1]:8000", "localhost:8000", f"{socket.gethostname()}:8000"]:
        assert hosts.allows(host), host
    assert not hosts.allows("rebind.example:8000") and not hosts.allows("192.168.1.20:8001")
    named = Hosts.bound("192.168.1.20", 80)
    assert named.allows("192.168.1.20") and not named.allows("127.0.0.1") and not named.allows("localhost")


@pytest.mark.parametrize("value", ["a b", "flow.example:0", "flow.example:http", "::1", "[::1", "/x"])
def test_a_bad_allowed_host_is_one_line_and_exit_2(value):
    done = runner.invoke(cli, ["serve", "--allowed-host", value])
    assert done.exit_code == 2 and done.stderr.startswith(f"cpflow serve: --allowed-host: {value!r} is not a host")
    assert done.stderr.count("\n") == 1


# ---- clients that stall: against a real server with short deadlines ----

QUICK = Limits(workers=1, header_timeout=1, body_timeout=2, stall_timeout=2, idle_timeout=1)


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """`cpflow serve`'s server on a free port, with QUICK's deadlines and one --allowed-host; its address."""
    import socket

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = (
        "import sys\nfrom cpflow.web.server import serve\nfrom cpflow.web.limits import Limits\n"
        f"sys.exit(serve('127.0.0.1', {port}, Limits(**{asdict(QUICK)!r}), ['flow.example']))\n"
    )
    log = tmp_path_factory.mktemp("quick") / "serve.log"
    with log.open("w") as err:
        server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=err)
    try:
        for _ in range(300):
            try:
                httpx.get(f"http://127.0.0.1:{port}/")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            pytest.fail(f"the server did not start: {log.read_text()}")
        yield ("127.0.0.1", port)
    finally:
        server.terminate()
        server.wait(timeout=20)


async def _closed_within(reader, seconds: float) -> bytes:
    """What the server sent before closing the connection (TimeoutError if it is still open after `seconds`)."""
    said = b""
    async with asyncio.timeout(seconds):
        while True:
            try:
                chunk = await reader.read(65536)
            except ConnectionError:
                return said
            if not chunk:
                return said
            said += chunk


@pytest.mark.timeout(60)
def test_clients_that_send_their_headers_slowly_or_nothing_are_dropped_and_others_answered(quick_server):
    """100 clients dribbling a request's headers a byte at a time, and one sending nothing: each is closed
    within the header deadline (with 408 when it sent something), while a normal request is answered."""
    import httpx

    host, port = quick_server
    request = f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: {'a' * 60}\r\n\r\n".encode()

    async def slow_client() -> bytes:
        reader, writer = await asyncio.open_connection(host, port)

        async def dribble():
            for byte in request[:-2]:  # never the blank line that ends the headers
                writer.write(bytes([byte]))
                await asyncio.sleep(0.1)

        dribbling = asyncio.ensure_future(dribble())
        try:
            return await _closed_within(reader, QUICK.header_timeout + 5)
        finally:
            dribbling.cancel()
            writer.close()

    async def silent_client() -> bytes:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            return await _closed_within(reader, QUICK.header_timeout + 5)
        finally:
            writer.close()

    async def main():
        slow = [asyncio.ensure_future(slow_client()) for _ in range(100)]
        silent = asyncio.ensure_future(silent_client())
        await asyncio.sleep(0.3)
        async with httpx.AsyncClient() as normal:
            answered = await normal.post(f"http://{host}:{port}/api/solve", json={"puzzle": STARTER}, timeout=30)
        return answered, await asyncio.gather(*slow), await silent

    answered, slow, silent = asyncio.run(main())  # each client fails if still open 5 s past the deadline
    assert answered.json()["status"] == "solved"
    assert all(said.startswith(b"HTTP/1.1 408 ") for said in slow), {said[:40] for said in slow}
    assert b"the request's headers did not arrive within 1 seconds" in slow[0] and silent == b""


@pytest.mark.timeout(60)
def test_a_body_that_does_not_arrive_in_time_answers_408_and_closes(quick_server):
    host, port = quick_server
    head = f"POST /api/solve HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
    head += "Content-Length: 1000\r\n\r\n"

    async def main():
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(head.encode() + b'{"puzzle": "')
        try:
            return await _closed_within(reader, QUICK.body_timeout + 5)
        finally:
            writer.close()

    said = asyncio.run(main())
    status, _, body = said.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 408 ") and b"connection: close" in status.lower()
    assert json.loads(body) == {"error": "cpflow: the request's body did not arrive within 2 seconds"}


@pytest.mark.timeout(60)
def test_a_client_that_does_not_read_its_answers_is_dropped(quick_server):
    """Eight requests for Swagger UI's script (1.5 MB) at once, nothing read: once the socket's buffers are
    full the server waits for the client, and drops it after the stall deadline."""
    import socket

    import fastapi_offline

    host, port = quick_server
    ask = f"GET /static-offline-docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    size = (Path(fastapi_offline.__file__).parent / "static" / "swagger-ui-bundle.js").stat().st_size
    with socket.socket() as stalled:
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect((host, port))
        stalled.sendall(ask * 8)
        time.sleep(QUICK.stall_timeout + 6)  # not reading
        received, closed = 0, False
        stalled.settimeout(5)
        try:
            while chunk := stalled.recv(1 << 20):
                received += len(chunk)
            closed = True
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            pass
    assert closed and 0 < received < 7 * size, received  # not all eight answers: cut off


def test_a_real_server_answers_its_allowed_host_and_refuses_others(quick_server):
    import httpx

    host, port = quick_server
    url = f"http://{host}:{port}/api/read"
    assert httpx.post(url, json={"puzzle": STARTER}, headers={"host": f"flow.example:{port}"}).status_code == 200
    refused = httpx.post(url, json={"puzzle": STARTER}, headers={"host": f"rebind.example:{port}"})
    assert refused.status_code == 421 and "--allowed-host rebind.example" in refused.json()["error"]


# ---- `cpflow serve`'s exit codes ----


def serve_command(*options: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "cpflow", "serve", "--workers", "1", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_port_in_use_is_one_line_and_exit_2():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve_command("--port", str(port))
    assert (done.returncode, done.stderr) == (2, f"cpflow: port {port} is in use\n")


@pytest.mark.parametrize(
    ("host", "why"), [("nosuch.invalid", ""), ("192.0.2.1", "Cannot assign requested address"), ("::g", "")]
)
def test_a_host_that_cannot_be_bound_is_one_line_and_exit_2(host, why):
    done = serve_command("--host", host, "--port", "8000")
    assert done.returncode == 2 and done.stderr.startswith(f"cpflow: cannot bind to host {host}: {why}")
    assert done.stderr.count("\n") == 1, done.stderr


def test_a_port_that_needs_privileges_is_named_as_the_cause(monkeypatch):
    import errno
    import socket

    from cpflow.web import server

    def refuse(sock, address):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(socket.socket, "bind", refuse)
    with pytest.raises(server.Unbindable, match="^cannot listen on port 80: Permission denied$"):
        server.listen("127.0.0.1", 80)


def test_serve_exits_2_on_bad_usage_and_without_the_web_extra(monkeypatch, capsys):
    assert runner.invoke(cli, ["serve", "--port", "70000"]).exit_code == 2
    from cpflow.web import server

    monkeypatch.setattr(server.importlib.util, "find_spec", lambda name: None)
    assert server.serve("127.0.0.1", 8000) == 2
    assert "pip install 'cpflow[web]'" in capsys.readouterr().err


# ---- hint: the next step of a play, as `cpflow hint --format json` ----


def test_hint_answers_the_cli_record_for_a_play(client, tmp_path):
    answer = client.post("/api/hint", json={"puzzle": STARTER})
    assert answer.status_code == 200
    assert answer.json() == cli_record(tmp_path, "hint", STARTER)
    assert answer.json()["status"] == "step"
    play = (PUZZLES / "plays" / "starter_5x5_mistake.txt").read_text()
    mistake = client.post("/api/hint", json={"puzzle": STARTER, "play": play}).json()
    assert mistake["status"] == "mistake" and mistake["cells"] == [[3, 2]]


def test_hint_all_reaches_the_solution_and_grades_it(client):
    answer = client.post("/api/hint", json={"puzzle": STARTER, "all": True}).json()
    assert answer["hints"][-1]["status"] == "solved"
    puzzle = parse(STARTER)[0]
    final = answer["hints"][-1]["play"]
    assert violations(puzzle, parse_solution(puzzle, "\n".join(final) + "\n")) == []
    assert sum(answer["summary"]["steps"].values()) == len(answer["hints"]) - 1
    assert answer["summary"]["grade"] in ("easy", "medium", "hard", "expert")


def test_hint_refuses_a_bad_play_and_other_rules_with_400(client):
    bad = client.post("/api/hint", json={"puzzle": STARTER, "play": "ZZZZZ\n.....\n.....\n.....\n.....\n"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("play:")
    touching = client.post("/api/hint", json={"puzzle": STARTER, "allow_touch": True})
    assert touching.status_code == 400 and "Flow Free's rules" in touching.json()["error"]


def test_unsolvable_answers_say_why_as_the_cli_does(client, tmp_path):
    answer = client.post("/api/solve", json={"puzzle": UNSOLVABLE}).json()
    assert answer["why"] == cli_record(tmp_path, "solve", UNSOLVABLE)["why"]
    assert client.post("/api/unique", json={"puzzle": UNSOLVABLE}).json()["why"]["minimal"] is True


@pytest.mark.parametrize("field", ["allow_touch", "allow_blanks", "draw"])
@pytest.mark.parametrize("value", ["yes", "true", 1, "on"])
def test_a_boolean_field_takes_true_or_false_only(client, field, value):
    answer = client.post("/api/solve", json={"puzzle": STARTER, field: value})
    assert answer.status_code == 422 and field in answer.json()["error"]

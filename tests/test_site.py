"""`cpflow site` (issue 41): what the static site holds, and its Python answering as `cpflow serve` and the CLI do
with no solver library and no compiled core (as under Pyodide). tests/test_site_page.py runs it in Chromium."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from importlib import resources

import pytest

from conftest import PUZZLES, ROOT
from cpflow.web import browser, site

PAGE = resources.files("cpflow.web") / "page"
STARTER = (PUZZLES / "starter_5x5.txt").read_text()
STARTER_SOLVED = (PUZZLES / "starter_5x5.solution.txt").read_text()


def config_of(index: str) -> dict:
    return json.loads(index.split('<script id="config" type="application/json">', 1)[1].split("</script>", 1)[0])


def test_the_site_holds_the_same_page_the_package_and_the_loader(tmp_path):
    written = site.build(tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(path.name for path in out.iterdir()) == written
    for path in PAGE.iterdir():  # the page cpflow serve serves, not a copy kept apart
        if path.name.endswith((".js", ".css", ".json")):
            assert (out / path.name).read_bytes() == path.read_bytes(), path.name
    index = (out / "index.html").read_text()
    settings = config_of(index)
    assert settings["backend"] == "browser" and settings["engines"] == [browser.ENGINE]
    assert '<link rel="manifest" href="manifest.webmanifest">' in index
    assert '<link rel="apple-touch-icon" href="apple-touch-icon.png">' in index
    assert site.CDN in (out / "cpflow.js").read_text() and not (out / "pyodide").exists()
    names = zipfile.ZipFile(io.BytesIO((out / "cpflow.zip").read_bytes())).namelist()
    assert "cpflow/web/browser.py" in names and "cpflow/deduce/search.py" in names
    assert not [name for name in names if name.endswith((".so", ".c", ".pyc")) or "/page/" in name]
    worker = json.loads((out / "sw.js").read_text().split("const SETTINGS = ", 1)[1].split(";\n", 1)[0])
    assert set(worker["files"]) == {"./", *written} - {"index.html", "sw.js", site.MARKER} and worker["cdn"] == site.CDN
    blank = json.loads((out / "blank.json").read_text())["square 5x5"]
    assert blank["text"] == ".....\n" * 5 and len(blank["geometry"]["cells"]) == 25


def test_the_icon_for_a_phones_home_screen_is_a_180_pixel_png_of_a_solved_board():
    """An iPhone takes no SVG icon: the site had none for it. The PNG is drawn by cpflow's pictures (a solved 4x4)."""
    from PIL import Image

    from cpflow.board.formats import parse, parse_solution
    from cpflow.board.verify import violations
    from cpflow.pictures.palette import GAME

    icon = Image.open(io.BytesIO(site.icon()))
    assert icon.format == "PNG" and icon.size == (180, 180)
    puzzle = parse(site.ICON_BOARD[0], "icon")[0]
    assert violations(puzzle, parse_solution(puzzle, site.ICON_BOARD[1])) == []
    assert icon.getpixel((2, 2)) == icon.getpixel((177, 177))  # a margin all round, for the phone's rounded corners
    red = GAME["R"]
    assert any(
        max(abs(a - b) for a, b in zip(icon.getpixel((x, 33)), red, strict=True)) < 30 for x in range(180)
    )  # row 1: R


def run_site(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cpflow", "site", *args], capture_output=True, text=True, cwd=cwd)


def test_a_site_written_again_is_a_fresh_folder_and_no_other_folder_is_replaced(tmp_path):
    """Written over an older site, the files it no longer has (an old `pyodide/`) stayed; now the folder is written
    beside and swapped in. A folder that is no site of cpflow's, a file, or the folder the command runs in is
    refused in one line, exit 2, and left as it was."""
    out = tmp_path / "site"
    first = run_site("--out", str(out))
    assert first.returncode == 0, first.stderr
    (out / "pyodide").mkdir()
    (out / "pyodide" / "pyodide.asm.wasm").write_text("an older site's runtime")
    (out / "old.js").write_text("")
    again = run_site("--out", str(out))
    assert again.returncode == 0, again.stderr
    assert sorted(path.name for path in out.iterdir()) == sorted(site.build(tmp_path / "other"))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["other", "site"]  # nothing left beside it
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    refused = run_site("--out", str(mine))
    assert (refused.returncode, refused.stderr) == (
        2,
        f"{mine}: holds files and no cpflow-site.txt, so no site of cpflow's: name a new or empty folder\n",
    )
    assert [path.name for path in mine.iterdir()] == ["notes.txt"]
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert run_site("--out", str(a_file)).returncode == 2 and a_file.read_text() == ""
    inside = run_site("--out", ".", cwd=out)
    assert inside.returncode == 2 and inside.stderr == (
        ".: holds the folder you are in: name it from outside (cd .. && cpflow site --out site)\n"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_site("--out", str(empty)).returncode == 0 and (empty / site.MARKER).is_file()


def test_the_zip_is_the_same_bytes_for_the_same_files():
    assert site.package() == site.package()


def test_a_local_runtime_is_copied_in_and_a_folder_without_one_refused(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in site.RUNTIME[:-1]:
        (runtime / name).write_text(name)
    command = [sys.executable, "-m", "cpflow", "site", "--out", str(tmp_path / "out"), "--pyodide", str(runtime)]
    refused = subprocess.run(command, capture_output=True, text=True)
    assert refused.returncode == 2 and not (tmp_path / "out" / "index.html").exists()
    assert (
        refused.stderr
        == f"{runtime}: is no Pyodide runtime: no pyodide-lock.json (npm pack pyodide@314.0.7: its package/ folder)\n"
    )
    (runtime / "pyodide-lock.json").write_text("{}")
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "pyodide" / "pyodide.asm.wasm").read_text() == "pyodide.asm.wasm"
    assert 'new URL("pyodide/", import.meta.url)' in (tmp_path / "out" / "cpflow.js").read_text()
    assert (
        json.loads((tmp_path / "out" / "sw.js").read_text().split("const SETTINGS = ", 1)[1].split(";\n")[0])["cdn"]
        is None
    )


def test_the_browsers_defaults_are_the_apps_request_models():
    """browser.DEFAULTS fills in what app.py's request models would (the engine aside: the browser's own)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[test]'")
    from cpflow.web import app

    models = {
        "solve": app.SolveAsk,
        "unique": app.SolveAsk,
        "count": app.CountAsk,
        "hint": app.HintAsk,
        "fix": app.FixAsk,
        "render": app.RenderAsk,
        "read": app.PuzzleAsk,
        "generate": app.GenerateAsk,
    }
    for kind, model in models.items():
        defaults = {name: field.default for name, field in model.model_fields.items() if not field.is_required()}
        if "engine" in defaults:
            defaults["engine"] = browser.ENGINE
        assert defaults == browser.DEFAULTS[kind], kind


# Run in a fresh interpreter in which OR-Tools, PuLP, python-sat, HiGHS, Pillow and the compiled core cannot be
# imported, as under Pyodide: each answer as JSON on a line.
WITHOUT_SOLVERS = """
import sys
for name in ("ortools", "pulp", "pysat", "highspy", "PIL", "cv2", "numpy", "fastapi", "pydantic"):
    sys.modules[name] = None
sys.modules["cpflow.deduce._core"] = None
from cpflow.web import browser
puzzle, solution = sys.argv[1], sys.argv[2]
print(browser.solve(puzzle))
print(browser.unique(puzzle))
print(browser.hint(puzzle, None))
print(browser.verify(puzzle, solution))
print(browser.verify(puzzle, solution.replace("C", "B", 1)))
print(browser.solve(puzzle[:9]))
print(browser.hint(puzzle, ".GYYY\\nGO..B\\nR.CO.\\nBR.C.\\n.....\\n"))
print(browser.hint(puzzle, "..Y.Y\\nGOY.B\\nR.CO.\\nBR.C.\\n.....\\n"))
print(browser.solve("R...G\\n.....\\n.....\\n.....\\nG...R\\n"))
print(browser.answer("api/render", '{"puzzle": ' + __import__("json").dumps(puzzle) + '}'))
"""


def test_without_solver_libraries_the_answers_are_the_clis_records():
    from cpflow.web import tasks
    from cpflow.web.limits import Limits

    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_SOLVERS, STARTER, STARTER_SOLVED], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    solved, unique, hint, right, wrong, bad, step, mistake, cross, render = map(json.loads, run.stdout.splitlines())
    ask = browser.DEFAULTS["solve"] | {"puzzle": STARTER, "engine": "cpsat", "time_limit": 10}
    cli = tasks.solve(ask, Limits())
    assert {**solved["ok"], "seconds": 0} == {**cli, "seconds": 0}
    assert unique["ok"]["verdict"] == "unique" and unique["ok"]["solutions"][0]["grid"] == cli["grid"]
    hinted = tasks.hint(browser.DEFAULTS["hint"] | {"puzzle": STARTER, "time_limit": 10}, Limits())
    assert hint["ok"] == hinted
    assert right["ok"]["valid"] is True and right["ok"]["mistakes"] == []
    assert wrong["ok"]["valid"] is False and wrong["ok"]["mistakes"][0]["line"].startswith("r")
    assert bad == {"error": "puzzle:2:4: row has 3 cells, the first row has 5", "status": 400}
    assert step["ok"]["status"] == "step" and step["ok"]["colour"] == "B"
    assert mistake["ok"]["status"] == "mistake" and mistake["ok"]["cells"] == [
        [1, 2]
    ]  # no CP-SAT: the search's solution
    assert cross["ok"]["status"] == "unsolvable" and "needs OR-Tools" in cross["ok"]["why"]["sentence"]
    assert render["ok"]["media"] == "image/svg+xml" and render["ok"]["text"].startswith("<svg")


def test_verify_answers_the_record_cpflow_verify_prints_with_format_json():
    wrong = STARTER_SOLVED.replace("C", "B", 1)
    for solution, code in ((STARTER_SOLVED, 0), (wrong, 1)):
        command = [sys.executable, "-m", "cpflow", "verify", str(PUZZLES / "starter_5x5.txt"), "-", "--format", "json"]
        run = subprocess.run(command, input=solution, capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == code, run.stderr
        cli = json.loads(run.stdout)
        assert json.loads(browser.verify(STARTER, solution))["ok"] == {**cli, "file": "puzzle"}


def test_the_manifest_names_the_app_its_icon_and_the_pages_own_background():
    """What a phone needs to add the site to its home screen; its splash screen the page's dark background (it was
    white, a flash before the dark page)."""
    manifest = json.loads((resources.files("cpflow.web") / "site" / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    assert manifest["short_name"] and [icon["src"] for icon in manifest["icons"]] == ["icon.svg"]
    background = re.search(r"--bg: (#[0-9a-f]{6});", (PAGE / "page.css").read_text())[1]
    assert manifest["background_color"] == background

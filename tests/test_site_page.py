"""The static site (`cpflow site --pyodide RUNTIME`) in a real Chromium, served by `python -m http.server` on
loopback: no cpflow process, cpflow's Python runs in the browser (Pyodide). On a phone's screen a level is hinted,
played to "Solved!" and solved; `window.cpflow.solve` gives the CLI's answers on the classic set; after a first visit
the site opens without a network (its service worker).

The runtime is the npm package `pyodide` of the pinned version, unpacked (`npm pack pyodide@314.0.7`): .ci/run
fetches it into ~/.cache/cpflow/pyodide/VERSION and names it in CPFLOW_PYODIDE. Without it, or without Chromium,
these tests skip (CI sets CPFLOW_REQUIRE_BROWSER: there they must run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tabs import PHONE, PHONE_CONTEXT, open_phone, scripts_errors
from test_web_page import CHROMIUM, free_port, pick_level, solution_paths, touch_drag

from conftest import PUZZLES, needs_zucker, zucker_puzzles
from cpflow.web import site

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install '.[test]'")
RUNTIME = Path(os.environ.get("CPFLOW_PYODIDE") or Path.home() / ".cache" / "cpflow" / "pyodide" / site.VERSION)
FETCH = f"npm pack pyodide@{site.VERSION} and unpack its package/ folder as {RUNTIME} (or name it in CPFLOW_PYODIDE)"
HAS_RUNTIME = (RUNTIME / "pyodide.asm.wasm").is_file()
if not HAS_RUNTIME and os.environ.get("CPFLOW_REQUIRE_BROWSER"):
    pytest.fail(f"no Pyodide runtime at {RUNTIME}, and CPFLOW_REQUIRE_BROWSER is set: {FETCH}", pytrace=False)
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (see tests/test_web_page.py)"),
    pytest.mark.skipif(not HAS_RUNTIME, reason=f"no Pyodide runtime: {FETCH}"),
]
SHOTS = os.environ.get("CPFLOW_SHOTS") and Path(os.environ["CPFLOW_SHOTS"])  # where to keep the screenshots taken
STARTUP = 180_000  # ms for the runtime to start: 2 s on an idle machine, more on a loaded one


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The site, built with the local runtime and served by Python's static server on loopback."""
    out = tmp_path_factory.mktemp("site")
    site.build(out, RUNTIME)
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(out)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    import httpx

    for _ in range(100):
        try:
            httpx.get(url)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(timeout=20)


@pytest.fixture(scope="module")
def chromium():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def phone(chromium, served):
    """The site on a phone's screen, the runtime up; its errors must be none."""
    tab, errors = open_phone(chromium, served)
    tab.wait_for_selector("body[data-ready]")
    drawn_at_once = tab.locator("#editor [data-cell]").count()
    tab.wait_for_selector("body[data-python=ready]", state="attached", timeout=STARTUP)
    tab.drawn_at_once = drawn_at_once
    yield tab
    tab.context.close()
    assert scripts_errors(errors) == [], errors


def test_on_a_phone_a_level_is_hinted_played_to_the_end_and_solved(phone, tmp_path):
    assert phone.drawn_at_once == 25  # the blank board, before the runtime was up
    level = pick_level(phone, "starter_7x7")
    phone.click("#hint")
    phone.wait_for_selector("#status:text-matches('^Hint: ')")
    assert phone.locator("#editor .p-step").count() >= 1
    phone.click("#apply")
    paths = solution_paths(level["name"])
    for path in paths.values():
        touch_drag(phone, path)
    phone.wait_for_selector("#status:text-matches('^Solved!')")
    phone.screenshot(path=str(SHOTS / "site_played.png") if SHOTS else str(tmp_path / "played.png"))
    phone.click("#play")  # out of Play, then Solve
    phone.click("#solve")
    phone.wait_for_selector("#status:text-matches('^Solved')")
    assert phone.locator("#result svg").count() == 1


@needs_zucker
def test_window_cpflow_solve_gives_the_clis_answers_on_the_classic_set(phone):
    from cpflow.web import browser, tasks
    from cpflow.web.limits import Limits

    texts = {path.name: path.read_text() for path in zucker_puzzles()}
    found = phone.evaluate(
        "async (texts) => { const out = {}; for (const [name, text] of Object.entries(texts))"
        " out[name] = await cpflow.solve(text); return out; }",
        texts,
    )
    for name, text in texts.items():
        cli = tasks.solve(browser.DEFAULTS["solve"] | {"puzzle": text, "engine": "cpsat", "time_limit": 30}, Limits())
        assert found[name]["status"] == cli["status"], name
        assert paths_of(found[name]) == paths_of(cli), name


def paths_of(record: dict) -> set[tuple]:
    """The record's paths, each as its cells from its smaller end, whatever its colour is called."""
    return {
        min(tuple(map(tuple, path)), tuple(map(tuple, reversed(path)))) for path in record.get("paths", {}).values()
    }


def test_window_cpflow_hint_unique_verify_and_bad_input(phone):
    text = (PUZZLES / "starter_5x5.txt").read_text()
    solution = (PUZZLES / "starter_5x5.solution.txt").read_text()
    answers = phone.evaluate(
        "async ([text, solution]) => [await cpflow.hint(text), await cpflow.unique(text),"
        " await cpflow.verify(text, solution), await cpflow.solve('RB\\nR\\n').catch((error) => error.message)]",
        [text, solution],
    )
    hint, unique, verified, bad = answers
    assert hint["status"] == "step" and hint["cells"]
    assert unique["verdict"] == "unique" and verified == {**verified, "valid": True, "mistakes": []}
    assert bad == "puzzle:2:2: row has 1 cells, the first row has 2"


def test_after_a_first_visit_the_site_opens_without_a_network(chromium, served):
    context = chromium.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.goto(served)
    tab.wait_for_selector("body[data-python=ready]", state="attached", timeout=STARTUP)
    tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    tab.reload()
    tab.wait_for_selector("body[data-python=ready]", state="attached", timeout=STARTUP)
    record = tab.evaluate("cpflow.solve('RB\\nRB\\n')")
    controlled = tab.evaluate("navigator.serviceWorker.controller !== null")  # answered by the service worker
    context.close()
    assert controlled
    assert json.dumps(record["grid"]) == '["RB", "RB"]'


def test_an_unsolvable_puzzle_is_said_unsolvable_with_the_sentence_it_has(phone, served):
    """In the browser no smallest reason is looked for (no OR-Tools): its `why` has a sentence and no cells, and the
    page said only `Cannot read properties of undefined` for a Solve of it."""
    phone.goto(f"{served}#p=R.B/.../R.B")  # the middle column cannot be covered
    phone.wait_for_selector("#status:has-text('Loaded link: 3x3')")
    phone.click("#solve")
    phone.wait_for_selector("#status:text-matches('^Unsolvable')")
    said = phone.inner_text("#status")
    assert "no smallest reason looked for" in said and phone.is_hidden("#error")
    # what a player can do instead (it said `that needs OR-Tools, not installed here`, which no browser can)
    assert "a browser cannot run OR-Tools" in said and "`cpflow solve` or `cpflow serve` on a computer" in said


def test_a_runtime_that_does_not_load_is_said_with_where_from_and_what_to_do(chromium, served):
    """The bar said only `cpflow could not start in this browser: Failed to fetch` (or, for a 404, a later error of
    Pyodide's own); a level picked then says the same line."""
    context = chromium.new_context(viewport=PHONE)
    context.route("**/pyodide/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="not here"))
    tab = context.new_page()
    tab.goto(served)
    tab.wait_for_selector("#runtime:has-text('could not start')")
    said = tab.inner_text("#runtime")
    tab.select_option("#level", index=1)
    tab.wait_for_selector("#error:not([hidden])")
    error = tab.inner_text("#error")
    context.close()
    host = served.split("/")[2]
    assert f"the Python runtime did not load from {host} (pyodide.asm.wasm: answered 404)" in said, said
    assert said.endswith("check the connection, then reload the page") and error == said.strip()


def test_a_link_opens_in_play_and_a_reload_keeps_the_drawing(phone, served, tmp_path):
    phone.goto(f"{served}#p=.GY.Y/GO..B/R.CO./BR.C./.....")  # puzzles/starter_5x5.txt
    phone.wait_for_selector("#status:has-text('Loaded link: 5x5')")
    assert phone.get_attribute("#play", "aria-pressed") == "true"  # ready to play: it opened in the editor
    touch_drag(phone, [(1, 4), (2, 4), (3, 4)])
    phone.wait_for_function("() => location.hash.endsWith('&d=//....B/....B')")
    phone.reload()
    phone.wait_for_selector("#status:has-text('2 cells drawn')", timeout=STARTUP)
    phone.wait_for_selector("body[data-python=ready]", state="attached", timeout=STARTUP)
    assert phone.get_attribute("#play", "aria-pressed") == "true" and phone.locator("#editor .p-cell").count() == 2
    phone.screenshot(path=str(SHOTS / "site_reloaded.png") if SHOTS else str(tmp_path / "reloaded.png"))


def test_the_start_bar_spans_the_column_with_its_step_under_it(chromium, served):
    """The bar was a short inline bar with its step's words wrapped round it (`Step 1 of 3:` beside it, the rest
    under both): now it spans the column, its words on the line under it."""
    context = chromium.new_context(**PHONE_CONTEXT)
    context.route("**/pyodide/pyodide.asm.wasm", lambda route: None)  # held: the bar stays up at its first step
    tab = context.new_page()
    tab.goto(served)
    tab.wait_for_selector("#runtime span:has-text('Step 1 of 3')")
    bar, words, status = (
        tab.locator(selector).bounding_box() for selector in ("#runtime progress", "#runtime span", "#status")
    )
    context.close()
    assert abs(bar["width"] - status["width"]) <= 1 and words["y"] >= bar["y"] + bar["height"], (bar, words, status)


# Kept by the page as it loads: the start bar's value and words, every 50 ms.
WATCH_THE_BAR = """(() => {
  window.seen = [];
  setInterval(() => {
    const bar = document.getElementById("runtime");
    if (bar) window.seen.push([bar.querySelector("progress")?.value ?? null, bar.textContent.trim()]);
  }, 50);
})()"""


def test_the_start_bar_names_its_steps_and_moves_while_python_starts(chromium, served):
    """The bar stood at half for the ~20 s Python took to start (under load), saying only `Starting the Python
    runtime…`: now three named steps, and the one that cannot be measured moves on with its seconds."""
    context = chromium.new_context(viewport=PHONE)  # a first visit: nothing cached
    context.add_init_script(WATCH_THE_BAR)
    tab = context.new_page()
    tab.goto(served)
    tab.wait_for_selector("body[data-python=ready]", state="attached", timeout=STARTUP)
    seen = tab.evaluate("window.seen")
    context.close()
    steps = ["Step 1 of 3: downloading the runtime", "Step 2 of 3: starting Python", "Step 3 of 3: loading cpflow"]
    first = [next((i for i, (_, said) in enumerate(seen) if said.startswith(step)), None) for step in steps]
    assert None not in first and first == sorted(first), (first, seen[:3])
    values = [value for value, _ in seen]
    assert values == sorted(values), values  # never back
    starting = [value for value, said in seen if said.startswith(steps[1])]
    assert len(set(starting)) > 1, starting  # it moves while Python starts
    assert any(said.endswith(" s") and said[len(steps[1]) :].strip("… s").isdigit() for _, said in seen), seen[-5:]

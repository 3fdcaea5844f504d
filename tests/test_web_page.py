"""The page of `cpflow serve` in a real Chromium, driven by Playwright, against a real server.

A player clicks a 5x5 puzzle in and solves it (the drawing checked by its SVG elements
and by a screenshot's pixels at cell centres), asks whether a pasted puzzle is unique,
uploads a bad file, follows a link, uses the keyboard, edits variant boards, and
imports a screenshot of the game (chosen or dropped) to check and solve. Every test
runs under the server's Content-Security-Policy and fails on a violation of it; the
browser resolves two names to 127.0.0.1, one allowed (`--allowed-host`), one a rebinding.

Chromium is Debian's `chromium` package (Playwright's own browser download is not
needed): without it these tests skip, saying how to install it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from urllib.parse import quote, unquote

import pytest
from tabs import PHONE, SMALL_PHONES, checked, open_phone, open_tab, scripts_errors

from conftest import PUZZLES, ROOT
from cpflow.board.formats import parse, parse_solution
from cpflow.board.verify import violations
from cpflow.pictures.palette import colours
from cpflow.workflows.unique import Verdict, uniqueness

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install '.[test]'")
pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[test]'")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
INSTALL = "install it with `sudo apt-get install chromium` (Debian, Ubuntu) or put `chromium` on PATH"
if CHROMIUM is None and os.environ.get("CPFLOW_REQUIRE_BROWSER"):  # CI (.ci/run) must run these tests
    pytest.fail(f"no Chromium, and CPFLOW_REQUIRE_BROWSER is set: {INSTALL}", pytrace=False)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=f"no Chromium: {INSTALL}")

# starter_5x5, pair by pair: the page names the colours R, B, Y, G, O, C in the order they are placed.
STARTER_PAIRS = [((0, 1), (1, 0)), ((0, 2), (0, 4)), ((1, 1), (2, 3))]
STARTER_PAIRS += [((1, 4), (3, 0)), ((2, 0), (3, 1)), ((2, 2), (3, 3))]
CLICKED = ".RB.B\nRY..G\nO.CY.\nGO.C.\n.....\n"  # what those clicks make
TWO_SOLUTIONS = "B..G\n.GB.\n.RR.\n....\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """`cpflow serve` on a free port, as a player would start it."""
    import httpx

    port = free_port()
    command = [sys.executable, "-m", "cpflow", "serve", "--port", str(port), "--workers", "1"]
    command += ["--allowed-host", "flow.example"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(300):
        try:
            if httpx.get(url).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    else:
        process.kill()
        pytest.fail(f"cpflow serve did not start: {process.stderr.read()}")
    yield url
    process.terminate()
    process.wait(timeout=20)


# flow.example is the server's --allowed-host; rebind.example is a page's name pointed at 127.0.0.1 (DNS rebinding).
NAMES = "MAP flow.example 127.0.0.1, MAP rebind.example 127.0.0.1"


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[f"--host-resolver-rules={NAMES}"])
        yield chromium
        chromium.close()


def open_page(browser, url: str):
    """A fresh tab at `url` on a desktop's screen, and the errors it logs (scripts' and the console's)."""
    return open_tab(browser, url, viewport={"width": 1280, "height": 800}, accept_downloads=True)


def violations_of_the_policy(errors: list[str]) -> list[str]:
    return [error for error in errors if "Content Security Policy" in error]


@pytest.fixture
def page(browser, server):
    # the 4xx of bad input aside
    yield from checked(
        open_page(browser, server), lambda errors: scripts_errors(errors) + violations_of_the_policy(errors)
    )


def click_cell(page, cell) -> None:
    page.click(f'#editor [data-cell="{cell[0]},{cell[1]}"]')


def puzzle_in_address(page) -> str:
    """The puzzle the page's address holds, once the server has written the board as it stands."""
    page.wait_for_selector("body:not([data-writing])", state="attached")
    return puzzle_in(page.url)


def puzzle_in(link: str) -> str:
    """The puzzle a link holds after `#p=`: rows joined by `/` (or, with a `/` of its own, the whole text), up to the
    play drawn on it (`&d=`)."""
    text = unquote(link.split("#p=", 1)[1].split("&d=", 1)[0])
    return text if "\n" in text else text.replace("/", "\n") + "\n"


def link_to(text: str) -> str:
    """The `#p=` a player writes by hand: the rows joined by `/`, each character a link may not hold escaped."""
    return "#p=" + "/".join(quote(row, safe="!$&'()*+,;=:@") for row in text.splitlines())


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    return image.getpixel((int(x), int(y)))[:3]


def near(rgb, expected, slack: int = 40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(rgb, expected, strict=True))


def test_a_clicked_in_puzzle_is_solved_and_drawn(page):
    from PIL import Image

    for a, b in STARTER_PAIRS:
        click_cell(page, a)
        click_cell(page, b)
    assert page.locator("#editor .e-dot").count() == 12
    assert puzzle_in_address(page) == CLICKED
    page.click("#solve")
    page.wait_for_selector("#result svg")
    assert page.inner_text("#status").startswith("Solved")
    drawing = page.locator("#result svg")
    assert drawing.locator("polyline.pipe").count() == 6 and drawing.locator("circle.dot").count() == 12
    # Every cell's centre shows its path's colour, as the one solution has it.
    puzzle = parse(CLICKED)[0]
    rgb = colours(puzzle)
    colour_of = uniqueness(puzzle).solutions[0].colour_of()
    shot = Image.open(io.BytesIO(drawing.screenshot())).convert("RGB")
    width, height = shot.size
    for (r, c), colour in colour_of.items():
        seen = pixel(shot, (c + 0.5) * width / 5, (r + 0.5) * height / 5)
        assert near(seen, rgb[colour]), ((r, c), colour, seen, rgb[colour])


def test_a_not_unique_puzzle_shows_both_solutions(page):
    page.click("#load summary")
    page.fill("#text", TWO_SOLUTIONS)
    page.click("#read")
    page.wait_for_function("() => document.querySelectorAll('#editor .e-dot').length === 6")
    page.click("#unique")
    page.wait_for_selector("#result svg")
    assert page.inner_text("#status").startswith("Not unique: two solutions")
    drawing = page.locator("#result svg")
    assert drawing.locator("circle.dot").count() == 12 and drawing.locator("polygon.mark").count() > 0
    box = drawing.bounding_box()
    assert box["width"] > 1.8 * box["height"]  # two boards side by side


def test_fix_loads_a_unique_puzzle_made_by_one_edit(page):
    page.click("#load summary")
    page.fill("#text", TWO_SOLUTIONS)
    page.click("#read")
    page.wait_for_function("() => document.querySelectorAll('#editor .e-dot').length === 6")
    page.click("#fix")
    page.wait_for_function("() => document.querySelector('#status').innerText.startsWith('Fixed')")
    assert "Now exactly one solution" in page.inner_text("#status")
    fixed = parse(puzzle_in_address(page))[0]
    assert uniqueness(fixed).verdict is Verdict.UNIQUE and len(fixed.colours) >= 3
    page.click("#fix")
    page.wait_for_function("() => document.querySelector('#status').innerText.startsWith('Already unique')")


BAD_FILES = ["classic_colour_once.txt", "invalid_utf8_truncated_sequence.txt", "utf16_bom.txt", "nul_bytes.txt"]


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_bad_file_shows_the_cli_message_and_the_page_goes_on(page, name, monkeypatch):
    from typer.testing import CliRunner

    from cpflow.cli import app

    monkeypatch.chdir(ROOT / "tests" / "bad_inputs")
    expected = CliRunner().invoke(app, ["solve", name]).stderr.strip()
    page.click("#load summary")
    page.set_input_files("#file", name)
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == expected
    page.fill("#text", (PUZZLES / "starter_5x5.txt").read_text())
    page.click("#read")
    page.wait_for_function("() => document.querySelectorAll('#editor .e-dot').length === 12")
    page.click("#solve")
    page.wait_for_selector("#result svg")
    assert page.inner_text("#status").startswith("Solved") and page.is_hidden("#error")


def test_a_link_reproduces_the_puzzle(page, browser):
    page.click("#load summary")
    page.fill("#text", (PUZZLES / "holes_8x8_01.txt").read_text())
    page.click("#read")
    page.wait_for_selector("#status:has-text('Loaded')")
    link = page.url
    other = browser.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    assert other.locator("#editor .e-hole").count() == page.locator("#editor .e-hole").count() > 0
    assert other.locator("#editor .e-wall").count() == page.locator("#editor .e-wall").count() > 0
    assert puzzle_in_address(other) == puzzle_in_address(page)
    other.close()


STARTER_LINK = "#p=.GY.Y/GO..B/R.CO./BR.C./....."  # puzzles/starter_5x5.txt, as a player writes it


def test_a_p_link_opens_its_puzzle_and_survives_a_reload(page, server):
    page.goto(f"{server}?p{STARTER_LINK}")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#editor .e-dot").count() == 12 and page.inner_text("#status").startswith("Loaded link: 5x5")
    assert parse(puzzle_in_address(page))[0] == parse(STARTER_TEXT)[0]
    assert page.url.endswith(STARTER_LINK)  # the page keeps the address as it was written
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#editor .e-dot").count() == 12 and page.url.endswith(STARTER_LINK)
    page.goto(f"{server}?old#puzzle={quote(STARTER_TEXT)}")  # the older links still open
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#editor .e-dot").count() == 12 and page.url.endswith(STARTER_LINK)


@pytest.mark.parametrize("name", ["holes_8x8_01.txt", "hex_7x7_01.txt", "starter_5x5.txt"])
def test_share_copies_a_link_that_opens_the_same_puzzle(browser, server, name):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    tab.goto(server)
    tab.wait_for_selector("body[data-ready]")
    tab.set_input_files("#file", PUZZLES / name)
    tab.wait_for_selector(f"#status:has-text('Loaded {name}')")
    tab.click("#share")
    tab.wait_for_selector("#status:has-text('Link copied')")
    link = tab.evaluate("navigator.clipboard.readText()")
    assert link == tab.input_value("#share-link") and tab.is_visible("#share-link")
    assert "%0A" not in link and parse(puzzle_in(link))[0] == parse((PUZZLES / name).read_text())[0]
    other = context.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    assert parse(puzzle_in_address(other))[0] == parse((PUZZLES / name).read_text())[0]
    assert other.locator("#editor .e-dot").count() == tab.locator("#editor .e-dot").count()
    assert other.locator("#editor .e-hole").count() == tab.locator("#editor .e-hole").count()
    context.close()


def test_share_shows_the_link_when_the_browser_refuses_the_clipboard(page, server):
    page.goto(f"{server}?p{STARTER_LINK}")
    page.wait_for_selector("body[data-ready]")
    refuse = (
        "() => { navigator.clipboard.writeText = () => Promise.reject(new DOMException('no', 'NotAllowedError')); }"
    )
    page.evaluate(refuse)  # as a browser does without the permission, or on an address that is not secure
    page.click("#play")  # out of Play, to edit the board below
    page.click("#share")
    page.wait_for_selector("#status:has-text('copy the link shown under Share')")
    assert page.is_visible("#share-link") and page.input_value("#share-link") == f"{server}?p{STARTER_LINK}"
    click_cell(page, (4, 4))  # the board changes: the link shown was the old board's
    assert page.is_hidden("#share-link")


@pytest.mark.parametrize("escape", [False, True], ids=["row-short", "stray-percent"])
def test_a_bad_link_tells_a_player_what_to_do_the_editors_line_under_details(page, server, escape):
    """A bad link showed only the reader's line (`link:5:5: row has 4 cells, the first row has 5`): now a player's
    sentence says what is wrong and what to do, and the line is kept, folded under Details. A link cut short (a row
    short) and one cut inside a percent-escape (a stray `%2`, which does not decode) alike."""
    bad = ".GY.Y\nGO..B\nR.CO.\nBR.C.\n....\n"  # a row short
    page.click("#load summary")
    page.fill("#text", bad)
    page.click("#read")
    page.wait_for_selector("#error:not([hidden])")
    pasted = page.inner_text("#error")
    link = "#p=.GY.Y/GO..B/R.CO./BR.C./....%2" if escape else link_to(bad)
    page.goto(f"{server}?bad{link}")
    page.wait_for_selector("body[data-ready]")
    said = page.inner_text("#error")
    assert said.startswith("This link does not open a puzzle:") and "Ask for the link again, or pick a level." in said
    assert page.is_hidden("#error code")  # the detail folded away
    page.click("#error summary")
    line = page.inner_text("#error code")
    assert pasted == "pasted:5:5: row has 4 cells, the first row has 5"
    assert line.startswith("link:5:") if escape else line == pasted.replace("pasted:", "link:")
    assert "#p=" not in page.url and page.locator("#editor .e-cell").count() == 25  # a blank board to go on with
    for a, b in STARTER_PAIRS:
        click_cell(page, a)
        click_cell(page, b)
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    assert page.is_hidden("#error")


def test_a_board_not_yet_a_puzzle_keeps_the_last_puzzles_link(page, server):
    """While a pair waits for its second endpoint the address keeps the board before it (a link to the board as it
    stands would not open: `colour 'R' appears once`), Share says why it shares nothing, and a reload opens the board
    before; a new board with no pair names no puzzle (a blank hex board's link did not open either)."""
    edit_puzzle(page, server, STARTER_TEXT)
    click_cell(page, (4, 4))  # a new colour's first endpoint
    assert page.locator("#editor .e-dot").count() == 13
    assert parse(puzzle_in_address(page))[0] == parse(STARTER_TEXT)[0]
    page.click("#share")
    assert "has one endpoint" in page.inner_text("#error") and page.is_hidden("#share-link")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#editor .e-dot").count() == 12 and page.is_hidden("#error")
    page.select_option("#shape", "hex")
    page.click("#new")
    page.wait_for_selector("body:not([data-writing])", state="attached")
    assert "#p=" not in page.url
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.is_hidden("#error") and page.locator("#editor .e-dot").count() == 0


def test_a_level_of_more_colours_than_the_palette_names_is_hinted(page):
    """gen_30x30_01 has 68 colours named by numbers, the page's palette 61 names of one character: the others were
    named `undefined`, and its Hint answered `board: colour 'undefined': the page names colours by one character`."""
    level = pick_level(page, "gen_30x30_01")
    palette = page.evaluate("JSON.parse(document.getElementById('config').textContent).palette.length")
    assert page.locator("#editor .e-dot").count() == 2 * 68 and palette < 68
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^Hint: ')")
    assert page.is_hidden("#error") and level["width"] == 30


def test_the_busy_status_shows_a_spinner_drawn_by_css_not_an_emoji(page):
    """The status line's busy mark was an emoji (an hourglass), an empty box where no emoji font is installed (as
    for Debian's Chromium here, in every screenshot the tests take)."""
    page.evaluate("document.body.classList.add('busy')")
    after = page.evaluate(
        "(() => { const s = getComputedStyle(document.getElementById('status'), '::after');"
        " return [s.content, s.animationName]; })()"
    )
    assert after == ['""', "spin"]


def test_the_keyboard_places_and_removes_endpoints(page):
    page.focus("#editor")
    page.keyboard.press("Enter")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash.startsWith('#p=R...R/')")  # under load, later
    assert puzzle_in_address(page).splitlines()[0] == "R...R"
    page.keyboard.press("Shift+ArrowDown")  # a wall below the cursor makes the board a variant
    assert puzzle_in_address(page).startswith("board 5x5\n") and "walls 0,4|1,4" in puzzle_in_address(page)
    page.keyboard.press("Delete")
    assert page.locator("#editor .e-dot").count() == 1
    assert "walls 0,4|1,4" in puzzle_in_address(page)  # one endpoint left: the address keeps the board before
    page.keyboard.press("s")
    page.wait_for_selector("#error:not([hidden])")
    assert "has one endpoint" in page.inner_text("#error")


def test_tools_make_holes_and_bridges_and_the_server_solves_them(page):
    page.fill("#width", "3")
    page.fill("#height", "3")
    page.click("#new")
    page.check("input[value=bridge]")
    click_cell(page, (1, 1))
    page.check("input[value=endpoint]")
    for cell in [(0, 1), (2, 1), (1, 0), (1, 2)]:
        click_cell(page, cell)
    page.check("input[value=hole]")
    for cell in [(0, 0), (0, 2), (2, 0), (2, 2)]:
        click_cell(page, cell)
    assert puzzle_in_address(page) == "board 3x3\n#R#\nB+B\n#R#\n"
    page.click("#solve")
    page.wait_for_selector("#result svg")
    assert page.inner_text("#status").startswith("Solved")
    assert page.locator("#result svg polyline.overpass").count() == 1


def test_a_generated_hex_puzzle_is_loaded_and_solved(page):
    page.fill("#width", "6")
    page.fill("#height", "5")
    page.select_option("#shape", "hex")
    page.click("#generate")
    page.wait_for_selector("#status:has-text('Generated')")
    assert page.locator("#editor .e-cell").count() == 30
    assert puzzle_in_address(page).startswith("board 6x5 hex\n")
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    assert page.locator("#result svg polygon.cell").count() == 30


def test_a_board_over_the_limit_is_refused_with_a_message(page):
    page.fill("#width", "80")
    page.fill("#height", "80")
    page.click("#new")
    assert "2500 cells at most" in page.inner_text("#error")


def test_the_puzzle_solution_and_pictures_download(page, tmp_path):
    page.click("#load summary")
    page.fill("#text", (PUZZLES / "starter_5x5.txt").read_text())
    page.click("#read")
    page.wait_for_selector("#status:has-text('Loaded')")
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    saved = {}
    for button in ["puzzle", "solution", "svg", "png"]:
        with page.expect_download() as download:
            page.click(f"#get-{button}")
        saved[button] = tmp_path / download.value.suggested_filename
        download.value.save_as(saved[button])
    puzzle = parse(saved["puzzle"].read_text())[0]
    assert puzzle == parse((PUZZLES / "starter_5x5.txt").read_text())[0]
    assert violations(puzzle, parse_solution(puzzle, saved["solution"].read_text())) == []
    assert saved["svg"].read_text().count('class="pipe"') == 6
    assert saved["png"].read_bytes().startswith(b"\x89PNG")


# ---- importing a screenshot ----


def endpoint_pairs(puzzle) -> tuple[int, int, set[frozenset]]:
    """The puzzle up to renaming colours: its size and its pairs of endpoint cells."""
    return puzzle.width, puzzle.height, {frozenset(ends) for ends in puzzle.endpoints.values()}


@pytest.fixture(scope="module")
def screenshot(tmp_path_factory):
    """A synthetic phone screenshot of starter_7x7 (JPEG, partly played), and the puzzle it shows."""
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from cpflow.board.formats import load, load_solution
    from cpflow.board.grid import Solution
    from cpflow.vision.synthetic import Shot, draw

    (puzzle,) = load(PUZZLES / "starter_7x7.txt")
    solution = load_solution(puzzle, PUZZLES / "starter_7x7.solution.txt")
    played = Solution({k: path[:3] for k, path in list(solution.paths.items())[:3]})
    path = tmp_path_factory.mktemp("shots") / "starter_7x7.jpg"
    path.write_bytes(draw(puzzle, Shot(7, 7, (1080, 2400), quality=85), played))
    return path, puzzle


def test_an_imported_screenshot_is_shown_in_the_editor_to_check_then_solved(page, screenshot):
    path, puzzle = screenshot
    assert page.get_by_label("Import screenshot").get_attribute("id") == "shot"  # found by its label
    held = []
    page.route("**/api/import*", lambda route: held.append(route))  # held until the page shows it is running
    with page.expect_request("**/api/import*"):
        page.set_input_files("#shot", path)
    assert page.inner_text("#status").startswith("Importing starter_7x7.jpg")
    assert page.is_disabled("#solve") and "busy" in page.get_attribute("body", "class")
    while not held:  # the route handler runs when Playwright next hears from the browser
        page.evaluate("0")
    held[0].continue_()
    page.wait_for_selector("#status:has-text('Imported starter_7x7.jpg')")
    assert endpoint_pairs(parse(puzzle_in_address(page))[0]) == endpoint_pairs(puzzle)
    assert page.locator("#editor .e-dot").count() == 2 * len(puzzle.endpoints)
    assert page.is_visible("#shot-view img") and page.locator("#result svg").count() == 0  # not solved yet
    click_cell(page, (6, 6))  # a fix: an endpoint too many, then taken away again
    click_cell(page, (6, 6))
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    assert page.locator("#result svg polyline.pipe").count() == len(puzzle.endpoints)
    assert page.is_visible("#shot-view img")  # still there to compare with


def test_a_half_played_screenshot_is_imported_as_a_play_ready_for_hint(page, screenshot):
    path, puzzle = screenshot
    page.set_input_files("#shot", path)
    page.wait_for_selector("#status:has-text('Imported starter_7x7.jpg')")
    assert "6 cells drawn" in page.inner_text("#status")  # three pipes of three cells, less their dots
    assert page.get_attribute("#play", "aria-pressed") == "true" and page.locator("#editor .p-cell").count() == 6
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^Hint: ')")
    assert marked(page, "step")


def test_a_half_played_screenshot_of_a_board_with_bridges_says_where_to_get_a_hint(page, tmp_path):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from cpflow.board.grid import Solution
    from cpflow.vision.synthetic import Shot, draw
    from cpflow.workflows.generate.order import Order, default_colours, plain
    from cpflow.workflows.generate.pack import generate_many

    (made,) = generate_many(Order(plain(8, 8), default_colours(8, 8, 0), bridges=2), 1, seed=3)
    over = {k: path for k, path in made.solution.paths.items() if any(len(node) == 3 for node in path)}
    assert over  # the paths that cross a bridge, drawn whole; the others left to find
    path = tmp_path / "bridges.png"
    path.write_bytes(draw(made.puzzle, Shot(8, 8, (1080, 2400)), Solution(over)))
    page.set_input_files("#shot", path)
    page.wait_for_selector("#status:has-text('Imported bridges.png')")
    status = page.inner_text("#status")  # the board and its pipes read, and Play not started over bridges
    assert "cells drawn" in status and "`cpflow hint bridges.png` gives the next step" in status, status
    assert page.get_attribute("#play", "aria-pressed") == "false"
    assert sorted(parse(puzzle_in_address(page))[0].bridges()) == sorted(made.puzzle.bridges())


def drop(page, name: str, data: bytes, kind: str) -> None:
    """Drop a file on the editor, as a player dragging it from their files does."""
    import base64

    transfer = page.evaluate_handle(
        """([name, b64, kind]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const transfer = new DataTransfer();
            transfer.items.add(new File([bytes], name, { type: kind }));
            return transfer;
        }""",
        [name, base64.b64encode(data).decode(), kind],
    )
    for event in ("dragenter", "dragover", "drop"):
        page.dispatch_event("#editor", event, {"dataTransfer": transfer})


def test_a_dropped_screenshot_is_imported_and_a_dropped_puzzle_file_loaded(page, screenshot):
    path, puzzle = screenshot
    drop(page, path.name, path.read_bytes(), "image/jpeg")
    page.wait_for_selector("#status:has-text('Imported')")
    assert endpoint_pairs(parse(puzzle_in_address(page))[0]) == endpoint_pairs(puzzle)
    assert not page.locator("#edit.dropping").count()
    text = (PUZZLES / "starter_5x5.txt").read_text()
    drop(page, "starter_5x5.txt", text.encode(), "text/plain")
    page.wait_for_selector("#status:has-text('Loaded starter_5x5.txt')")
    assert parse(puzzle_in_address(page))[0] == parse(text)[0] and page.is_hidden("#shot-view")


def test_a_picture_that_is_no_screenshot_shows_the_cli_line(page, tmp_path, monkeypatch):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from PIL import Image
    from typer.testing import CliRunner

    from cpflow.cli import app

    monkeypatch.chdir(tmp_path)
    Image.new("RGB", (720, 1480)).save("blank.png")
    expected = CliRunner().invoke(app, ["import", "blank.png"]).stderr.strip()
    page.set_input_files("#shot", tmp_path / "blank.png")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == expected == "blank.png: no board found: no grid of lines in the picture"
    assert page.is_enabled("#solve") and page.is_enabled("#shot")


def test_the_import_control_is_reached_with_the_keyboard(page):
    page.focus("#new")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "shot"


# ---- the page as modules, its board laid out by the server ----


def test_the_page_loads_its_modules_as_javascript_with_no_error(browser, server):
    from importlib import resources

    page_files = resources.files("cpflow.web") / "page"
    modules = {path.name for path in page_files.iterdir() if path.name.endswith(".js")} - {"docs.js"}
    context = browser.new_context()
    tab = context.new_page()
    errors, scripts = [], {}
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.on("response", lambda answer: answer.url.endswith(".js") and scripts.update({answer.url: answer}))
    tab.goto(server)
    tab.wait_for_selector("body[data-ready]")
    assert {url.rsplit("/", 1)[1] for url in scripts} == modules  # every module imported, from this server
    for answer in scripts.values():
        assert answer.status == 200 and answer.headers["content-type"].startswith("text/javascript"), answer.url
    assert tab.locator("#editor .e-cell").count() == 25 and tab.locator("#grade option").count() > 1
    context.close()
    assert errors == []


def test_a_stroke_from_an_endpoint_draws_its_path_anew_and_stops_at_the_other_end(page, server):
    """A second stroke from B's endpoint left the first one's cells drawn (a stray branch to take back cell by
    cell): now, as in the game, the path joined to that endpoint goes as the stroke leaves it (a tap keeps it,
    Undo brings it back), and a stroke that reaches the path's other endpoint goes no further."""
    open_puzzle(page, server, STARTER_TEXT)
    drag(page, [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3)])
    drag(page, [(3, 0), (4, 0)])  # from the other end: its own piece, not joined to the first
    page.mouse.click(*cell_centre(page, (1, 4)))  # a tap on the endpoint
    assert page.locator("#editor .p-cell").count() == 5
    drag(page, [(1, 4), (2, 4), (3, 4)])
    page.wait_for_function("() => location.hash.endsWith('&d=//....B/....B/B')")  # r5c3 and r5c4 went, r5c1 stayed
    assert page.locator("#editor .p-cell").count() == 3
    page.click("#undo")
    assert page.locator("#editor .p-cell").count() == 5
    page.click("#restart")
    drag(page, [(2, 0), (2, 1), (3, 1), (4, 1)])  # R reaches r4c2, its other end, and is dragged on to r5c2
    page.wait_for_function("() => location.hash.endsWith('&d=//.R')")
    assert page.locator("#editor .p-cell").count() == 1


def test_a_path_drawn_over_is_cut_and_what_no_endpoint_reaches_goes(page, server):
    """C drawn across B's half-drawn path left B's cells beyond the crossing as a stray piece (and the hint then
    spoke of C touching itself): as in the game, B is cut there and its piece that no B endpoint reaches goes."""
    open_puzzle(page, server, STARTER_TEXT)
    drag(page, [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (4, 1)])  # B, short of its other end r4c1
    drag(page, [(2, 2), (3, 2), (4, 2)])  # C down across it at r5c3
    page.wait_for_function("() => location.hash.endsWith('&d=//....B/..C.B/..CBB')")  # r5c2 went, r5c4 stayed
    page.click("#undo")
    assert page.locator("#editor .p-cell").count() == 6


B_WHOLE = [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0), (3, 0)]  # starter_5x5's B, end to end


@pytest.mark.parametrize(
    ("stroke", "reload", "left"),
    [
        (B_WHOLE, False, "//....B/..C.B/..CBB"),  # from r2c5: r5c1 and r5c2 go
        (B_WHOLE[::-1], False, "///..C/BBC"),  # from r4c1: r3c5 to r5c4 go
        (B_WHOLE[::-1], True, "///..C/BBC"),  # the same after a reload (the longer side, r2c5's, is not kept)
    ],
)
def test_a_complete_path_drawn_over_keeps_the_side_it_was_started_from(page, server, stroke, reload, left):
    """C drawn across B's complete path kept both halves of B (each still reached an endpoint): as in the game, B is
    cut there and keeps the side of the end it was drawn from, across a reload too; Undo brings the other side back."""
    open_puzzle(page, server, STARTER_TEXT)
    drag(page, stroke)
    if reload:
        page.reload()
        page.wait_for_selector("body[data-ready]")
    drag(page, [(2, 2), (3, 2), (4, 2)])  # C down across B at r5c3
    page.wait_for_function("(left) => location.hash.endsWith('&d=' + left)", arg=left)
    page.click("#undo")
    page.wait_for_function("() => location.hash.endsWith('&d=//....B/....B/BBBBB')")


def test_a_hex_board_is_played_along_the_neighbours_the_server_gives(page, server):
    asked = []
    page.on("request", lambda request: request.url.endswith("/api/board") and asked.append(request.post_data_json))
    open_puzzle(page, server, "board 3x3 hex\nR.B\n.R.\nB..\n")
    assert any(board["shape"] == "hex" and board["geometry"] for board in asked)  # the layout: the server's
    drag(page, [(0, 0), (1, 1)])  # cells that touch on a hex board (column 0 stands lower), not on a square one
    assert page.locator('#editor .p-pipe[data-pipe="0,0|1,1"]').count() == 1


# ---- under the server's security headers ----


def test_an_injected_inline_handler_is_blocked_by_the_policy(browser, server):
    """Were a drawing to carry markup of another's making, its inline script would not run."""
    tab, errors = open_page(browser, server)
    tab.wait_for_selector("body[data-ready]")
    tab.evaluate("""document.getElementById("result").innerHTML = '<img src="data:," onerror="window.injected = 1">'""")
    for _ in range(20):
        if violations_of_the_policy(errors):
            break
        tab.wait_for_timeout(100)
    assert tab.evaluate("window.injected") is None
    assert any("script-src" in error for error in violations_of_the_policy(errors)), errors
    tab.context.close()


def test_a_whole_session_logs_no_error_and_no_violation(browser, server, screenshot):
    path, puzzle = screenshot
    tab, errors = open_page(browser, server)
    tab.wait_for_selector("body[data-ready]")
    tab.set_input_files("#shot", path)  # the screenshot is shown from a blob: address
    tab.wait_for_selector("#status:has-text('Imported')")
    tab.wait_for_function("() => document.getElementById('shot-image').complete")
    tab.click("#solve")
    tab.wait_for_selector("#status:has-text('Solved')")
    tab.click("#unique")
    tab.wait_for_selector("#result[data-kind=unique]")
    with tab.expect_download():
        tab.click("#get-png")
    assert tab.evaluate("document.getElementById('shot-image').naturalWidth") == 1080
    tab.context.close()
    assert errors == []


def test_the_api_documentation_renders_under_the_policy(browser, server):
    tab, errors = open_page(browser, server + "docs")
    tab.wait_for_selector("#swagger-ui .opblock-summary-path")
    paths = tab.locator("#swagger-ui .opblock-summary-path").all_inner_texts()
    assert {"/api/solve", "/api/unique", "/api/count", "/api/import"} <= set(paths)
    tab.click("#operations-default-solve_api_solve_post .opblock-summary")  # one endpoint unfolded, its example
    tab.wait_for_selector("#operations-default-solve_api_solve_post .opblock-body")
    tab.context.close()
    assert errors == []


# ---- the Host a page is reached by (DNS rebinding) ----


def test_a_rebinding_name_gets_421_and_an_allowed_name_the_page(browser, server):
    port = server.rsplit(":", 1)[1].strip("/")
    tab, _ = open_page(browser, f"http://rebind.example:{port}/")
    assert "does not answer requests for rebind.example" in tab.inner_text("body")
    assert tab.evaluate("fetch('api/read', {method: 'POST'}).then((answer) => answer.status)") == 421
    tab.context.close()
    tab, errors = open_page(browser, f"http://flow.example:{port}/")
    tab.wait_for_selector("body[data-ready]")
    for a, b in STARTER_PAIRS:
        click_cell(tab, a)
        click_cell(tab, b)
    tab.click("#solve")
    tab.wait_for_selector("#status:has-text('Solved')")
    tab.context.close()
    assert errors == []


# ---- the status line, and the names of downloads ----


def test_an_error_replaces_the_status_line_and_the_next_action_the_error(page):
    page.click("#load summary")
    page.fill("#text", (PUZZLES / "starter_5x5.txt").read_text())
    page.click("#read")
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    page.fill("#text", "")
    page.click("#read")  # an error: nothing to load
    assert page.is_visible("#error") and page.inner_text("#status") == ""  # not "Solved" any more
    page.fill("#width", "80")
    page.fill("#height", "80")
    page.click("#generate")  # another error
    assert "2500 cells at most" in page.inner_text("#error") and page.inner_text("#status") == ""
    with page.expect_download():
        page.click("#get-puzzle")  # an action that works: its line replaces the error
    assert page.is_hidden("#error") and page.inner_text("#status") == "Saved puzzle.txt"
    page.check("input[value=hole]")
    click_cell(page, (4, 4))
    page.check("input[value=bridge]")
    click_cell(page, (4, 4))  # a tool's error
    assert page.inner_text("#error").startswith("A hole cannot be a bridge") and page.inner_text("#status") == ""
    page.click("#solve")
    page.wait_for_function("() => document.getElementById('status').textContent.includes(' s (')")  # an answer
    assert page.is_hidden("#error")


def test_downloads_are_named_after_the_file_or_screenshot_loaded(page, screenshot, tmp_path):
    path, _ = screenshot
    page.set_input_files("#shot", path)
    page.wait_for_selector("#status:has-text('Imported starter_7x7.jpg')")
    assert downloaded(page, "puzzle", "svg") == ["starter_7x7.txt", "starter_7x7.svg"]
    page.click("#solve")
    page.wait_for_selector("#status:has-text('Solved')")
    assert downloaded(page, "puzzle", "solution", "svg", "png") == [
        "starter_7x7.txt", "starter_7x7.solution.txt", "starter_7x7.solution.svg", "starter_7x7.solution.png"
    ]  # fmt: skip
    page.set_input_files("#file", PUZZLES / "holes_8x8_01.txt")
    page.wait_for_selector("#status:has-text('Loaded holes_8x8_01.txt')")
    assert downloaded(page, "puzzle") == ["holes_8x8_01.txt"]
    page.click("#new")  # a board of one's own
    click_cell(page, (0, 0))
    click_cell(page, (1, 1))
    assert downloaded(page, "puzzle") == ["puzzle.txt"]


def downloaded(page, *buttons: str) -> list[str]:
    names = []
    for button in buttons:
        with page.expect_download() as download:
            page.click(f"#get-{button}")
        names.append(download.value.suggested_filename)
    return names


# ---- Play: drawing paths, hints, mistakes, why ----

STARTER_TEXT = (PUZZLES / "starter_5x5.txt").read_text()
STARTER_SOLVED = (PUZZLES / "starter_5x5.solution.txt").read_text().split()


def open_puzzle(page, server, text: str) -> None:
    """The puzzle opened from a link, as a player follows one: in Play."""
    page.goto(f"{server}?play{link_to(text)}")  # another address than the fixture's: the page loads anew
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#editor .e-dot")


def edit_puzzle(page, server, text: str) -> None:
    """The puzzle opened from a link, then out of Play: in the editor."""
    open_puzzle(page, server, text)
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "false"


def cell_centre(page, cell) -> tuple[float, float]:
    box = page.locator(f'#editor [data-cell="{cell[0]},{cell[1]}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, cells) -> None:
    page.mouse.move(*cell_centre(page, cells[0]))
    page.mouse.down()
    for cell in cells[1:]:
        page.mouse.move(*cell_centre(page, cell), steps=4)
    page.mouse.up()


def marked(page, kind: str) -> set[tuple[int, int]]:
    found = page.locator(f"#editor .p-{kind}").evaluate_all("nodes => nodes.map(n => n.dataset.mark)")
    return {tuple(int(x) for x in mark.split(",")) for mark in found}


def test_a_player_draws_a_path_asks_a_hint_and_applies_it(page, server):
    open_puzzle(page, server, STARTER_TEXT)
    assert page.locator("#play-bar").is_visible()
    blue = [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2)]  # B's path, as in the solution
    drag(page, blue)
    assert page.locator("#editor .p-pipe").count() == len(blue) - 1
    assert page.locator("#editor .p-cell").count() == len(blue) - 1  # the endpoint is not a drawn cell
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^Hint: ')")
    steps = marked(page, "step")
    named = page.locator("#status").text_content().removeprefix("Hint: ").split("'")[0]  # "Y's only way ..."
    assert steps and all(STARTER_SOLVED[r][c] == named for r, c in steps)  # the step agrees with the solution
    assert page.locator("#editor .p-because").count() >= 1
    page.click("#apply")
    assert page.locator("#editor .p-cell").count() == len(blue) - 1 + len(steps)
    page.click("#undo")
    assert page.locator("#editor .p-cell").count() == len(blue) - 1


def test_a_wrong_path_is_marked_as_a_mistake(page, server):
    open_puzzle(page, server, STARTER_TEXT)
    drag(page, [(0, 2), (1, 2)])  # Y down into O's cell: no solution goes through it
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^Mistake')")
    assert marked(page, "wrong") == {(1, 2)}
    page.keyboard.press("Control+z")
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^Hint: ')")
    assert marked(page, "wrong") == set()


def test_a_puzzle_with_two_solutions_says_so_and_marks_where_they_differ(page, server):
    design = PUZZLES / "designs" / "two_solutions_4x4.txt"
    asked = [sys.executable, "-m", "cpflow", "hint", str(design), "--format", "json"]
    hint = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)
    assert hint["status"] == "not-unique"
    open_puzzle(page, server, design.read_text())
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^This puzzle has more than one solution')")
    assert marked(page, "wrong") == {tuple(cell) for cell in hint["cells"]}


def test_a_hint_says_its_reason_in_a_players_words_not_the_rules_name(page, server):
    """The status said "Hint (degree): ...", the rule book's name for the rule, jargon to a player: the reason says
    the rule in a player's words (a rule's step, a what if's alternatives), so the status is the reason alone. The
    hint record keeps its `rule`."""
    for level in (PUZZLES / "starter_5x5.txt", PUZZLES / "gen_14x14_08.txt"):  # a degree step; a what if
        asked = [sys.executable, "-m", "cpflow", "hint", str(level), "--format", "json"]
        hint = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)
        open_puzzle(page, server, level.read_text())
        page.click("#hint")
        page.wait_for_selector("#status:text-matches('^Hint')")
        them = "it" if len(hint["cells"]) == 1 else "them"
        assert page.inner_text("#status") == f"Hint: {hint['reason']} Apply draws {them}.", hint["rule"]


def test_why_plays_a_what_ifs_chain_cell_by_cell_then_its_contradiction_then_the_hint_again(page, server):
    level = PUZZLES / "gen_14x14_08.txt"  # its first hint is a what if
    asked = [sys.executable, "-m", "cpflow", "hint", str(level), "--format", "json"]
    hint = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)
    assert hint["rule"] == "what if"
    chain, contradiction = hint["assumptions"][0]["chain"], hint["assumptions"][0]["contradiction"]
    open_puzzle(page, server, level.read_text())
    assert not page.locator("#why").is_visible()
    page.click("#hint")
    page.wait_for_selector("#why:visible")
    reason = page.inner_text("#status")
    for n, link in enumerate(chain, 1):
        page.click("#why")
        assert page.inner_text("#status") == f"Why? {n} of {len(chain) + 1}: {link['says']}."
        assert marked(page, "step") == {tuple(link["cell"])}
        assert page.locator("#apply").is_disabled()  # a link of the chain is not a step to draw
    page.click("#why")
    assert page.inner_text("#status").startswith(
        f"Why? {len(chain) + 1} of {len(chain) + 1}: then {contradiction['says']}"
    )
    assert marked(page, "wrong") == {tuple(cell) for cell in contradiction["cells"]}
    page.click("#why")
    assert page.inner_text("#status") == reason
    assert marked(page, "step") == {tuple(cell) for cell in hint["cells"]} and page.locator("#apply").is_enabled()
    page.click("#apply")  # the play changed: the walk is over
    assert not page.locator("#why").is_visible()


# gen_24x12_02's first strokes, after which its hint is a what if whose chain joins path pieces between
# empty cells (tests/test_whatif_chains.py): R along the top, M round its corner, j along row 11
PIECE_STROKES = [
    [(0, c) for c in range(7)],
    [(1, 23), (0, 23), (0, 22), (0, 21), (0, 20), (0, 19)],
    [(9, 22), (10, 22), (10, 21), (10, 20)],
]


def test_why_draws_a_path_piece_of_the_chain_as_a_segment_between_its_two_cells(page, server, tmp_path):
    level = PUZZLES / "gen_24x12_02.txt"
    rows = [list(line) for line in level.read_text().split()]
    for stroke in PIECE_STROKES:
        for r, c in stroke[1:]:
            rows[r][c] = rows[stroke[0][0]][stroke[0][1]]
    drawn = tmp_path / "play.txt"
    drawn.write_text("\n".join("".join(row) for row in rows) + "\n")
    asked = [sys.executable, "-m", "cpflow", "hint", str(level), "--play", str(drawn), "--format", "json"]
    hint = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)
    chain = hint["assumptions"][0]["chain"]
    assert hint["rule"] == "what if" and any("to" in link and link["colour"] is None for link in chain)
    open_puzzle(page, server, level.read_text())
    for stroke in PIECE_STROKES:
        drag(page, stroke)
    page.click("#hint")
    page.wait_for_selector("#why:visible")
    for n, link in enumerate(chain, 1):
        page.click("#why")
        assert page.inner_text("#status") == f"Why? {n} of {len(chain) + 1}: {link['says']}."
        pieces = page.locator("#editor .p-piece").evaluate_all("nodes => nodes.map(n => n.dataset.mark)")
        if "to" in link:  # a short segment from the cell to the other, no cell coloured
            assert pieces == ["|".join(f"{r},{c}" for r, c in (link["cell"], link["to"]))] and not marked(page, "step")
        else:
            assert not pieces and marked(page, "step") == {tuple(link["cell"])}


def test_a_link_opens_in_play_and_a_reload_keeps_the_drawing(page, browser, server):
    """A link opened in the editor, not ready to play, and a reload lost the drawing (the address held only the
    puzzle): now a link opens in Play, the address keeps the play after `&d=`, and a reload, or the address opened
    elsewhere, goes on with it."""
    open_puzzle(page, server, STARTER_TEXT)
    assert page.get_attribute("#play", "aria-pressed") == "true" and page.locator("#play-bar").is_visible()
    assert page.inner_text("#status") == (
        "Loaded link: 5x5 square, 6 colours. Drag from a dot to draw its path; fill every cell."
    )
    blue = [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2)]  # B's path, as in the solution
    drag(page, blue)
    page.wait_for_function("() => location.hash.includes('&d=')")
    assert page.url.endswith("&d=//....B/....B/..BBB")  # r3c5 to r5c3: the endpoint is no drawn cell
    address = page.url
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("#play", "aria-pressed") == "true" and page.url == address
    assert page.locator("#editor .p-cell").count() == len(blue) - 1
    assert page.locator("#editor .p-pipe").count() == len(blue) - 1
    assert page.inner_text("#status").startswith("Loaded link: 5x5 square, 6 colours, 5 cells drawn.")
    other = browser.new_page()  # the address, shared
    other.goto(address)
    other.wait_for_selector("body[data-ready]")
    assert other.locator("#editor .p-cell").count() == len(blue) - 1
    other.close()
    page.click("#restart")  # the drawing cleared: the address holds the puzzle alone
    page.wait_for_function("() => !location.hash.includes('&d=')")
    assert page.url.endswith(STARTER_LINK)
    drag(page, blue[:2])
    pick_level(page, "starter_7x7")  # another board: its own link, nothing drawn
    page.wait_for_selector("body:not([data-writing])", state="attached")
    assert (
        "&d=" not in page.url and parse(puzzle_in(page.url))[0] == parse((PUZZLES / "starter_7x7.txt").read_text())[0]
    )


def test_a_link_of_a_finished_play_opens_solved(phone, server):
    """A link (or a reload) of a play drawn to the end said only "Loaded link: ..., 13 cells drawn": now it is
    checked as a play drawn here is, and says "Solved!" (no moves or time: none were made in this tab)."""
    phone.goto(f"{server}?done{link_to(STARTER_TEXT)}&d={'/'.join(STARTER_SOLVED)}")
    phone.wait_for_selector("#status:text-matches('^Solved!')")
    assert phone.inner_text("#status") == "Solved! Every cell is drawn and every rule holds."
    assert on_first_screen(phone, "#status")
    phone.goto(f"{server}?wrong{link_to(STARTER_TEXT)}&d={'/'.join(STARTER_SOLVED).replace('C', 'B')}")
    phone.wait_for_selector("#status:has-text('not every rule holds')")  # C cut off: drawn to the end, not solved


def test_hint_on_an_unsolvable_puzzle_marks_why_on_the_board(page, server):
    """Hint's why (the hint record's, which has no `found`) was said but not drawn: now its cells are marked."""
    asked = [sys.executable, "-m", "cpflow", "hint", str(PUZZLES / "unsolvable_6x6.txt"), "--format", "json"]
    why = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)["why"]
    open_puzzle(page, server, (PUZZLES / "unsolvable_6x6.txt").read_text())
    page.click("#hint")
    page.wait_for_selector("#status:text-matches('^No solution')")
    assert why["cover"] and marked(page, "why") == {tuple(cell) for cell in why["cover"]}


def test_a_reload_keeps_the_moves_the_clock_and_undo(page, server):
    """A reload went on with the drawing but counted the moves and the time from nought and lost Undo: the tab now
    keeps them for its address (keep.js), and a reload of the solved play says the same "Solved!"."""
    open_puzzle(page, server, STARTER_TEXT)
    paths = solution_paths("starter_5x5")
    first, second, *rest = paths
    drag(page, paths[first])
    drag(page, paths[second])
    drawn = page.locator("#editor .p-cell").count()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#editor .p-cell").count() == drawn and page.locator("#undo").is_enabled()
    page.click("#undo")  # the stroke drawn before the reload
    assert page.locator("#editor .p-cell").count() == drawn - (len(paths[second]) - 2)
    for colour in [second, *rest]:
        drag(page, paths[colour])
    page.wait_for_selector("#status:text-matches('^Solved!')")
    said = page.inner_text("#status")
    assert said.startswith(f"Solved! {len(paths) + 1} moves in ")  # two before the reload, five after
    page.reload()
    page.wait_for_selector("#status:text-matches('^Solved!')")
    assert page.inner_text("#status") == said


def test_a_reload_of_a_level_shows_it_picked(phone):
    """A reload (or a link) of a level's puzzle showed "Pick a level…": the picker names the level again."""
    pick_level(phone, "starter_7x7")
    phone.wait_for_selector("body:not([data-writing])", state="attached")
    phone.reload()
    phone.wait_for_selector("body[data-ready]")
    assert phone.eval_on_selector("#level", "picker => picker.selectedOptions[0].text") == "starter_7x7 · easy"


def test_a_links_drawing_off_the_board_or_on_an_endpoint_is_left_out(page, server):
    """What a hand-edited `&d=` draws outside the board, on an endpoint or in a colour the board lacks is dropped."""
    page.goto(f"{server}?d{link_to(STARTER_TEXT)}&d=RZG..BBBBBBB/%CE%B1/////B")
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    drawn = page.locator("#editor .p-cell").count()
    assert drawn == 1 and page.inner_text("#status").startswith("Loaded link: 5x5 square, 6 colours, 1 cell drawn.")
    assert page.url.endswith("&d=R")  # r1c1 in R: the rest was off the board, an endpoint, or no colour of it


def test_a_touch_drag_draws_a_path(page, server):
    open_puzzle(page, server, STARTER_TEXT)
    editor = page.locator("#editor")
    for kind, cell in [("pointerdown", (0, 2)), ("pointermove", (0, 3)), ("pointerup", (0, 3))]:
        x, y = cell_centre(page, cell)
        editor.dispatch_event(
            kind, {"pointerId": 7, "pointerType": "touch", "clientX": x, "clientY": y, "bubbles": True}
        )
    assert page.locator('#editor .p-pipe[data-pipe="0,2|0,3"]').count() == 1


def test_an_unsolvable_puzzle_shows_why_on_the_board(page, server):
    edit_puzzle(page, server, (PUZZLES / "unsolvable_6x6.txt").read_text())
    page.click("#solve")
    asked = [sys.executable, "-m", "cpflow", "hint", str(PUZZLES / "unsolvable_6x6.txt"), "--format", "json"]
    why = json.loads(subprocess.run(asked, capture_output=True, text=True, check=False).stdout)["why"]
    page.wait_for_selector(f"#status:text-matches('{why['sentence'][:20]}')")
    assert marked(page, "why") == {tuple(cell) for cell in why["cover"]}
    assert not page.locator("#play-bar").is_visible()  # Play's buttons only while playing


def test_the_engine_list_is_the_installed_engines_of_the_catalog_and_a_sat_engine_solves(page):
    from cpflow.engines.catalog import available

    names = page.eval_on_selector_all("#engine option", "options => options.map(o => o.value)")
    assert names == available()
    if "sat" not in names:
        return  # without the sat extra the list above is the whole point
    page.evaluate("document.getElementById('engine').value = 'sat'")  # the select sits in the closed Options
    for a, b in STARTER_PAIRS:
        click_cell(page, a)
        click_cell(page, b)
    page.click("#solve")
    page.wait_for_selector("#result svg")
    assert page.inner_text("#status").startswith("Solved")


# ---- a player on a phone: levels, Play to the end, one board ----

LEVELS = json.loads((ROOT / "cpflow" / "web" / "page" / "levels.json").read_text())
MAIN_BUTTONS = ["#level", "#generate", "#play", "#solve", "#unique", "#count", "#fix", "#clear"]
PLAY_BUTTONS = ["#hint", "#apply", "#undo", "#restart"]


@pytest.fixture
def phone(browser, server):
    """A fresh tab at 390x844 with touch, as a phone opens the page: no error at all."""
    yield from checked(open_phone(browser, server), list)


def on_first_screen(page, selector: str) -> bool:
    """Whether the element is shown whole inside the viewport, without scrolling."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and (box["y"] + box["height"] <= size["height"])
    )


def touch_drag(page, cells) -> None:
    """A finger down on the first cell, moved through the others, lifted: real touch events (CDP)."""
    session = page.context.new_cdp_session(page)
    points = [cell_centre(page, cell) for cell in cells]
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]}
    )
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        for t in (0.5, 1.0):
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def pick_level(page, name: str) -> dict:
    level = next(level for level in LEVELS if level["name"] == name)
    page.select_option("#level", label=f"{name} · {level['grade']}")
    page.wait_for_selector(f"#status:has-text('{name}:')")
    return level


def solution_paths(name: str) -> dict:
    puzzle = parse((PUZZLES / f"{name}.txt").read_text())[0]
    return dict(parse_solution(puzzle, (PUZZLES / f"{name}.solution.txt").read_text()).paths)


def test_the_levels_are_the_projects_solvable_puzzles_as_they_are():
    """levels.json (written by puzzles/levels.py) holds every puzzle with a solution beside it, as its file reads."""
    solvable = {
        path.stem: path.read_text() for path in PUZZLES.glob("*.txt") if path.with_suffix(".solution.txt").exists()
    }
    assert {level["name"]: level["text"] for level in LEVELS} == solvable
    assert all(level["grade"] in ("easy", "medium", "hard", "expert") for level in LEVELS)
    cells = [level["width"] * level["height"] for level in LEVELS]
    assert cells == sorted(cells)  # smallest first


def test_on_a_phone_a_level_is_played_to_the_end_by_touch_and_solved(phone):
    for selector in MAIN_BUTTONS + ["#editor", "#status"]:
        assert on_first_screen(phone, selector), selector
    level = pick_level(phone, "starter_7x7")
    assert phone.get_attribute("#play", "aria-pressed") == "true"  # a level picked is a level played
    for selector in MAIN_BUTTONS + PLAY_BUTTONS + ["#editor", "#status"]:
        assert on_first_screen(phone, selector), selector
    paths = solution_paths(level["name"])
    for colour, path in paths.items():
        touch_drag(phone, path)
        assert phone.locator(f'#editor .p-pipe[data-pipe="{key(path[0], path[1])}"]').count() == 1, colour
    phone.wait_for_selector("#status:text-matches('^Solved!')")
    said = phone.inner_text("#status")
    assert f"{len(paths)} moves in " in said and on_first_screen(phone, "#status")


def test_on_a_phone_the_longest_hint_leaves_the_status_and_the_buttons_on_the_first_screen(phone, server):
    """A long reason scrolls inside the status line, not the page: the longest of gen_14x14_06's hints (those of
    the gen_* levels ran to 434 characters before issue 38 shortened what-ifs), then the same step with a reason of
    2,070 characters (the longest issue 38 found on the game's levels, which the old page pushed off the screen)."""
    level = PUZZLES / "gen_14x14_06.txt"
    asked = [sys.executable, "-m", "cpflow", "hint", str(level), "--all", "--format", "json"]
    steps = [json.loads(line) for line in subprocess.run(asked, capture_output=True, text=True).stdout.splitlines()]
    longest = max((step for step in steps if step["status"] == "step"), key=lambda step: len(step["reason"]))
    stretched = {**longest, "reason": (longest["reason"] + " ") * (2070 // len(longest["reason"]))}
    open_puzzle(phone, server, level.read_text())
    for step in (longest, stretched):
        phone.route("**/api/hint", answering(step))
        phone.click("#hint")
        phone.wait_for_function(
            "(reason) => document.getElementById('status').textContent.includes(reason)", arg=step["reason"]
        )
        for selector in MAIN_BUTTONS + PLAY_BUTTONS + ["#editor", "#status"]:
            assert on_first_screen(phone, selector), (selector, len(step["reason"]))
        phone.unroute("**/api/hint")


def test_on_a_phone_plays_buttons_stay_on_one_row_when_why_comes(phone, server):
    """Why? (a what if's hint) pushed Clear drawing onto a row of its own, and the status a line down."""
    open_puzzle(phone, server, (PUZZLES / "gen_14x14_08.txt").read_text())  # its first hint is a what if
    phone.click("#hint")
    phone.wait_for_selector("#why:visible")
    tops = phone.eval_on_selector_all(
        "#play-bar button:not([hidden])", "buttons => buttons.map((b) => b.getBoundingClientRect().top)"
    )
    assert len(tops) == 5 and len(set(tops)) == 1, tops


@pytest.fixture(params=[PHONE, *SMALL_PHONES], ids=lambda size: f"{size['width']}x{size['height']}")
def any_phone(request, browser, server):
    """A fresh tab with touch on a phone's screen, the common one and the small ones: no error at all."""
    yield from checked(open_phone(browser, server, request.param), list)


def test_on_any_phone_every_row_of_buttons_is_one_row_and_the_board_as_large_as_the_screen_holds(any_phone, server):
    """Play's buttons fitted 390 px with a pixel to spare and wrapped onto two rows on a 375 px phone (and the
    editor's row on a 360 px one), and the board left 45 px unused under the status at 375x667: now every row of
    buttons is one row, no label cut, everything on the first screen with a what if's long reason in the status, and
    the board is as wide as the panel or as tall as the screen leaves it (the status's whole box ends at its foot)."""
    phone = any_phone
    open_puzzle(phone, server, (PUZZLES / "gen_14x14_08.txt").read_text())  # its first hint is a what if
    phone.click("#hint")
    phone.wait_for_selector("#why:visible")
    for row in ["#levels", ".actions:has(#solve)", "#play-bar"]:
        boxes = phone.eval_on_selector_all(
            f"{row} > :not([hidden])",
            "nodes => nodes.map((n) => [n.getBoundingClientRect().top, n.getBoundingClientRect().bottom])",
        )
        assert len(boxes) >= 3 and max(top for top, _ in boxes) < min(bottom for _, bottom in boxes), (row, boxes)
    cut = phone.eval_on_selector_all("button:visible", "bs => bs.filter((b) => b.scrollWidth > b.clientWidth)")
    assert cut == []
    for selector in MAIN_BUTTONS + PLAY_BUTTONS + ["#why", "#share", "#editor", "#status"]:
        assert on_first_screen(phone, selector), selector
    board = phone.eval_on_selector("#editor", "e => [e.getBoundingClientRect().height, getComputedStyle(e).maxHeight]")
    status = phone.locator("#status").bounding_box()
    height = phone.viewport_size["height"]
    assert board[0] < float(board[1].removesuffix("px")) - 1 or status["y"] + status["height"] >= height - 24, board


def test_on_a_phone_share_is_on_the_first_screen_in_play_and_its_link_over_the_page(phone):
    """Share sat under the answer's panel, below the fold on a phone: now it is at the top right, in Play too, and
    the link it shows (to copy by hand where the browser refuses the clipboard) lies over the page, under it, until
    the next tap elsewhere, moving neither the board nor the status."""
    pick_level(phone, "starter_7x7")
    assert on_first_screen(phone, "#share")
    board = phone.locator("#editor").bounding_box()
    phone.tap("#share")
    phone.wait_for_selector("#share-link:visible")
    assert on_first_screen(phone, "#share-link") and phone.locator("#editor").bounding_box() == board
    assert puzzle_in(phone.input_value("#share-link")) == (PUZZLES / "starter_7x7.txt").read_text()
    phone.tap("#hint")
    assert phone.is_hidden("#share-link")


def test_in_play_the_editors_clear_cannot_wipe_the_level_being_played(phone):
    """In Play the editor's Clear, on the row above the board, wiped the level to a blank board (no Undo, the level to
    pick again) for a player who meant Restart: it is disabled in Play, and clears the board out of Play."""
    pick_level(phone, "starter_7x7")
    touch_drag(phone, solution_paths("starter_7x7")["R"][:3])
    assert phone.is_disabled("#clear") and phone.locator("#editor .p-cell").count() == 2
    phone.tap("#play")
    assert phone.is_enabled("#clear")
    phone.click("#clear")
    phone.wait_for_function("() => document.querySelectorAll('#editor .e-dot').length === 0")


def test_on_a_phone_quick_taps_on_the_buttons_do_not_zoom(phone):
    """Two quick taps on Undo (or Hint) zoomed the page on a phone that zooms on a double tap (Safari): the buttons
    take taps only (`touch-action: manipulation`), as the board already did."""
    styles = phone.eval_on_selector_all("button", "buttons => buttons.map((b) => getComputedStyle(b).touchAction)")
    assert set(styles) == {"manipulation"}, styles


def test_on_a_phone_a_tapped_button_is_not_left_outlined(phone):
    """A tap left the button outlined as if the mouse stood over it (a phone keeps a tap's hover)."""
    phone.tap("#count")  # an empty board: a quick error, nothing else changes
    phone.wait_for_selector("#error:not([hidden])")
    assert phone.eval_on_selector("#count", "b => getComputedStyle(b).borderColor") == "rgb(58, 61, 69)"  # --line


def test_on_any_phone_the_picker_shows_the_levels_name_and_grade_whole(any_phone):
    """At 375 px the picker showed "gen_7x7_01 · eas", and a 10x10 level's "gen_10x10_01 · medium" ran 40 px past its
    room at 360 px (the select keeps 16 px text: a smaller one zooms the page on an iPhone): on a phone it shows the
    level's name over its grade, each whole, with Generate and Play beside it."""
    level = pick_level(any_phone, "gen_10x10_01")  # the widest name, and the widest grade word
    shown = any_phone.eval_on_selector_all(
        "#level-shown > *",
        "parts => parts.map((p) => [p.textContent, p.scrollWidth <= p.clientWidth, p.getBoundingClientRect().right])",
    )
    assert [text for text, _, _ in shown] == [level["name"], level["grade"]], shown
    picker = any_phone.locator("#level").bounding_box()
    assert all(whole and right <= picker["x"] + picker["width"] for _, whole, right in shown), shown
    boxes = [any_phone.locator(selector).bounding_box() for selector in ("#level", "#generate", "#play")]
    assert max(box["y"] for box in boxes) < min(box["y"] + box["height"] for box in boxes), boxes
    for selector in ("#level-shown", "#generate", "#play"):
        assert on_first_screen(any_phone, selector), selector


def test_on_a_phone_a_tap_at_once_after_a_stroke_is_a_click(phone):
    """A tap on a button within half a second of a stroke on the board gave no click (Hint, Play, Undo): a finger
    lifted while moving makes Chromium start a fling, which `touch-action: none` does not stop, and the tap that
    stops a fling is no click (a page with no script at all does the same, and real phones do). In Play the board's
    touches make no gestures (their default prevented; Pointer Events still draw): the next tap is a click."""
    pick_level(phone, "starter_7x7")
    touch_drag(phone, solution_paths("starter_7x7")["R"][:3])  # its moves sent at once: lifted at full speed
    assert phone.locator("#editor .p-cell").count() == 2
    phone.tap("#undo")
    phone.wait_for_selector("#status:has-text('Undone')", timeout=5000)
    assert phone.locator("#editor .p-cell").count() == 0


def answering(record: dict):
    """A route handler that answers a request with `record`, as the server answers."""
    return lambda route: route.fulfill(json=record)


def key(a, b) -> str:
    """A pipe's data-pipe: its two cells, the smaller first (as the page orders them)."""
    return "|".join(sorted((f"{a[0]},{a[1]}", f"{b[0]},{b[1]}")))


def test_a_full_play_that_breaks_a_rule_is_not_solved(phone):
    pick_level(phone, "starter_5x5")
    paths = solution_paths("starter_5x5")
    for colour, path in paths.items():
        if colour != "C":
            touch_drag(phone, path)
    touch_drag(phone, [(4, 2), (3, 2)])  # the last cell, C's, drawn in B: every cell drawn, C cut off
    phone.wait_for_selector("#status:has-text('not every rule holds')")
    assert "Solved" not in phone.inner_text("#status")
    phone.click("#hint")  # the mistake, when asked for
    phone.wait_for_selector("#status:text-matches('^Mistake')")
    assert (3, 2) in marked(phone, "wrong")


def test_after_generate_one_board_with_labels_and_play_on(phone):
    phone.click("#generate")
    phone.wait_for_selector("#status:has-text('Generated')")
    assert phone.locator("svg").count() == 1 and phone.locator("#result").inner_html() == ""  # the board, once
    assert phone.get_attribute("#play", "aria-pressed") == "true"
    rows = phone.locator("#editor text.e-axis[data-row]").all_text_contents()
    columns = phone.locator("#editor text.e-axis[data-column]").all_text_contents()
    assert rows == ["r1", "r2", "r3", "r4", "r5"] and columns == ["c1", "c2", "c3", "c4", "c5"]
    for selector in MAIN_BUTTONS + PLAY_BUTTONS + ["#editor", "#status"]:
        assert on_first_screen(phone, selector), selector


def test_generate_says_an_8x8(phone):
    """It said "Generated a 8x8 puzzle"."""
    phone.evaluate("['width', 'height'].forEach((id) => (document.getElementById(id).value = 8))")  # folded away
    phone.click("#generate")
    phone.wait_for_selector("#status:has-text('Generated')")
    assert phone.inner_text("#status").startswith("Generated an 8x8 puzzle with ")


def test_the_labels_of_a_20x20_board_are_legible_and_apart_on_a_desktop_and_a_phone(page, phone, server):
    """At least 12 CSS pixels tall; where that makes neighbours overlap, every other one is shown."""
    for tab in (page, phone):
        open_puzzle(tab, server, (PUZZLES / "gen_20x20_01.txt").read_text())
        for axis, along in (("row", "y"), ("column", "x")):
            boxes = [label.bounding_box() for label in tab.locator(f"#editor text.e-axis[data-{axis}]").all()]
            numbers = tab.locator(f"#editor text.e-axis[data-{axis}]").evaluate_all(
                f"(labels) => labels.map((label) => Number(label.dataset.{axis}))"
            )
            assert numbers[0] == 1 and len(numbers) >= 10 and all(box["height"] >= 12 for box in boxes), (axis, boxes)
            size = "height" if along == "y" else "width"
            assert all(a[along] + a[size] <= b[along] for a, b in zip(boxes, boxes[1:], strict=False)), (axis, boxes)


def test_play_clears_the_answer_shown_going_in_and_out(page, server):
    edit_puzzle(page, server, STARTER_TEXT)
    page.click("#solve")
    page.wait_for_selector("#result svg")
    page.click("#play")  # a Solve before Play: its answer does not stay beside the board being played
    assert page.locator("#result svg").count() == 0
    page.click("#solve")
    page.wait_for_selector("#result svg")
    page.click("#play")  # out of Play
    assert page.locator("#result svg").count() == 0 and not page.locator("#play-bar").is_visible()


def test_a_full_play_whose_path_touches_itself_is_not_solved(phone, server):
    """Every cell drawn and each colour joined end to end, but R runs beside itself (r1c3, r1c4, r2c3, r2c4)."""
    open_puzzle(phone, server, "R...\n.BR.\n...B\n")
    touch_drag(phone, [(0, 0), (1, 0), (2, 0)])  # first: a stroke from an endpoint draws its path anew
    touch_drag(phone, [(1, 2), (1, 3), (0, 3), (0, 2), (0, 1), (0, 0)])
    touch_drag(phone, [(1, 1), (2, 1), (2, 2), (2, 3)])
    phone.wait_for_selector("#status:has-text('not every rule holds')")
    assert "Solved" not in phone.inner_text("#status")

"""The static site (`cpflow site`) in Chromium: how soon it starts, and how fast cpflow answers under Pyodide.

python bench/site.py RUNTIME [--levels PACK] [--count N] [--save]

RUNTIME is the npm package `pyodide` unpacked (`npm pack pyodide@314.0.7`); the site is built with it and served
by `python -m http.server` on loopback; Debian's Chromium (headless, through Playwright) opens it at 390x844.
Measured: the board drawn and the runtime up on a first visit (nothing cached) and on a second one (the service
worker's cache); the first hint on the bare puzzle for the first N 15x15 levels of a game level pack (default
levelpack_25_mania15, from /work/data) and a solve of each board of the classic set, each in the browser
(`window.cpflow`) beside the same call in CPython on this machine (the solve with the search in Python alone, the
browser's engine; the hint as `cpflow hint` runs here). The machine's load is in the saved table: on a loaded
machine the runtime's start (compiling its WebAssembly) takes many times what it takes on an idle one.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, recorded, saving

PACK = Path("/work/data/nubango+FlowFree/FlowFree/Assets/Levels/levelpack_25_mania15.txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runtime", type=Path)
    parser.add_argument("--levels", type=Path, default=PACK, help="a level pack of the game")
    parser.add_argument("--count", type=int, default=10, help="15x15 levels to hint")
    saving(parser)
    args = parser.parse_args()
    from cpflow.board.formats import load, picture
    from cpflow.web import browser, site

    levels = [picture(p) for p in load(args.levels) if (p.width, p.height) == (15, 15)][: args.count]
    classic = [path.read_text() for path in sorted((ROOT.parent / "shared" / "puzzles" / "zucker").glob("*.txt"))]
    with (
        tempfile.TemporaryDirectory() as folder,
        served(Path(folder), args.runtime) as url,
        recorded("site", args.save, f"{len(levels)} 15x15 levels of {args.levels.name}; {len(classic)} classic boards"),
    ):
        starts, browser_times = in_chromium(url, levels, classic)
        python_times = in_python(browser, levels, classic)
        print("| visit | board drawn, s | runtime up, s |")
        print("|---|---|---|")
        for visit, (drawn, up) in starts.items():
            print(f"| {visit} | {drawn:.2f} | {up:.2f} |")
        print(f"\nPyodide {site.VERSION}; Chromium {chromium_version()}; the site's files on loopback.\n")
        print("| call | boards | in the browser: median s | max s | CPython here: median s | max s |")
        print("|---|---|---|---|---|---|")
        for call, seconds in browser_times.items():
            here = python_times[call]
            print(
                f"| {call} | {len(seconds)} | {statistics.median(seconds):.3f} | {max(seconds):.3f} | "
                f"{statistics.median(here):.3f} | {max(here):.3f} |"
            )


class served:
    """The site built into `folder` and served on a free loopback port."""

    def __init__(self, folder: Path, runtime: Path):
        from cpflow.web.site import build

        build(folder, runtime)
        self.folder = folder

    def __enter__(self) -> str:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", self.folder]
        self.server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        return f"http://127.0.0.1:{port}/"

    def __exit__(self, *_) -> None:
        self.server.terminate()
        self.server.wait()


def in_chromium(url: str, levels: list[str], classic: list[str]) -> tuple[dict, dict]:
    from playwright.sync_api import sync_playwright

    timed = "async ([call, texts]) => { const out = []; for (const text of texts) { const t = performance.now();"
    timed += " await cpflow[call](text); out.push((performance.now() - t) / 1000); } return out; }"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=shutil.which("chromium"))
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        tab = context.new_page()
        starts = {}
        for visit in ("first", "second (cached)"):
            began = time.perf_counter()
            tab.goto(url) if visit == "first" else tab.reload()
            tab.wait_for_selector("body[data-ready]", state="attached")
            drawn = time.perf_counter() - began
            tab.wait_for_selector("body[data-python=ready]", state="attached", timeout=300_000)
            starts[visit] = (drawn, time.perf_counter() - began)
            tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
        times = {"hint, 15x15 level": tab.evaluate(timed, ["hint", levels])}
        times["solve, classic set"] = tab.evaluate(timed, ["solve", classic])
        chromium.close()
    return starts, times


def in_python(browser, levels: list[str], classic: list[str]) -> dict:
    from cpflow.engines.catalog import ENGINES, added

    def each(call, texts) -> list[float]:
        seconds = []
        for text in texts:
            began = time.perf_counter()
            call(text)
            seconds.append(time.perf_counter() - began)
        return seconds

    python_only = ENGINES["search-python"]
    from dataclasses import replace

    with added(replace(python_only, name=browser.ENGINE)):  # the search in Python, as under Pyodide
        return {"hint, 15x15 level": each(browser.hint, levels), "solve, classic set": each(browser.solve, classic)}


def chromium_version() -> str:
    said = subprocess.run([shutil.which("chromium") or "chromium", "--version"], capture_output=True, text=True)
    return said.stdout.split()[1] if said.stdout else "?"


if __name__ == "__main__":
    main()

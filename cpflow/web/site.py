"""`cpflow site`: the static site, a folder any static host serves (`python -m http.server`, GitHub
Pages) that runs cpflow in the browser with no cpflow server.

It holds the page `cpflow serve` serves (`assets`: the same files, its config saying that the
browser's Python answers), cpflow's pure-Python files as a zip (`cpflow.zip`: no compiled core, no
solver library), the site's own files (`site/`: the loader that sets `window.cpflow`, the worker
that runs Pyodide and `browser`, the service worker, the app manifest and its icon; the icon a phone's
home screen takes, drawn by cpflow's pictures), and, with `runtime`, the Pyodide runtime copied in
(`pyodide/`); without it the worker loads the pinned runtime from Pyodide's CDN.

The site is a fresh folder every time: written whole beside `out` (`.cpflow-part-...`), then put in
its place (a site there before is moved aside, then removed), so that no file an older site held is
left, and a stop midway leaves `out` as it was. A folder that holds anything and no MARKER (so no
site of cpflow's) is refused, never replaced.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import shutil
import zipfile
from importlib import resources
from pathlib import Path

import cpflow
from cpflow import outputs
from cpflow.errors import OutputError, PuzzleFormatError
from cpflow.web import assets, sketches
from cpflow.web.browser import ENGINE, LIMITS

VERSION = "314.0.7"  # Pyodide, pinned: the npm package `pyodide` of this version (Python 3.14)
CDN = f"https://cdn.jsdelivr.net/pyodide/v{VERSION}/full/"
LOCAL = "pyodide/"  # where a runtime given with --pyodide is copied, in the site
RUNTIME = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PACKAGE = "cpflow.zip"
SITE = resources.files("cpflow.web") / "site"
LEFT_OUT = (".so", ".pyd", ".c", ".pyc")  # the compiled core and its source; caches
SERVED_ELSEWHERE = ("web/page/", "web/site/")  # written beside the zip, not in it


def build(out: str | Path, runtime: str | Path | None = None) -> list[str]:
    """Write the site into `out` (made if need be); the names of the files written, from `out`.
    PuzzleFormatError when `runtime` holds no Pyodide runtime; OutputError when `out` cannot be written."""
    files: dict[str, str | bytes] = {**_runtime(Path(runtime))} if runtime is not None else {}
    settings = assets.config(LIMITS, [ENGINE], backend="browser")
    files["index.html"] = assets.index(settings).replace("</head>", HEAD + "</head>", 1)
    files |= {name: (assets.PAGE / name).read_bytes() for name in assets.files()}
    files |= {path.name: path.read_bytes() for path in SITE.iterdir() if path.name not in FILLED and path.is_file()}
    files["cpflow.js"] = (SITE / "cpflow.js").read_text().replace("__RUNTIME__", LOCAL if runtime is not None else CDN)
    files[BLANK] = json.dumps(
        {f"{shape} {w}x{h}": sketches.sketch(_blank(shape, w, h), LIMITS) for shape, w, h in FIRST}
    )
    files[PACKAGE] = package()
    files[ICON] = icon()
    files["sw.js"] = _service_worker(files, CDN if runtime is None else None)
    files[MARKER] = (
        f"A site written by `cpflow site` (cpflow {cpflow.__version__}), which replaces this folder whole.\n"
    )
    _replace(Path(out), files)
    return sorted(files)


HEAD = '<link rel="manifest" href="manifest.webmanifest">\n<link rel="apple-touch-icon" href="apple-touch-icon.png">\n'
MARKER = "cpflow-site.txt"  # in every site cpflow writes: a folder holding it may be replaced by a new site
ICON = "apple-touch-icon.png"  # what an iPhone puts on its home screen (it takes no SVG icon)
ICON_PIXELS = 180
# The icon's board, solved: four colours on 4x4 (as icon.svg draws its three).
ICON_BOARD = ("R...\nB.G.\n.GY.\nBY.R\n", "RRRR\nBGGR\nBGYR\nBYYR\n")
FILLED = ("sw.js", "cpflow.js")  # written with the site's settings filled in
# The blank boards the page draws before the runtime is up (the board it opens with), answered as `/api/board`
# answers them: their text and layout.
BLANK = "blank.json"
FIRST = (("square", 5, 5),)


def icon(pixels: int = ICON_PIXELS) -> bytes:
    """The site's icon as a PNG, `pixels` a side: a small board solved, drawn by cpflow's pictures (Pillow), a margin
    round it that a phone's rounded corners do not cut into."""
    from PIL import Image

    from cpflow.board.formats import parse, parse_solution
    from cpflow.pictures.raster import image
    from cpflow.pictures.scene import scene

    puzzle = parse(ICON_BOARD[0], "icon")[0]
    picture = scene(puzzle, parse_solution(puzzle, ICON_BOARD[1]))
    board = image(picture, 0.84 * pixels / max(picture.width, picture.height))
    canvas = Image.new("RGB", (pixels, pixels), picture.background)
    canvas.paste(board, ((pixels - board.width) // 2, (pixels - board.height) // 2))
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def _replace(out: Path, files: dict[str, str | bytes]) -> None:
    """`files` as the folder `out`, whole: written beside it, then put in its place (a site of cpflow's there before
    moved aside, then removed). OutputError for a folder there that holds anything and no MARKER, or one that cannot
    be written; `out` is then as it was."""
    if out.exists() and not out.is_dir():
        raise OutputError(str(out), "is a file, not a folder: name a new folder, or a site written before")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise OutputError(str(out), f"holds files and no {MARKER}, so no site of cpflow's: name a new or empty folder")
    target = Path(os.path.abspath(out))  # `.` too, by its name
    here = Path.cwd().resolve()
    if target.exists() and (here == target.resolve() or target.resolve() in here.parents):
        raise OutputError(
            str(out), f"holds the folder you are in: name it from outside (cd .. && cpflow site --out {target.name})"
        )
    parent = outputs.folder(target.parent)
    fresh, old = (parent / f"{prefix}{secrets.token_hex(4)}-{target.name}" for prefix in (outputs.PART, outputs.OLD))
    try:
        for name, data in files.items():
            (fresh / name).parent.mkdir(parents=True, exist_ok=True)
            (fresh / name).write_bytes(data.encode() if isinstance(data, str) else data)
        with outputs.interrupts_held():
            if target.is_dir():
                target.rename(old)
            try:
                fresh.rename(target)
            except OSError:
                if old.is_dir():
                    old.rename(target)
                raise
    except OSError as error:
        raise OutputError(str(out), f"cannot write here: {error.strerror or error}") from None
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def _blank(shape: str, width: int, height: int) -> dict:
    return {"width": width, "height": height, "shape": shape, "geometry": True}


def package() -> bytes:
    """cpflow's pure-Python files as a zip that unpacks to `cpflow/`: the same bytes for the same files
    (each dated 1980), so that a browser's cache keeps it until cpflow changes."""
    top = Path(cpflow.__file__).parent
    kept = sorted(
        path
        for path in top.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and not path.name.endswith(LEFT_OUT)
        and not path.relative_to(top).as_posix().startswith(SERVED_ELSEWHERE)
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in kept:
            info = zipfile.ZipInfo(f"cpflow/{path.relative_to(top).as_posix()}", (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _runtime(folder: Path) -> dict[str, bytes]:
    """The runtime's files, from the npm package's folder (`npm pack pyodide@VERSION`, unpacked)."""
    missing = [name for name in RUNTIME if not (folder / name).is_file()]
    if missing:
        raise PuzzleFormatError.whole(
            str(folder), f"is no Pyodide runtime: no {missing[0]} (npm pack pyodide@{VERSION}: its package/ folder)"
        )
    return {LOCAL + name: (folder / name).read_bytes() for name in RUNTIME}


def _service_worker(files: dict[str, str | bytes], cdn: str | None) -> str:
    """sw.js with what it caches filled in: the site's files and a cache named after their contents (a new
    site, a new cache), and the CDN whose runtime it keeps once fetched (none when the runtime is local)."""
    digest = hashlib.sha256()
    for name in sorted(files):
        data = files[name]
        digest.update(name.encode() + b"\0" + (data.encode() if isinstance(data, str) else data))
    listed = ["./", *sorted(name for name in files if name != "index.html")]
    settings = {"cache": f"cpflow-{digest.hexdigest()[:16]}", "files": listed, "cdn": cdn}
    return (SITE / "sw.js").read_text().replace("__SETTINGS__", json.dumps(settings))

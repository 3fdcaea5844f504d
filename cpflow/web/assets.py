"""The page's files, as `cpflow serve` serves them and `cpflow site` writes them: index.html with its
config filled in (the palette, the caps, the engines, the grades, and which back end answers), its
stylesheet and its modules, each with its type. No web framework is imported here.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from importlib import resources

from cpflow.deduce.rulebook import GRADES
from cpflow.web.limits import Limits

# modules need a JavaScript type, or a browser refuses them; levels.json: the levels to play (puzzles/levels.py)
TYPES = {"js": "text/javascript", "css": "text/css", "json": "application/json"}
ASSETS = tuple(f".{suffix}" for suffix in TYPES)
PAGE = resources.files("cpflow.web") / "page"


def config(limits: Limits, engines: list[str], **more) -> dict:
    """What the page reads from index.html: the palette, the caps, the engines offered, the grades;
    `more` for the site (`backend`, `runtime`)."""
    return {"palette": palette(), "limits": asdict(limits), "engines": engines, "grades": GRADES, **more}


def index(settings: dict) -> str:
    """index.html with `settings` (`config`) filled in, safe inside its script element."""
    return (PAGE / "index.html").read_text().replace("__CONFIG__", json.dumps(settings).replace("</", "<\\/"))


def files() -> dict[str, str]:
    """The page's other files (stylesheet, modules, levels), each name with its type."""
    return {path.name: TYPES[path.name.rsplit(".", 1)[-1]] for path in PAGE.iterdir() if path.name.endswith(ASSETS)}


def palette() -> list[tuple[str, str]]:
    """The names and colours the page's editor gives new endpoints, in order: the game's letters, then
    the generator's other names (a list: a JavaScript object would put the digits first)."""
    from cpflow.pictures.palette import GAME, hex_code, spare_colour
    from cpflow.workflows.generate.prove import NAMES

    spare = iter(range(len(NAMES)))
    return [(name, hex_code(GAME[name] if name in GAME else spare_colour(next(spare)))) for name in NAMES]

"""The site's Python (`cpflow site`): run in the browser under Pyodide, it answers what the page asks
`cpflow serve` for, with the same tasks the server's workers run (`tasks`: the same workflows, the same
records), and what `window.cpflow` offers a script: `solve`, `hint`, `unique`, `verify`.

No solver library runs there (OR-Tools, PuLP, python-sat), nor the compiled core: the engine is the
front end's search run to its end (`ENGINE`), in Python, its every answer verified as any engine's.
Every answer crosses to JavaScript as JSON text: `{"ok": answer}`, or `{"error": line, "status": n}`
with the one line and the HTTP status `cpflow serve` would answer.
"""

from __future__ import annotations

import json

from cpflow.web import sketches, tasks
from cpflow.web.limits import Limits

ENGINE = "search"  # the engine the browser solves with (cpflow engines: needs nothing installed)
LIMITS = Limits(workers=1)
# What app.py's request models fill in when a request leaves a field out (tests/test_site.py holds them equal).
PUZZLE = {"name": "puzzle", "input_format": "auto", "index": 1, "allow_touch": False, "allow_blanks": False}
SOLVE = PUZZLE | {"engine": ENGINE, "time_limit": None, "draw": False}
DEFAULTS: dict[str, dict] = {
    "solve": SOLVE,
    "unique": SOLVE,
    "count": SOLVE | {"limit": None},
    "hint": PUZZLE | {"play": None, "all": False, "time_limit": None},
    "fix": PUZZLE | {"time_limit": None},
    "render": PUZZLE | {"solutions": [], "picture": "svg", "labels": False},
    "read": PUZZLE,
    "verify": PUZZLE | {"solution": None},
    "generate": {
        "size": "7x7",
        "shape": "square",
        "colours": None,
        "seed": None,
        "holes": 0,
        "walls": 0,
        "warps": 0,
        "bridges": 0,
        "grade": None,
        "touch_proof": False,
        "time_limit": None,
        "draw": False,
    },
}


def answer(path: str, body: str) -> str:
    """The answer to one of the page's requests (`api/solve` and its JSON body), as JSON text."""
    kind = path.removeprefix("api/").split("?")[0]
    try:
        ask = json.loads(body)
        if kind == "board":
            return json.dumps({"ok": sketches.sketch(ask, LIMITS)})
        if kind not in DEFAULTS:
            return json.dumps({"error": f"cpflow: {path} is not answered in the browser", "status": 404})
        ask = DEFAULTS[kind] | {key: value for key, value in ask.items() if value is not None}
        if "time_limit" in ask:
            ask["time_limit"] = min(ask["time_limit"] or LIMITS.time_limit, LIMITS.max_time_limit)
        if kind == "count":
            ask["limit"] = min(ask["limit"] or LIMITS.max_count, LIMITS.max_count)
        found = getattr(tasks, kind)(ask, LIMITS)
    except Exception as error:  # every request is answered, whatever went wrong (as a worker answers)
        failed = tasks.failure(error)
        return json.dumps({"error": failed.message, "status": failed.status})
    if kind == "render":  # the picture itself: SVG text (PNG bytes are drawn from it by the page)
        found = {"media": found["media"], "text": found["body"]}
    return json.dumps({"ok": found})


def warm() -> None:
    """Import what answers need and reason on a tiny board, so that the first answer is not the slow one."""
    answer("api/hint", json.dumps({"puzzle": "RB\nRB\n"}))


def solve(text: str) -> str:
    """`cpflow solve --format json`'s record for the puzzle (a file's text, any format)."""
    return answer("solve", json.dumps({"puzzle": text}))


def hint(text: str, play: str | None = None) -> str:
    """`cpflow hint --format json`'s record for the puzzle and the play drawn so far (None: nothing drawn)."""
    return answer("hint", json.dumps({"puzzle": text, "play": play}))


def unique(text: str) -> str:
    """`cpflow unique --format json`'s record for the puzzle."""
    return answer("unique", json.dumps({"puzzle": text}))


def verify(text: str, solution: str | None = None) -> str:
    """Whether the solution (or the one the puzzle file carries) is right, and its mistakes, one a line."""
    return answer("verify", json.dumps({"puzzle": text, "solution": solution}))

"""The FastAPI app: the page, and a JSON API whose answers are the CLI's JSON records.

Every route checks the request's shape (pydantic), hands the work to a worker process
(`jobs`) and answers with what the worker sends back. Errors answer
`{"error": "<one line>"}`: 400 a bad puzzle or option (the CLI's message), 403 a post from
another site's page, 413 a board or request over the caps, 408 a body too slow to arrive,
415 a body not sent as JSON, 421 a Host that is not the server's, 422 a malformed request,
503 a full queue or too many bodies held. `/api/import` alone takes raw bytes (a screenshot,
as an image type or application/octet-stream), under its own cap; OpenCV is imported by its
worker, never here. A body is read by `guards.BodyGuard` before a route sees it. Every answer
carries the security headers (`guards`); the API's documentation page is Swagger UI from
the `fastapi-offline` package's files, started by a script of ours (no inline script).
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictBool
from starlette.exceptions import HTTPException

from cpflow.deduce.rulebook import GRADES
from cpflow.engines.catalog import DEFAULT, ENGINES, available
from cpflow.errors import CpflowError
from cpflow.web import assets, sketches, tasks
from cpflow.web.guards import BodyGuard, Gate, Takes
from cpflow.web.hosts import Hosts
from cpflow.web.jobs import Busy, Died, Gone, Inline, Jobs, Overdue
from cpflow.web.limits import Limits

EXAMPLE = ".GY.Y\nGO..B\nR.CO.\nBR.C.\n.....\n"
SOLVED = {
    "file": "puzzle",
    "index": 1,
    "width": 5,
    "height": 5,
    "status": "solved",
    "seconds": 0.003,
    "paths": {"G": [[0, 1], [0, 0], [1, 0]], "Y": [[0, 2], [0, 3], [0, 4]], "...": []},
    "grid": ["GGYYY", "GOOOB", "RRCOB", "BRCCB", "BBBBB"],
}
DESCRIPTION = """The page is at [/](/). Every answer is the JSON record of the matching `cpflow ... --format json`
command; a puzzle is the text of a file in any format cpflow reads, posted as `Content-Type: application/json`.
Errors answer `{"error": "<one line>"}`: 400 a bad puzzle or option (the line `cpflow` prints), 403 a post from
another site's page (`Origin`, `Sec-Fetch-Site`), 408 a body too slow to arrive, 413 a board or request over the
server's caps, 415 a body in another type, 421 a Host that is not this server's (start it with `--allowed-host`),
422 a malformed request, 503 a full queue or too many bodies held at once (retry). A time-out is not an error: the
status or verdict is `unknown`. `/api/import` takes a screenshot's bytes as the body instead (PNG, JPEG, GIF, ...,
sent as its image type or `application/octet-stream`) and answers as `/api/read` does."""
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "application/octet-stream")
IMPORTED = {
    "width": 5,
    "height": 5,
    "shape": "square",
    "endpoints": {"G": [[0, 1], [1, 0]], "Y": [[0, 2], [0, 4]], "...": []},
    "holes": [],
    "bridges": [],
    "walls": [],
    "warps": [],
    "colours": {"G": "#008000", "Y": "#eeee00", "...": ""},
    "file": "shot.png",
    "index": 1,
    "text": EXAMPLE,
}


class PuzzleAsk(BaseModel):
    """A puzzle, as the text of a file in any format cpflow reads."""

    puzzle: str = Field(description="The puzzle file's text: classic grid, header, level, board or JSON graph.")
    name: str = Field("puzzle", max_length=200, description="What records and error messages call it.")
    input_format: str = Field("auto", description="auto, classic, zero, header, level, board or json.")
    index: int = Field(1, ge=1, description="Which puzzle of a text that holds several (from 1).")
    allow_touch: StrictBool = Field(False, description="Paths may run beside themselves (the Numberlink reading).")
    allow_blanks: StrictBool = Field(False, description="Cells may stay empty (the original Numberlink rule).")

    model_config = {"json_schema_extra": {"examples": [{"puzzle": EXAMPLE}]}}


class SolveAsk(PuzzleAsk):
    engine: str = Field(
        DEFAULT, description=f"One of {', '.join(ENGINES)} (`cpflow engines`), installed on the server."
    )
    time_limit: float | None = Field(None, gt=0, description="Seconds before giving up (default 10, capped).")
    draw: StrictBool = Field(False, description="Also answer `svg` (the picture) and `solution_texts`.")


class CountAsk(SolveAsk):
    limit: int | None = Field(None, ge=1, description="Stop counting at this many solutions (default and cap 1000).")


class HintAsk(PuzzleAsk):
    play: str | None = Field(
        None, description="The board as drawn so far: the puzzle's format with some cells coloured (`.` empty)."
    )
    all: StrictBool = Field(False, description="Every step to the end (`hints`) and the grade (`summary`).")
    time_limit: float | None = Field(None, gt=0, description="Seconds before giving up (default 10, capped).")


class FixAsk(PuzzleAsk):
    time_limit: float | None = Field(None, gt=0, description="Seconds for the whole repair (default 10, capped).")


class RenderAsk(PuzzleAsk):
    solutions: list[str] = Field([], max_length=2, description="Solutions to draw side by side, in any format.")
    picture: Literal["svg", "png"] = "svg"
    labels: StrictBool = Field(False, description="Write each colour's name on its endpoints.")


class GenerateAsk(BaseModel):
    size: str = Field("7x7", description="WIDTHxHEIGHT.")
    shape: Literal["square", "hex"] = "square"
    colours: str | None = Field(None, description="K or a range K-L (default: from the board's size).")
    seed: int | None = Field(None, ge=0, lt=2**63, description="The same seed makes the same puzzle.")
    holes: int = Field(0, ge=0, le=10_000, description="Cells taken out at random.")
    walls: int = Field(0, ge=0, le=10_000, description="Walls put between cells at random.")
    warps: int = Field(0, ge=0, le=10_000, description="Warps (a row's or a column's end cells joined) at random.")
    bridges: int = Field(0, ge=0, le=10_000, description="Bridges at random (square boards).")
    grade: Literal[GRADES] | None = Field(  # type: ignore[valid-type]
        None, description="Only a puzzle of this grade (`cpflow grade`)."
    )
    touch_proof: StrictBool = Field(False, description="Unique also when paths may touch themselves.")
    time_limit: float | None = Field(None, gt=0, description="Seconds per uniqueness proof (default 10, capped).")
    draw: StrictBool = Field(False, description="Also answer `svg`, the puzzle drawn.")


class SketchAsk(BaseModel):
    """A board as the page's editor holds it: the record `/api/read` answers, less its colours."""

    width: int = Field(ge=1, le=10_000)
    height: int = Field(ge=1, le=10_000)
    shape: Literal["square", "hex"] = "square"
    endpoints: dict[str, list[tuple[int, int]]] = Field({}, description="Each colour's endpoints: one or two cells.")
    holes: list[tuple[int, int]] = []
    bridges: list[tuple[int, int]] = []
    walls: list[tuple[tuple[int, int], tuple[int, int]]] = []
    warps: list[tuple[tuple[int, int], tuple[int, int]]] = []
    drawn: list[tuple[int, int, str]] = Field(
        [], description="A play's drawn cells, `[row, col, colour]`: written in their colour, as `hint --play` reads."
    )
    geometry: bool = Field(False, description="Also answer `geometry`: where each cell is drawn, which touch.")

    model_config = {"json_schema_extra": {"examples": [{"width": 3, "height": 2, "endpoints": {"R": [[0, 0]]}}]}}


class App(FastAPI):
    """FastAPI with the `Gate` around everything, so that even the 500 of an unexpected error carries
    the security headers."""

    def __init__(self, hosts: Hosts, most_header_bytes: int, **options):
        super().__init__(**options)
        self.hosts, self.most_header_bytes = hosts, most_header_bytes

    def build_middleware_stack(self):
        return Gate(super().build_middleware_stack(), self.hosts, self.most_header_bytes)


def create_app(limits: Limits | None = None, hosts: Hosts | None = None) -> FastAPI:
    """The app: the page at /, the API under /api, its documentation at /docs. It answers the Host names
    of `hosts` (by default those of 127.0.0.1:8000)."""
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        jobs = Jobs(limits)
        jobs.start()
        app.state.jobs, app.state.inline = jobs, Inline(limits.workers + limits.queue)
        try:
            yield
        finally:
            jobs.stop()

    app = App(
        hosts or Hosts.bound("127.0.0.1", 8000),
        limits.max_header_bytes,
        title="cpflow",
        summary="Solve, prove unique, count, generate and draw Flow Free / Numberlink puzzles.",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # ours, below: FastAPI's starts Swagger UI with an inline script, and from a CDN
        redoc_url=None,
    )
    app.state.limits = limits
    app.mount(SWAGGER, StaticFiles(packages=[("fastapi_offline", "static")]), name="swagger-ui")
    json_body = Takes(limits.max_bytes, ("application/json",), "a JSON body")
    image = Takes(limits.max_image_bytes, ("image/", "application/octet-stream"), "an image's bytes")
    app.add_middleware(
        BodyGuard,
        default=json_body,
        seconds=limits.body_timeout,
        most_held=limits.max_buffered,
        takes={"/api/import": image},
    )
    # Starlette types a handler as taking any Exception, not the class it is added for (Kludex/starlette#2417)
    app.add_exception_handler(RequestValidationError, _malformed)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    _page_routes(app)

    @app.post("/api/solve", responses={200: {"content": {"application/json": {"example": SOLVED}}}, **ERRORS})
    async def solve(ask: SolveAsk, request: Request) -> Response:
        """Solve a puzzle: the record of `cpflow solve --format json` (`status`, `seconds`, `paths`, `grid`)."""
        return await _answer(request, tasks.solve, ask)

    @app.post("/api/unique", responses=ERRORS)
    async def unique(ask: SolveAsk, request: Request) -> Response:
        """Prove a puzzle unique, or find two solutions: the record of `cpflow unique --format json`."""
        return await _answer(request, tasks.unique, ask)

    @app.post("/api/count", responses=ERRORS)
    async def count(ask: CountAsk, request: Request) -> Response:
        """Count distinct solutions up to `limit`: the record of `cpflow count --format json`."""
        if ask.limit is not None and ask.limit > limits.max_count:
            return _error(422, f"limit: at most {limits.max_count} on this server")
        ask.limit = ask.limit or limits.max_count
        return await _answer(request, tasks.count, ask)

    @app.post("/api/hint", responses=ERRORS)
    async def hint(ask: HintAsk, request: Request) -> Response:
        """The next step of a play, with the rule that forces it, or the play's mistake: the record of
        `cpflow hint --format json`; with `all`, `{"hints": [...], "summary": {...}}`."""
        return await _answer(request, tasks.hint, ask)

    @app.post("/api/generate", responses=ERRORS)
    async def generate(ask: GenerateAsk, request: Request) -> Response:
        """Make a puzzle with a proven unique solution: its text, its board, its solution and the seed."""
        return await _answer(request, tasks.generate, ask)

    @app.post("/api/fix", responses=ERRORS)
    async def fix(ask: FixAsk, request: Request) -> Response:
        """Make a puzzle with several solutions unique by one edit: the record of `cpflow fix --format json`,
        with the fixed puzzle's `board` for the page's editor."""
        return await _answer(request, tasks.fix, ask)

    @app.post("/api/render", responses=ERRORS, response_class=Response)
    async def render(ask: RenderAsk, request: Request) -> Response:
        """Draw a puzzle (with up to two solutions side by side) as `cpflow render` does: SVG or PNG."""
        return await _answer(request, tasks.render, ask)

    @app.post("/api/read", responses=ERRORS)
    async def read(ask: PuzzleAsk, request: Request) -> Response:
        """Read a puzzle file: its board (size, shape, endpoints, holes, bridges, walls, warps) and its text."""
        return await _answer(request, tasks.read, ask)

    @app.post("/api/board", responses=ERRORS)
    async def sketch(request: Request, ask: SketchAsk) -> Response:
        """The board as the page's editor holds it (endpoints perhaps unpaired), written as a puzzle file
        (`text`); with `geometry`, where each cell is drawn and which cells touch it. Answered at once."""
        try:  # its JSON made in the thread too: 0.03 s for a 50x50 hexagonal board's geometry
            return await request.app.state.inline.run(lambda: JSONResponse(sketches.sketch(ask.model_dump(), limits)))
        except Busy as error:
            return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": "1"})
        except CpflowError as error:
            return _error(error.http_status, error.one_line())

    @app.post(
        "/api/import",
        responses={200: {"content": {"application/json": {"example": IMPORTED}}}, **IMPORT_ERRORS},
        openapi_extra={"requestBody": {"required": True, "content": {t: {"schema": BINARY} for t in IMAGE_TYPES}}},
    )
    async def import_screenshot(
        request: Request,
        name: str = Query("screenshot", max_length=200, description="The file's name, for messages (`shot.png`)."),
    ) -> Response:
        """Read a screenshot of the game (the body: the image's bytes, any image type, at most 16 MiB) as
        `cpflow import` does: its board as `/api/read` answers it (size, shape, endpoints, holes, colours)
        and its `text`. Not solved: the page shows it in the editor to be checked first."""
        image = await request.body()
        return await _answer(request, tasks.screenshot, ScreenshotAsk(image=image, name=name))

    return app


class ScreenshotAsk(BaseModel):
    image: bytes
    name: str


BINARY = {"type": "string", "format": "binary"}
SWAGGER = "/static-offline-docs"  # Swagger UI's files, from the fastapi-offline package (docs.html names them)
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": 'A bad puzzle or option: `{"error": "<the CLI\'s one-line message>"}`'},
    403: {"description": "Posted by another site's page (its Origin or Sec-Fetch-Site says so)"},
    408: {"description": "The request's body did not arrive in time"},
    413: {"description": "A board or request over the server's caps"},
    415: {"description": "The body is not sent as application/json"},
    421: {"description": "The request's Host is not this server's (a defence against DNS rebinding)"},
    422: {"description": "A malformed request, or no puzzle could be generated"},
    503: {"description": "The queue is full, or the server holds as many bodies as it takes: try again shortly"},
}
IMPORT_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": 'Not an image: `{"error": "shot.png: not an image (PNG, JPEG, GIF, BMP, WebP), ..."}`'},
    403: ERRORS[403],
    413: {"description": "An image over the server's cap (16 MiB by default)"},
    415: {"description": "The body is not sent as an image type or application/octet-stream"},
    422: {"description": "No board could be read, or its colours do not pair: the line `cpflow import` prints"},
    501: {"description": "The server has no OpenCV: `pip install 'cpflow[vision]'`"},
    503: ERRORS[503],
}


async def _answer(request: Request, work, ask: BaseModel) -> Response:
    """The worker's answer to one request (`work`, a task of `tasks`), or the error it comes to."""
    limits: Limits = request.app.state.limits
    kind = work.__name__
    asked = ask.model_dump()
    if "time_limit" in asked:
        if asked["time_limit"] is not None and asked["time_limit"] > limits.max_time_limit:
            return _error(422, f"time_limit: at most {limits.max_time_limit:g} seconds on this server")
        asked["time_limit"] = asked["time_limit"] or limits.time_limit
    began = asyncio.get_running_loop().time()
    try:
        status, answer = await request.app.state.jobs.run(work, asked, request.is_disconnected)
    except Busy as error:
        return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": "1"})
    except Gone:
        return Response(status_code=499)  # nobody is listening any more
    except Overdue:
        if kind not in ("solve", "unique", "count"):
            return _error(422, f"cpflow: no answer within {asked.get('time_limit') or limits.time_limit:g} seconds")
        seconds = asyncio.get_running_loop().time() - began
        answer = await asyncio.to_thread(tasks.timed_out, asked, limits, kind, seconds)
        return JSONResponse(answer)
    except Died as error:
        return _error(500, f"internal error: {error}")
    if status == "failed":
        return _error(answer.status, answer.message)
    if kind == "render":
        return Response(answer["body"], media_type=answer["media"])
    return JSONResponse(answer)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


async def _malformed(request: Request, error: RequestValidationError) -> JSONResponse:
    """A request of the wrong shape: the first problem, in one line."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    where = "body" if first.get("type") == "json_invalid" else where or "body"
    return _error(422, f"{where}: {first.get('msg', 'invalid')}")


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    return JSONResponse({"error": str(error.detail)}, error.status_code, headers=getattr(error, "headers", None))


def _page_routes(app: FastAPI) -> None:
    """The page: index.html with the palette, the server's limits, its engines and the grades filled in,
    its stylesheet and its modules; the API's documentation page and the script that starts Swagger UI on it."""
    html = assets.index(assets.config(app.state.limits, available()))
    docs = (assets.PAGE / "docs.html").read_text()
    files = assets.files()
    bodies = {name: (assets.PAGE / name).read_text() for name in files}

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(html)

    @app.get("/docs", include_in_schema=False)
    async def documentation() -> HTMLResponse:
        return HTMLResponse(docs)

    @app.get("/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name not in files:
            raise HTTPException(404, f"no such page: /{name}")
        return Response(bodies[name], media_type=files[name])

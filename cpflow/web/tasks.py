"""The work one request asks for, done in a worker process: read the puzzle, call the library,
answer with the CLI's JSON records.

Each task takes the request as a dict (`ask`) and the server's `Limits`, and returns
what the API answers. Errors cross back to the server as a `Failure` (an HTTP status and
the CLI's one-line message), not as exceptions, since not every exception pickles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from cpflow.board.formats import decode, parse_play, parse_solution, parse_with_solutions, picture
from cpflow.board.grid import Puzzle, Rules, differ
from cpflow.errors import CpflowError, ExtraMissing, OverLimit, PuzzleFormatError, ScreenshotUnreadable
from cpflow.web.limits import Limits
from cpflow.workflows import records
from cpflow.workflows.inputs import numbered

NEEDS_VISION = "importing a screenshot needs OpenCV and numpy on the server: pip install 'cpflow[vision]'"


@dataclass(frozen=True)
class Failure:
    """Why a task gave no answer: the HTTP status and the one-line message the CLI would print."""

    status: int
    message: str


def failure(error: Exception) -> Failure:
    """The status and message of an error: its kind's (cpflow.errors), worded as `cpflow` words it on
    stderr; anything else is a bug (500)."""
    if isinstance(error, CpflowError):
        return Failure(error.http_status, error.one_line())
    return Failure(500, f"internal error: {type(error).__name__}: {error}")


def read(ask: dict, limits: Limits) -> dict:
    """The puzzle as a board the page can edit, and as text in a format that reads back."""
    puzzle = _puzzle(ask, limits)
    return {**board(puzzle), "file": ask["name"], "index": ask["index"], "text": picture(puzzle)}


def screenshot(ask: dict, limits: Limits) -> dict:
    """The puzzle a screenshot shows (`ask["image"]`, its bytes), answered as `read` answers a file, with
    the play drawn on it, the cells the reading left out and its confidence per cell (`records.imported`,
    as `cpflow import --format json` prints it)."""
    try:
        from cpflow.vision.screenshot import read
    except ImportError:
        raise ExtraMissing(NEEDS_VISION) from None
    name = ask["name"]
    try:
        reading = read(ask["image"], name=name.rsplit(".", 1)[0] or name)
    except ScreenshotUnreadable as error:  # worded as `cpflow import NAME` words it
        raise type(error)(f"{name}: {error}") from None
    puzzle = reading.puzzle
    if problem := limits.size_problem(puzzle.width, puzzle.height):
        raise OverLimit(f"{name}: {problem}")
    return board(puzzle) | records.imported(name, puzzle, reading.play.drawn, reading.play.unsure, reading.confidence)


def solve(ask: dict, limits: Limits) -> dict:
    """`cpflow solve --format json`'s record; with `draw`, also the picture and the solution's text."""
    from cpflow.workflows.unsolvable import solved

    puzzle = _puzzle(ask, limits)
    answer = solved(puzzle, engine=ask["engine"], time_limit=ask["time_limit"])
    result = answer.answer
    record = records.solved(ask["name"], ask["index"], puzzle, result) | records.why(answer.reason)
    if ask.get("draw"):
        found = [result.solution] if result.solution else []
        record |= {"svg": drawing(puzzle, found), "solution_texts": [picture(puzzle, s) for s in found]}
    return record


def unique(ask: dict, limits: Limits) -> dict:
    """`cpflow unique --format json`'s record; with `draw`, the solutions side by side, differences marked."""
    from cpflow.workflows.unsolvable import proven

    puzzle = _puzzle(ask, limits)
    proof = proven(puzzle, engine=ask["engine"], time_limit=ask["time_limit"])
    found = proof.answer
    record = records.uniqueness(ask["name"], ask["index"], puzzle, found) | records.why(proof.reason)
    if ask.get("draw"):
        record["svg"] = drawing(puzzle, found.solutions, found.differences())
        record["solution_texts"] = [picture(puzzle, s) for s in found.solutions]
    return record


def count(ask: dict, limits: Limits) -> dict:
    """`cpflow count --format json`'s record."""
    from cpflow.workflows.unique import count as count_with

    puzzle = _puzzle(ask, limits)
    found = count_with(puzzle, ask["limit"], ask["engine"], time_limit=ask["time_limit"])
    return records.counted(ask["name"], ask["index"], found)


def generate(ask: dict, limits: Limits) -> dict:
    """A puzzle proven unique, as text and as a board, with its solution (and the seed that makes it again)."""
    from cpflow.workflows.generate.order import BadOption, Order
    from cpflow.workflows.generate.pack import generate_many

    try:
        order = Order.parse(
            ask["size"],
            ask.get("colours"),
            shape=ask["shape"],
            holes=ask["holes"],
            walls=ask["walls"],
            warps=ask["warps"],
            bridges=ask["bridges"],
            touch_proof=ask["touch_proof"],
            time_limit=ask["time_limit"],
            grade=ask["grade"],
            caps=limits.size_problem,
        )
    except BadOption as error:
        raise PuzzleFormatError.whole(error.field, str(error)) from None
    seed = ask["seed"] if ask.get("seed") is not None else random.randrange(2**31)
    made = next(generate_many(order, 1, seed))
    answer = records.generated(made.puzzle, made.solution, seed, made.seconds)
    answer |= {"board": board(made.puzzle), "text": picture(made.puzzle)}
    if ask.get("draw"):
        answer["svg"] = drawing(made.puzzle, [])
    return answer


def render(ask: dict, limits: Limits) -> dict:
    """The puzzle drawn (with the given solutions side by side) as SVG text or PNG bytes."""
    puzzle = _puzzle(ask, limits)
    solutions = [parse_solution(puzzle, text, f"solution {i}") for i, text in enumerate(ask["solutions"], 1)]
    differences = differ(solutions[0], solutions[1]) if len(solutions) > 1 else []
    if ask["picture"] == "png":
        return {"media": "image/png", "body": drawing(puzzle, solutions, differences, "png", ask["labels"])}
    return {"media": "image/svg+xml", "body": drawing(puzzle, solutions, differences, "svg", ask["labels"])}


def hint(ask: dict, limits: Limits) -> dict:
    """`cpflow hint --format json`'s record for the puzzle and its play; with `all`, every hint
    to the end (`hints`) and the summary (`summary`)."""
    from cpflow.workflows.hints import chain, grade

    puzzle = _puzzle(ask, limits)
    if ask.get("play"):
        puzzle = replace(
            puzzle,
            drawn=parse_play(
                puzzle, decode(ask["play"].encode("utf-8", "surrogatepass"), "play"), "play", painted=True
            ),
        )
    found = chain(puzzle, ask["time_limit"])
    if not ask.get("all"):
        return records.hinted(next(found))
    given = list(found)
    return {"hints": [records.hinted(h) for h in given], "summary": records.graded(grade(given))}


def verify(ask: dict, limits: Limits) -> dict:
    """A solution checked against the puzzle and its rules (`solution`, any format; none: the one the
    puzzle file carries), as `cpflow verify` checks it: `valid` and the mistakes, one line each."""
    from cpflow.board.mistakes import mistakes

    puzzle = _puzzle(ask, limits)
    if ask.get("solution") is not None:
        solution = parse_solution(puzzle, ask["solution"], "solution")
    else:
        solution = _carried(ask)
    return records.verified(ask["name"], ask["index"], puzzle, mistakes(puzzle, solution))


def fix(ask: dict, limits: Limits) -> dict:
    """`cpflow fix --format json`'s record, with the board after the edit (`board`), all within the time limit."""
    from cpflow.workflows.repair import fix as repair

    puzzle = _puzzle(ask, limits)
    found = repair(puzzle, ask["time_limit"] * 0.9)  # the whole repair; what is left: the answer, the grace
    return records.fixed(ask["name"], ask["index"], puzzle, found) | {"board": board(found.puzzle)}


def timed_out(ask: dict, limits: Limits, kind: str, seconds: float) -> dict:
    """What a solve, unique or count answers when its job was stopped after its time limit: unknown."""
    from cpflow.results import SolveResult, Status
    from cpflow.workflows.unique import Count, Uniqueness, Verdict

    puzzle = _puzzle(ask, limits)
    name, index = ask["name"], ask["index"]
    if kind == "unique":
        return records.uniqueness(name, index, puzzle, Uniqueness(Verdict.UNKNOWN, (), seconds))
    if kind == "count":
        return records.counted(name, index, Count((), False, seconds))
    return records.solved(name, index, puzzle, SolveResult(Status.UNKNOWN, None, seconds, 0.0, ask["engine"]))


def warm_up() -> None:
    """Import the solver and solve a tiny board, so that a worker's first request is not slow."""
    from cpflow.engines.catalog import warm
    from cpflow.engines.pipeline import solve as solve_with

    warm()
    solve_with(Puzzle.build(2, 2, {"R": ((0, 0), (1, 0)), "B": ((0, 1), (1, 1))}), time_limit=5)


def board(puzzle: Puzzle) -> dict:
    """The board as the page's editor holds it: size, shape, endpoints, holes, bridges, walls, warps, colours."""
    from cpflow.pictures.palette import colours, hex_code

    cells = lambda pairs: [[list(a), list(b)] for a, b in pairs]  # noqa: E731
    return {
        "width": puzzle.width,
        "height": puzzle.height,
        "shape": puzzle.shape,
        "endpoints": {colour: [list(node) for node in pair] for colour, pair in puzzle.endpoints.items()},
        "holes": [list(cell) for cell in puzzle.holes()],
        "bridges": [list(cell) for cell in puzzle.bridges()],
        "walls": cells(puzzle.walls()),
        "warps": cells(puzzle.warps()),
        "colours": {colour: hex_code(rgb) for colour, rgb in colours(puzzle).items()},
    }


def drawing(puzzle: Puzzle, solutions, highlight=(), kind: str = "svg", labels: bool = False) -> str | bytes:
    """The board drawn as `cpflow render` draws it: the solutions side by side, `highlight` outlined."""
    from cpflow.pictures.files import scale_for, still

    drawn = still(puzzle, solutions, highlight, labels)
    if kind == "png":
        from cpflow.pictures.raster import png

        return png(drawn, scale_for(drawn))
    from cpflow.pictures.svg import svg

    return svg(drawn, scale_for(drawn))


def _puzzle(ask: dict, limits: Limits) -> Puzzle:
    """The request's puzzle (the `index`-th of its text), under the server's caps, with its rules."""
    source, index = ask["name"], ask["index"]
    # Checked as the CLI checks a file's bytes (control characters, lone surrogates), for the same messages.
    text = decode(ask["puzzle"].encode("utf-8", "surrogatepass"), source)
    puzzle, _ = numbered(parse_with_solutions(text, source, ask["input_format"]), index, source)
    if problem := limits.size_problem(puzzle.width, puzzle.height):
        raise OverLimit(f"{source}: {problem}")
    rules = Rules(touch=ask.get("allow_touch", False), blanks=ask.get("allow_blanks", False))
    return replace(puzzle, rules=rules)


def _carried(ask: dict):
    """The solution the request's puzzle file carries (level lines, JSON paths); bad input if none."""
    source = ask["name"]
    _, carried = numbered(parse_with_solutions(ask["puzzle"], source, ask["input_format"]), ask["index"], source)
    if carried is None:
        raise PuzzleFormatError.whole(source, "carries no solution: give a solution to check")
    return carried


def run(work, ask: dict, limits: Limits) -> tuple[str, object]:
    """One task, `work(ask, limits)`, as the worker sends it back: ("ok", answer) or ("failed", Failure)."""
    try:
        return "ok", work(ask, limits)
    except Exception as error:  # a worker answers every request, whatever went wrong
        return "failed", failure(error)

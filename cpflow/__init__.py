"""cpflow: a Flow Free / Numberlink solver built on OR-Tools CP-SAT, for every kind of board.

Parts (faces -> workflows -> engines -> deduce -> board and the ground floor)
- errors: every error kind, each with its exit code, HTTP status and one line
- clock: deadlines (a time limit that model building keeps; called off by an event)
- results: the one result type every engine returns (Status, SolveResult)
- outputs: every file written whole or not at all, a group together, never over an input
- board/: the vocabulary, no solver and no printing
  - grid: the puzzle as a graph (Puzzle, Solution, Node, Cell; shapes, holes, walls,
    warps, bridge lanes)
  - paths: walking a graph (reading paths from steps; reachability)
  - formats: every format, detected; grids (classic, zero, header), levelpack (the
    game's level lines), native (cpflow's board text), graphjson (JSON graphs)
  - verify: the rules, checked independently of every engine
  - mistakes: what is wrong with a drawn board, one line a mistake naming its cell (verify's verdict, said)
  - geometry: where cells stand in a drawing (square and hexagonal)
- deduce/: the rules every solution obeys (rulebook: their names, flags and sentences, one
  row each; rules: the partial solution and its moves; settle; turns: the dead turns), the
  short search (search, compiled: its C core), where the rules refute a puzzle (refuted),
  the player's next step (steps; whatifs: the
  assumptions that meet a contradiction, the shortest chain; replay: a chain replayed link by
  link, true as written; sentences)
- engines/: catalog (the entries, with named fields; the Backend protocol), pipeline (the
  one place the front end runs and answers are verified), base (building under a deadline),
  memory (the memory guard), front (forced moves first), race, prune,
  cpsat (label and circuit formulations; cp_model: OR-Tools' module without pandas;
  cpsat_solver: running CP-SAT on a built model), ilp, mip (running CBC and HiGHS under a
  deadline), cnf and sat (the SAT engines), complete (the search engine: the front end's search to its
  end, no solver library; the browser's), children (child processes and scratch folders
  that never outlive a request), closest, why (relaxed: the model of requirements that cannot hold;
  relaxed_label: the same in the label formulation, the whole board at any size; relaxed_cnf: as
  clauses in one incremental SAT solver, its proofs first while a large core shrinks; relaxed_open: on an
  open window, proofs for the whole board; routing: its witnesses drawn without a solver, paths
  routed one colour at a time; repair: a solution kept outside a window, the inside solved again)
- workflows/: unique (proofs and counts), generate/ (puzzles proven unique: order, carve,
  cover, prove, pack), compare, batch (here or on a process pool), items (where a batch
  runs, an item's failure), cluster (batches on Dask: the `dask` extra, imported only with
  --cluster), inputs, streams, records (the JSON records
  of answers), unsolvable (a solve or a proof with why, when unsolvable: worked out before
  anything is printed), hints (hints checked against a solution), repair (fix: one proven
  edit that leaves one solution), shots (screenshots as input, told by their first bytes)
- pictures/: palette (colours), scene (a board as shapes), svg, raster (PNG, GIF), files
  (pictures to files), terminal (the board in colour in a terminal)
- vision/: screenshot import with OpenCV (the `vision` extra, imported only by `cpflow
  import`): dimensions (a picture's size from its header, checked before decoding), screenshot
  (read_screenshot), ridges (thin lines and their pixels), board (grid lines: the lattice), hexes
  (hexagonal boards), sides (what stands on each
  side of a cell: walls, warps), dots, lab (CIE Lab as OpenCV has it, without its tables), fits (numpy's
  medians, distances and line fits without the imports they make), holes,
  bridges, colours (pairing dots), confidence (how sure each cell's reading was), highlight (the
  finger's highlight), pipes (the play drawn so far), debug (intermediate images), synthetic
  (screenshots made to order)
- cli/: the `cpflow` command: group (the app, errors to exit codes), options, reading,
  writers (one per output format; they print what they are given and compute nothing), lines
  (a line printed, names escaped), progress; a
  module per family of commands: batch (solve, unique, count), play (hint), checks
  (verify, render), engines (compare, export, engines), make (generate), screenshot
  (import), serve
- web/: `cpflow serve`'s face (the `web` extra, imported only by `serve`): limits (caps),
  tasks (the work of one request, in a worker), jobs (worker processes, bounded queue,
  cancelling), hosts (the Host: a server answers), guards (against hostile pages and clients),
  bodies (the memory request bodies may hold), deadlines (connections and their time), app
  (FastAPI routes), assets (the page's files and config), sketches (the page's board written and laid
  out), server (uvicorn), browser (the site's Python, under Pyodide), site (`cpflow site` writes the
  static site), page/ (HTML, CSS, ES modules), site/ (the site's loader, worker, service worker, manifest)
- __main__: `python -m cpflow`
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cpflow.board.formats import load, parse, parse_solution, picture
    from cpflow.board.grid import Cell, Colour, Puzzle, Solution
    from cpflow.board.verify import is_solution, violations
    from cpflow.errors import CpflowError, EngineUnavailable, GenerationFailed, InvalidSolution, PuzzleFormatError
    from cpflow.results import SolveResult, Status

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)

# The API, each name from its module, imported when first asked for: `cpflow --version` and the
# command line's other paths import only what they use (start-up time).
_API = {
    "cpflow.board.formats": ("load", "parse", "parse_solution", "picture"),
    "cpflow.board.grid": ("Cell", "Colour", "Puzzle", "Solution"),
    "cpflow.board.verify": ("is_solution", "violations"),
    "cpflow.errors": ("CpflowError", "EngineUnavailable", "GenerationFailed", "InvalidSolution", "PuzzleFormatError"),
    "cpflow.results": ("SolveResult", "Status"),
}
_MODULE_OF = {name: module for module, names in _API.items() for name in names}


def __getattr__(name: str):
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULE_OF[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])


__all__ = [
    "Cell",
    "Colour",
    "CpflowError",
    "EngineUnavailable",
    "GenerationFailed",
    "InvalidSolution",
    "Puzzle",
    "PuzzleFormatError",
    "Solution",
    "SolveResult",
    "Status",
    "is_solution",
    "load",
    "parse",
    "parse_solution",
    "picture",
    "violations",
    "solve",
]


def solve(puzzle: Puzzle, engine: str = "cpsat", **options) -> SolveResult:
    """Solve a puzzle with the named engine; the solution has passed the verifier."""
    from cpflow.engines.pipeline import solve as run

    return run(puzzle, engine, **options)

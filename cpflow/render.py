"""Showing puzzles and solutions: a coloured terminal picture (rich), plain text, JSON."""

from __future__ import annotations

import csv
import json
import pathlib
from collections.abc import Collection, Sequence
from itertools import pairwise

from rich.table import Table
from rich.text import Text

from cpflow.compare import FIELDS, Run, summary
from cpflow.formats import picture, rows
from cpflow.grid import Cell, Colour, Puzzle, Solution
from cpflow.result import SolveResult, Status
from cpflow.unique import Uniqueness

# The classic letters carry the game's usual colours; other names take the spare ones in turn.
PALETTE = {
    "R": "red",
    "B": "blue",
    "Y": "yellow",
    "G": "green",
    "O": "dark_orange",
    "C": "cyan",
    "M": "magenta",
    "m": "dark_red",
    "P": "purple",
    "A": "grey50",
    "W": "white",
    "g": "bright_green",
    "T": "tan",
    "b": "dark_blue",
    "c": "dark_cyan",
    "p": "pink1",
}
SPARE = [
    "bright_red",
    "bright_blue",
    "gold1",
    "spring_green2",
    "orange1",
    "turquoise2",
    "orchid",
    "indian_red",
    "medium_purple",
    "light_slate_grey",
    "khaki1",
    "chartreuse2",
]
# Pipe glyph for the set of directions (row step, col step) a cell connects to.
PIPES = {
    frozenset({(-1, 0), (1, 0)}): "│",
    frozenset({(0, -1), (0, 1)}): "─",
    frozenset({(1, 0), (0, 1)}): "┌",
    frozenset({(1, 0), (0, -1)}): "┐",
    frozenset({(-1, 0), (0, 1)}): "└",
    frozenset({(-1, 0), (0, -1)}): "┘",
}


def styles(puzzle: Puzzle) -> dict[Colour, str]:
    """A rich style per colour: the palette's for classic letters, spare ones for the rest."""
    spare = iter(SPARE * (len(puzzle.colours) // len(SPARE) + 1))
    return {c: f"bold {PALETTE[c]}" if c in PALETTE else f"bold {next(spare)}" for c in puzzle.colours}


def terminal(puzzle: Puzzle, solution: Solution | None = None, highlight: Collection[Cell] = ()) -> Text:
    """The board drawn with box-drawing pipes in colour; endpoints are dots; `highlight`ed cells in reverse."""
    style = styles(puzzle)
    links = _links(solution)
    colour_of = solution.colour_of() if solution else {}
    endpoint = puzzle.endpoint_colour()
    colour_of.update(endpoint)
    text = Text()
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            cell, colour = (r, c), colour_of.get((r, c))
            glyph = "●" if cell in endpoint else PIPES.get(frozenset(links.get(cell, ())), "·")
            right = "─" if (0, 1) in links.get(cell, ()) else " "
            look = style.get(colour, "dim") + (" reverse" if cell in highlight else "")
            text.append(glyph + right, style=look)
        text.append("\n")
    return text


def _links(solution: Solution | None) -> dict[Cell, set[tuple[int, int]]]:
    """For each cell on a path, the directions to its neighbours on that path."""
    links: dict[Cell, set[tuple[int, int]]] = {}
    for path in solution.paths.values() if solution else ():
        for (r1, c1), (r2, c2) in pairwise(path):
            links.setdefault((r1, c1), set()).add((r2 - r1, c2 - c1))
            links.setdefault((r2, c2), set()).add((r1 - r2, c1 - c2))
    return links


def differences_grid(puzzle: Puzzle, cells: Collection[Cell]) -> list[str]:
    """Rows with `*` where two solutions differ and `.` elsewhere."""
    return ["".join("*" if (r, c) in cells else "." for c in range(puzzle.width)) for r in range(puzzle.height)]


def uniqueness_json(source: str, index: int, puzzle: Puzzle, found: Uniqueness) -> dict:
    """The JSON record of a uniqueness check: verdict, time, every solution found, where they differ."""
    return {
        "file": source,
        "index": index,
        "width": puzzle.width,
        "height": puzzle.height,
        "verdict": found.verdict.value,
        "seconds": round(found.seconds, 6),
        "solutions": [_solution_json(puzzle, solution) for solution in found.solutions],
        "differences": [list(cell) for cell in found.differences()],
    }


def _solution_json(puzzle: Puzzle, solution: Solution) -> dict:
    return {
        "paths": {colour: [list(cell) for cell in path] for colour, path in solution.paths.items()},
        "grid": rows(puzzle, solution),
    }


def as_json(source: str, index: int, puzzle: Puzzle, result: SolveResult) -> dict:
    """The JSON record of one solve: where from, size, status, time, paths and grid."""
    return {
        "file": source,
        "index": index,
        "width": puzzle.width,
        "height": puzzle.height,
        "status": result.status.value,
        "seconds": round(result.seconds, 6),
        **(_solution_json(puzzle, result.solution) if result.solution else {"paths": {}, "grid": rows(puzzle)}),
    }


def as_stream(puzzle: Puzzle, result: SolveResult) -> str:
    """One puzzle's answer as the Go solver of thomasahle/numberlink writes it: `W H` and the
    solved rows, or `IMPOSSIBLE` (`UNKNOWN` when the time limit came first)."""
    if result.solution:
        return picture(puzzle, result.solution, "header")
    return "IMPOSSIBLE\n" if result.status is Status.UNSOLVABLE else "UNKNOWN\n"


def compare_table(runs: Sequence[Run], names: Sequence[str]) -> Table:
    """Puzzles down, contenders across: median seconds and the ratio to the puzzle's fastest; totals below."""
    table = Table(title="seconds per puzzle (build + solve; x: times the fastest)", show_footer=True)
    totals = summary(runs, names)
    footer = ["total\n  building\n  solving\nmedian\nworst", "", ""]
    for name in names:
        t = totals[name]
        split = f"{t['build']:.3f}\n{t['total'] - t['build']:.3f}"
        footer.append(f"{t['total']:.3f}\n{split}\n{t['median']:.3f}\n{t['worst']:.3f} ({t['worst_puzzle']})")
    for title, foot in zip(["puzzle", "size", "colours", *names, "status"], [*footer, ""], strict=True):
        table.add_column(title, footer=foot, justify="left" if title in ("puzzle", "status") else "right")
    for mine in _by_puzzle(runs).values():
        fastest = min(run.seconds for run in mine)
        first = mine[0]
        cells = [f"{run.seconds:.3f} x{run.seconds / fastest if fastest else 1:.1f}" for run in mine]
        cells = [c if run.correct else f"[red]{c} {run.status}[/]" for c, run in zip(cells, mine, strict=True)]
        statuses = {run.status for run in mine}
        status = statuses.pop() if len(statuses) == 1 else "disagree: " + ", ".join(r.status for r in mine)
        table.add_row(first.puzzle, f"{first.width}x{first.height}", str(first.colours), *cells, status)
    return table


def _by_puzzle(runs: Sequence[Run]) -> dict[tuple[str, int], list[Run]]:
    grouped: dict[tuple[str, int], list[Run]] = {}
    for run in runs:
        grouped.setdefault((run.file, run.index), []).append(run)
    return grouped


def write_csv(runs: Sequence[Run], path: pathlib.Path) -> None:
    """The raw runs, one row per (puzzle, contender), with a header row."""
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(run.row() for run in runs)


def write_json(runs: Sequence[Run], path: pathlib.Path) -> None:
    """The raw runs as a JSON list of records, one per (puzzle, contender)."""
    path.write_text(json.dumps([run.row() for run in runs], indent=1) + "\n")

"""The board as the page's editor holds it (a sketch: its endpoints perhaps unpaired yet), written as a
puzzle file by the board's own writer, and laid out by the board's own geometry, so that the page
copies neither.

`/api/board` answers at once, in the server's process (no solver is involved; in the browser, the
site's Python answers it: no web framework is imported here): `text` (what the page
keeps in its address and sends to the other routes), and with `geometry`, where each cell is drawn
(`centre` and `outline`, in cell units), which cells touch it (`neighbours`, by the board's shape,
whatever walls or holes stand there) and the drawing's `extent`. Cells are `[row, col]` from 0, listed
row by row.
"""

from __future__ import annotations

from cpflow.board.formats import sketch_text
from cpflow.board.geometry import centre, extent, outline
from cpflow.board.grid import Cell, cell_name, lattice
from cpflow.board.native import BRIDGE, HOLE, MARKS, Written
from cpflow.errors import OverLimit, PuzzleFormatError
from cpflow.web.limits import Limits


def sketch(ask: dict, limits: Limits) -> dict:
    """The board's text (and its geometry, if asked); `ask` as `/api/board` takes it (app.SketchAsk)."""
    if problem := limits.size_problem(ask["width"], ask["height"]):
        raise OverLimit(f"board: {problem}")
    answer: dict = {"text": sketch_text(written(ask))}
    if ask.get("geometry"):
        answer["geometry"] = geometry(ask.get("shape", "square"), ask["width"], ask["height"])
    return answer


def written(ask: dict) -> Written:
    """The board as the board's writer takes it: the mark in each cell, its walls and warps."""
    on = _on(ask["width"], ask["height"])
    marks: dict[Cell, str] = {}
    for mark, cells in [(HOLE, ask.get("holes", [])), (BRIDGE, ask.get("bridges", []))]:
        marks |= dict.fromkeys(map(on, cells), mark)
    for colour, cells in ask.get("endpoints", {}).items():
        marks |= dict.fromkeys(map(on, cells), _mark(colour))
    for r, c, colour in ask.get("drawn", []):
        marks[on((r, c))] = _mark(colour)
    pairs = {kind: [(on(a), on(b)) for a, b in ask.get(kind, [])] for kind in ("walls", "warps")}
    return Written(ask["width"], ask["height"], ask.get("shape", "square"), marks, pairs)


def geometry(shape: str, width: int, height: int) -> dict:
    """Where each cell of the board is drawn and which cells touch it, row by row."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    return {
        "extent": _rounded(extent(shape, width, height)),
        "cells": [
            {
                "centre": _rounded(centre(shape, cell)),
                "outline": [_rounded(point) for point in outline(shape, cell)],
                "neighbours": lattice(shape, width, height, cell),
            }
            for cell in cells
        ],
    }


def _on(width: int, height: int):
    def on(cell: Cell) -> Cell:
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise PuzzleFormatError.whole("board", f"{cell_name(cell)} is off the {width}x{height} board")
        return tuple(cell)  # type: ignore[return-value]

    return on


def _mark(colour: str) -> str:
    if len(colour) != 1 or not colour.isprintable() or colour.isspace() or colour in MARKS:
        raise PuzzleFormatError.whole("board", f"colour {colour!r}: the page names colours by one character")
    return colour


def _rounded(point: tuple[float, float]) -> list[float]:
    return [round(point[0], 4), round(point[1], 4)]

"""The board as the page's editor holds it (a sketch: its endpoints perhaps unpaired yet), written as a
puzzle file by the board's own writer, and laid out by the board's own geometry, so that the page
copies neither.

`/api/board` answers at once, in the server's process (no solver is involved): `text` (what the page
keeps in its address and sends to the other routes), and with `geometry`, where each cell is drawn
(`centre` and `outline`, in cell units), which cells touch it (`neighbours`, by the board's shape,
whatever walls or holes stand there) and the drawing's `extent`. Cells are `[row, col]` from 0, listed
row by row.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from cpflow.board.formats import sketch_text
from cpflow.board.geometry import centre, extent, outline
from cpflow.board.grid import Cell, cell_name, lattice
from cpflow.board.native import BRIDGE, HOLE, MARKS, Written
from cpflow.errors import OverLimit, PuzzleFormatError
from cpflow.web.limits import Limits

Pair = tuple[Cell, Cell]


class SketchAsk(BaseModel):
    """A board as the page's editor holds it: the record `/api/read` answers, less its colours."""

    width: int = Field(ge=1, le=10_000)
    height: int = Field(ge=1, le=10_000)
    shape: Literal["square", "hex"] = "square"
    endpoints: dict[str, list[Cell]] = Field({}, description="Each colour's endpoints: one or two cells.")
    holes: list[Cell] = []
    bridges: list[Cell] = []
    walls: list[Pair] = []
    warps: list[Pair] = []
    drawn: list[tuple[int, int, str]] = Field(
        [], description="A play's drawn cells, `[row, col, colour]`: written in their colour, as `hint --play` reads."
    )
    geometry: bool = Field(False, description="Also answer `geometry`: where each cell is drawn, which touch.")

    model_config = {"json_schema_extra": {"examples": [{"width": 3, "height": 2, "endpoints": {"R": [[0, 0]]}}]}}


def sketch(ask: SketchAsk, limits: Limits) -> dict:
    """The board's text (and its geometry, if asked)."""
    if problem := limits.size_problem(ask.width, ask.height):
        raise OverLimit(f"board: {problem}")
    answer: dict = {"text": sketch_text(written(ask))}
    if ask.geometry:
        answer["geometry"] = geometry(ask.shape, ask.width, ask.height)
    return answer


def written(ask: SketchAsk) -> Written:
    """The board as the board's writer takes it: the mark in each cell, its walls and warps."""
    marks: dict[Cell, str] = {}
    for mark, cells in [(HOLE, ask.holes), (BRIDGE, ask.bridges)]:
        marks |= dict.fromkeys(map(_on(ask), cells), mark)
    for colour, cells in ask.endpoints.items():
        marks |= dict.fromkeys(map(_on(ask), cells), _mark(colour))
    for r, c, colour in ask.drawn:
        marks[_on(ask)((r, c))] = _mark(colour)
    pairs = {"walls": [_pair(ask, pair) for pair in ask.walls], "warps": [_pair(ask, pair) for pair in ask.warps]}
    return Written(ask.width, ask.height, ask.shape, marks, pairs)


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


def _on(ask: SketchAsk):
    def on(cell: Cell) -> Cell:
        if not (0 <= cell[0] < ask.height and 0 <= cell[1] < ask.width):
            raise PuzzleFormatError.whole("board", f"{cell_name(cell)} is off the {ask.width}x{ask.height} board")
        return tuple(cell)  # type: ignore[return-value]

    return on


def _pair(ask: SketchAsk, pair: Pair) -> Pair:
    on = _on(ask)
    return on(pair[0]), on(pair[1])


def _mark(colour: str) -> str:
    if len(colour) != 1 or not colour.isprintable() or colour.isspace() or colour in MARKS:
        raise PuzzleFormatError.whole("board", f"colour {colour!r}: the page names colours by one character")
    return colour


def _rounded(point: tuple[float, float]) -> list[float]:
    return [round(point[0], 4), round(point[1], 4)]

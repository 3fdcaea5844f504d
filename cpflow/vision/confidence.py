"""How sure the reading of each cell was, and the refusal of a reading that was not sure enough.

Every decision the reading makes about a cell is a measure held to a threshold: a dot or none (the
ring's contrast with the corners, its share of one colour; cpflow.vision.dots), bare page or not
(cpflow.vision.holes), which dot a dot pairs with (its colour's distance to its pair, against APART
and against the next closest dot), a wall or none on a side read as a tint, a warp's mark or none on
an edge cell's outer side (cpflow.vision.sides). A cell's margin (0 to 1) says how far the narrowest of its
decisions stood from its threshold, and its confidence is the least of its margins. A reading with
a cell below SURE is refused in one line naming those cells, rather than guessed.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from cpflow.board.grid import Cell, cell_name
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.colours import APART
from cpflow.vision.dots import Dot, margin

SURE = 0.05  # confidence, at least, of every cell of a reading written (bench/vision_real.py shows the gap it sits in)
CLEAR = 10.0  # Lab distance by which a dot's pair must be closer than any other dot, for a margin of 1
NAMED = 6  # unsure cells named in a refusal, at most (then how many more)


def pairing(pairs: Iterable[tuple[Dot, Dot]], dots: Iterable[Dot]) -> dict[Cell, float]:
    """Each paired dot's margin: how far its pair's colour was within APART, and how much closer it was
    than the next closest of `dots` (the pairing takes the closest two first). Each dot's distances to
    all the others at once: a board of a thousand pairs is as quick as one of ten."""
    everyone = list(dots)
    at: dict[Cell, list[int]] = {}
    for i, dot in enumerate(everyone):
        at.setdefault(dot.cell, []).append(i)
    colours = np.array([dot.lab for dot in everyone], dtype=float).reshape(-1, 3)
    margins = {}
    for a, b in pairs:
        apart = _distance(a, b)
        for dot, other in ((a, b), (b, a)):
            rival = np.ones(len(everyone), dtype=bool)
            rival[at.get(dot.cell, []) + at.get(other.cell, [])] = False
            distances = np.linalg.norm(colours[rival] - np.asarray(dot.lab, dtype=float), axis=1)
            nearest = float(distances.min()) if distances.size else apart + CLEAR
            clear = max(0.0, nearest - apart) / CLEAR
            margins[dot.cell] = min(margin(apart, APART, APART), 1.0, clear)
    return margins


def confidence(*margins: dict[Cell, float]) -> dict[Cell, float]:
    """Each cell's confidence: the least of its margins, among every decision read about it."""
    cells: dict[Cell, float] = {}
    for found in margins:
        for cell, sure in found.items():
            cells[cell] = min(cells.get(cell, 1.0), sure)
    return {cell: round(sure, 3) for cell, sure in sorted(cells.items())}


def check(sure: dict[Cell, float]) -> None:
    """ScreenshotUnreadable naming the cells below SURE, least sure first; nothing when there are none."""
    unsure = sorted((value, cell) for cell, value in sure.items() if value < SURE)
    if not unsure:
        return
    names = ", ".join(f"{cell_name(cell)} ({value:.2f})" for value, cell in unsure[:NAMED])
    more = f" and {len(unsure) - NAMED} more" if len(unsure) > NAMED else ""
    raise ScreenshotUnreadable(f"unsure of the cells {names}{more}: confidence below {SURE}, not guessed")


def _distance(a: Dot, b: Dot) -> float:
    return float(np.linalg.norm(np.subtract(a.lab, b.lab)))

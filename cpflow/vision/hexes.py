"""Telling a hexagonal board: its cells' flat tops and bottoms, in columns half a cell apart in height.

The game's hexagonal boards have flat-topped cells, so their grid has no vertical lines
and its horizontal lines are short: each cell's top and bottom, a side of the hexagon
long (R), centred on the cell's column (in the line mask a little longer: the slanted
sides begin at its ends). Columns stand d = 1.5 R apart and each is half a cell
(h / 2 = √3 R / 2 = d / √3) lower or higher than the next. A square board's horizontal
lines, broken by the pipes crossing them, can make pieces of one length a cell apart,
but never d / √3 apart in height from the pieces of the next column. So a picture shows
a hexagonal board when most pieces of its horizontal line mask of one length have a
piece of the next column just there (four in five on a hexagonal board, three in ten at
most on the square boards of the synthetic sets), and few of them are crossed in the
middle by a vertical line (a square board's pieces are: a grid line runs down there).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from cpflow.board.grid import Cell, lattice
from cpflow.vision.board import Lattice
from cpflow.vision.fits import lengths, median

SHORTEST = 12  # pixels: a side of a hexagon at least (a cell of 20 pixels or more)
SAME = 0.15  # share of their length: pieces this close in length are one side's
APART = 0.12  # of the columns' distance: how far a neighbour may stand from where it should
FEWEST = 8  # pieces with a neighbour in the next column, at least
FEWEST_CELLS = 3  # columns and rows of a board, at least
OPENED = 9  # pixels: a horizontal run at least this long is kept when the slanted sides are opened away
SHARE = 0.5  # and this share of the pieces of their length, at least (a square board's: 0.3 at most)
CROSSED = 0.2  # of the pieces, at most, that a vertical line crosses in the middle
# A flat side hidden under a pipe, of a cell from the side's middle: the band read up and down into the
# cells (BAND_REACH), and beside it, past the pipe's third of a cell, near the side's ends (BESIDE, ASIDE).
BAND_REACH, BESIDE, ASIDE = 0.2, 0.22, 0.12
BAND = 25.0  # BGR distance within which the band's points are one colour
OFF = 40.0  # BGR distance, at least, of the points beside it from the band
OUTLIER = 0.06  # of a cell: a piece farther off the first fit of the lattice is left out of the second


@dataclass(frozen=True)
class HexLattice:
    """A hexagonal board's cells in the working image: flat-topped, `step` pixels tall (centre to
    centre up and down), columns 0.866 `step` apart, even columns half a cell lower than odd
    ones (the game's layout, cpflow.board.geometry). `x0`: column 0's centre; `y0`: the top of an
    odd column's first cell."""

    x0: float
    y0: float
    step: float
    width: int
    height: int
    shape = "hex"

    def centre(self, row: int, col: int) -> tuple[float, float]:
        lower = self.step / 2 if col % 2 == 0 else 0.0
        return self.x0 + col * ACROSS * self.step, self.y0 + lower + (row + 0.5) * self.step

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def neighbours(self, cell: Cell) -> list[Cell]:
        return lattice("hex", self.width, self.height, cell)

    def outline(self, row: int, col: int) -> list[tuple[float, float]]:
        """The cell's six corners (x, y), clockwise from the right."""
        x, y = self.centre(row, col)
        radius = self.step / np.sqrt(3)
        return [(x + radius * np.cos(a), y + radius * np.sin(a)) for a in np.radians(np.arange(0, 360, 60))]

    def bounds(self) -> tuple[float, float, float, float]:
        """The board's box: left, top, right, bottom."""
        radius = self.step / np.sqrt(3)
        right = self.x0 + (self.width - 1) * ACROSS * self.step + radius
        return self.x0 - radius, self.y0, right, self.y0 + (self.height + 0.5) * self.step

    def trimmed(self, top: int, bottom: int, left: int, right: int) -> HexLattice:
        """The lattice less that many rows and columns at its edges (columns on the left in pairs
        only: column 0 stays even)."""
        left -= left % 2
        x0, y0 = self.x0 + left * ACROSS * self.step, self.y0 + top * self.step
        return HexLattice(x0, y0, self.step, self.width - left - right, self.height - top - bottom)

    def moved(self, dx: float, dy: float) -> HexLattice:
        """The lattice shifted by (dx, dy) pixels (onto a picture with a margin added)."""
        return HexLattice(self.x0 + dx, self.y0 + dy, self.step, self.width, self.height)

    def beyond(self, cell: Cell, direction: tuple[float, float]) -> Cell:
        """The cell (perhaps off the lattice) a step from `cell` along `direction` (a unit vector
        toward one of its six sides)."""
        x, y = self.centre(*cell)
        col = cell[1] + round(direction[0] / ACROSS)
        lower = self.step / 2 if col % 2 == 0 else 0.0
        row = round((y + direction[1] * self.step - self.y0 - lower) / self.step - 0.5)
        return row, col


Grid = Lattice | HexLattice  # a board's cells in the picture, square or hexagonal

ACROSS = np.sqrt(3) / 2  # columns apart, in cells
SIDES = [(0.0, -1.0), (0.0, 1.0), (ACROSS, -0.5), (ACROSS, 0.5), (-ACROSS, -0.5), (-ACROSS, 0.5)]  # unit vectors


def find_hex_lattice(vertical: np.ndarray, horizontal: np.ndarray, image: np.ndarray) -> HexLattice | None:
    """The hexagonal board's cells, from the flat pieces of its horizontal lines (each a cell's top
    or bottom, the border's included), or None when the masks show no hexagonal grid.

    Each piece stands a whole number of columns (d apart) from the others and a whole number of
    half cells (h / 2) above or below them, an odd number of half cells from the pieces of the
    next column. The board is the largest group of pieces joined that way, a cell apart in one
    column or half a cell apart in the next (the text and buttons round it are not), through
    the sides a pipe hides too (`image`, the picture: on a solved board whole rows of flat sides
    lie under the pipes that run down the board, see `_hidden`).
    """
    found = _pieces(vertical, horizontal)
    if found is None:
        return None
    flat, across = found
    step = across / ACROSS
    half = step / 2
    anchor = np.array([_phase(flat[:, 0], across), _phase(flat[:, 1], half)])  # where most pieces agree
    column = np.round((flat[:, 0] - anchor[0]) / across).astype(int)
    level = np.round((flat[:, 1] - anchor[1]) / half).astype(int)
    fits = (np.abs(flat[:, 0] - anchor[0] - column * across) <= APART * across) & (
        np.abs(flat[:, 1] - anchor[1] - level * half) <= APART * step
    )
    odd = (column + level) % 2
    fits &= odd == round(float(median(odd[fits]))) if fits.any() else fits  # the next column's: half cells off
    if fits.sum() < FEWEST:
        return None
    left, top_, step = _fitted(column[fits], level[fits], flat[fits])
    across, half = ACROSS * step, step / 2
    anchor = np.array([left, top_])
    seen = {(int(c), int(q)) for c, q in zip(column[fits], level[fits], strict=True)}
    board = _joined(seen, _hidden(image, seen, (float(left), float(top_)), float(across), float(half)))
    if len(board) < FEWEST:
        return None
    columns = [c for c, _ in board]
    zero = min(columns)  # column 0: even, half a cell lower than column 1 (cpflow.board.geometry)
    tops = [q - (1 if (c - zero) % 2 == 0 else 0) for c, q in board]
    top, width, height = min(tops), max(columns) - zero + 1, (max(tops) - min(tops)) // 2
    if width < FEWEST_CELLS or height < FEWEST_CELLS:
        return None
    return HexLattice(
        float(anchor[0] + zero * ACROSS * step), float(anchor[1] + top * half), float(step), width, height
    )


def _fitted(columns: np.ndarray, levels: np.ndarray, centres: np.ndarray) -> tuple[float, float, float]:
    """Column 0's x, level 0's y and the step, from a fit across and one down: the step their two
    estimates' mean, each weighed by the square of the span it was fitted over (a slope's precision:
    on a narrow board the few columns' weigh less than the many rows'); then again without the pieces
    the first fit leaves more than OUTLIER off (a bar's edge, a wall's)."""
    keep = np.ones(len(columns), dtype=bool)
    for _ in range(2):
        across, left = np.polyfit(columns[keep], centres[keep, 0], 1)
        half, top = np.polyfit(levels[keep], centres[keep, 1], 1)
        spans = np.ptp(centres[keep], axis=0) ** 2
        step = float(np.average([across / ACROSS, 2 * half], weights=spans))
        fit = np.stack([left + columns * across, top + levels * half], axis=1)
        keep = np.abs(centres - fit).max(axis=1) <= OUTLIER * step
        if keep.sum() < FEWEST or np.ptp(columns[keep]) < 1 or np.ptp(levels[keep]) < 1:
            break
    return float(left), float(top), step


def _near(piece: tuple[int, int]) -> list[tuple[int, int]]:
    """The places of the pieces joined to one: a cell above and below, half a cell off either side."""
    c, q = piece
    return [(c, q - 2), (c, q + 2), (c - 1, q - 1), (c - 1, q + 1), (c + 1, q - 1), (c + 1, q + 1)]


def _phase(values: np.ndarray, period: float) -> float:
    """Where most values stand in a period: their circular mean."""
    turns = 2 * np.pi * values / period
    return float(np.angle(np.exp(1j * turns).mean()) * period / (2 * np.pi))


def _joined(pieces: set[tuple[int, int]], hidden: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The largest group of pieces (column, half cells down) joined a cell apart in one column or
    half a cell apart in the next, directly or through sides `hidden` under a pipe (which join, but
    are no pieces of the group: a pipe beyond the board makes it no larger)."""
    best: set[tuple[int, int]] = set()
    left = pieces | hidden
    while left:
        group, stack = set(), [left.pop()]
        while stack:
            piece = stack.pop()
            group.add(piece)
            for near in _near(piece):
                if near in left:
                    left.discard(near)
                    stack.append(near)
        best = max(best, group & pieces, key=len)
    return best


def _hidden(
    image: np.ndarray, pieces: set[tuple[int, int]], anchor: tuple[float, float], across: float, half: float
) -> set[tuple[int, int]]:
    """The places of flat sides (column, half cells down), among the pieces' and in step with them,
    that a pipe hides: a band of one colour runs through the side's middle into the cells above and
    below it (BAND), narrower than the side, whose ends show another colour (OFF) on either side.
    The page between a board and the text round it is one colour across: it hides nothing."""
    columns, levels = [c for c, _ in pieces], [q for _, q in pieces]
    odd = (columns[0] + levels[0]) % 2
    places = np.array(
        [
            (c, q)
            for c in range(min(columns), max(columns) + 1)
            for q in range(min(levels), max(levels) + 1)
            if (c + q) % 2 == odd and (c, q) not in pieces
        ],
        dtype=float,
    ).reshape(-1, 2)
    step = 2 * half
    xs, ys = anchor[0] + places[:, :1] * across, anchor[1] + places[:, 1:] * half
    height, width = image.shape[:2]

    def at(dx: list[float], dy: list[float]) -> np.ndarray:  # places by points by channels
        px = np.round(xs + np.array(dx) * step).astype(int).clip(0, width - 1)
        py = np.round(ys + np.array(dy) * step).astype(int).clip(0, height - 1)
        return image[py, px].astype(np.float32)

    band = at([0.0, 0.0, 0.0], [-BAND_REACH, 0.0, BAND_REACH])
    beside = at([-BESIDE, -BESIDE, BESIDE, BESIDE], [-ASIDE, ASIDE, -ASIDE, ASIDE])
    middle = band[:, 1:2]
    one = lengths(band - middle).max(axis=1) < BAND
    off = lengths(beside - middle).min(axis=1) > OFF
    return {(int(c), int(q)) for c, q in places[one & off]}


def _pieces(vertical: np.ndarray, horizontal: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The flat pieces of the horizontal line mask that fit a hexagonal grid (their centres, x and
    y) and its columns' distance apart; None when the mask shows no hexagonal grid."""
    widths, centres = _flat(horizontal)
    lengths, counts = np.unique(np.round(widths / 2) * 2, return_counts=True)
    for length in lengths[np.argsort(-counts)][:3]:  # the commonest lengths: a hexagon's side, perhaps
        pieces = centres[np.abs(widths - length) <= SAME * length]
        neighboured, across = _neighboured(pieces, float(length))
        if neighboured >= max(FEWEST, SHARE * len(pieces)) and _crossed(vertical, pieces, length) < CROSSED:
            # Every flat piece about a side long counts, the border's too, once the slanted sides that
            # join them are opened away (a thick slanted bar runs a few pixels along a row).
            side = across / 1.5
            run = max(OPENED, round(0.4 * side))
            opened = cv2.morphologyEx(horizontal, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (run, 1)))
            widths, centres = _flat(opened)
            return centres[(widths >= 0.6 * side) & (widths <= 1.6 * side)], across
    return None


def _flat(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The widths and centres (x, y) of the mask's flat pieces: at least SHORTEST wide, four times as wide as tall."""
    mask = mask.astype(np.uint8, copy=False)
    try:  # labels of 16 bits: three times as fast as 32 (the same pieces, in the same order)
        _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
    except cv2.error:  # more pieces than 16 bits number (a picture of noise)
        _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    widths, heights = stats[1:, cv2.CC_STAT_WIDTH].astype(float), stats[1:, cv2.CC_STAT_HEIGHT].astype(float)
    flat = (widths >= SHORTEST) & (heights <= np.maximum(3, widths / 4))
    return widths[flat], centres[1:][flat]


def _crossed(vertical: np.ndarray, pieces: np.ndarray, length: float) -> float:
    """The share of the pieces a vertical line crosses in the middle (a square board's grid line
    broken on either side by a pipe: a hexagon's side meets no vertical line)."""
    height, width = vertical.shape
    reach = max(3, round(length / 4))
    crossed = 0
    for x, y in pieces:
        column = slice(max(0, round(x) - 2), min(width, round(x) + 3))
        rows = slice(max(0, round(y) - reach), min(height, round(y) + reach + 1))
        crossed += int(vertical[rows, column].any(axis=1).sum() >= reach)
    return crossed / len(pieces)


def _neighboured(pieces: np.ndarray, length: float) -> tuple[int, float]:
    """How many pieces have a piece of the next column (d to the right, one d for all) d / √3 above
    or below, for the d most pieces agree on between 0.8 and 1.6 times their length; and d."""
    dx = pieces[None, :, 0] - pieces[:, None, 0]
    dy = np.abs(pieces[None, :, 1] - pieces[:, None, 1])
    slanted = (dx >= 0.8 * length) & (dx <= 1.6 * length) & (np.abs(dy - dx / np.sqrt(3)) <= APART * dx)
    if not slanted.any():
        return 0, 0.0
    across = float(median(dx[slanted]))
    beside = slanted & (np.abs(dx - across) <= APART * across)
    return int(beside.any(axis=1).sum()), across

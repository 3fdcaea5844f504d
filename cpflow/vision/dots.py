"""Finding the endpoint dots: which cells hold one, and the dot's colour.

A dot is a disc of about two thirds of its cell, so a ring of points round the cell's
centre all take its colour; a pipe through the cell (a partly played board) is a band a
third of a cell wide and covers only part of that ring, whichever way it turns. The ring
is read away from the centre, where the game's colour-blind letters sit. A dot must also
stand out from the cell's corners (the empty board, or the faint tint of a pipe's cell).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cpflow.board.grid import Cell
from cpflow.vision.fits import distance, lengths, median
from cpflow.vision.hexes import Grid
from cpflow.vision.lab import picture

RADII = (0.21, 0.25, 0.28)  # of a cell: the ring read, inside the smallest dot, outside a pipe's band
ANGLES = 24
CORNER = 0.36  # of a cell, from the centre along each axis: the board beside the dot
HEX_CORNER = 0.44  # of a cell, from the centre toward a hexagon's vertex: clear of the dot and the pipes
SAME = 16.0  # Lab distance within which a ring point has the dot's colour
COVERED = 0.85  # share of the ring's points of the dot's or the board's colour that must be the dot's
OUTSIDE = 0.62  # of a cell, from the centre toward each side: in the next cell, past the grid line
CONTRAST = 10.0  # Lab distance a dot stands from the cell's corners, at least
SMALLER = 0.8  # a disc less than this times the typical dot's radius is no dot
LARGER = 1.25  # nor one more than this times it
WIDEST = 0.42  # of a cell: a colour reaching past this from the centre in most directions is a tint, no dot
PAGE = 30.0  # Lab distance of a dot from a dark board's empty colour, at least (the game's colours are 60 off black)
FAINT = 0.75  # of the dimmest dot's distance from a dark page: a ring of one colour nearer it is sure to be no dot
DARK = 50.0  # lightness (L) of a dark board's empty colour, at most (on a light one, its grey is 23 off white)

RAYS = np.array([(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)])  # radius read along


@dataclass(frozen=True)
class Dot:
    """An endpoint dot: its cell, its colour (CIE Lab, and the image's BGR) and its radius (of a cell)."""

    cell: Cell
    lab: tuple[float, float, float]
    bgr: tuple[int, int, int]
    radius: float


def lab_image(image: np.ndarray) -> np.ndarray:
    """The picture in CIE Lab (L 0..100), where distances follow what the eye tells apart (cpflow.vision.lab:
    OpenCV's values; a process's first pictures converted pixel by pixel as read, without its tables).
    Its readers only index it and read its shape."""
    return picture(image)


def find_dots(
    image: np.ndarray, lab: np.ndarray, lattice: Grid, page: np.ndarray | None = None
) -> tuple[list[Dot], dict[Cell, float]]:
    """The dots on the board, in reading order (`lab`: the picture in Lab, see `lab_image`; `page`: the
    empty board's colour in Lab: on a dark board every dot stands out from it by PAGE at least, and the
    round end of a dim streak of the page's art, a shade off it, is no dot); and each cell's margin (0 to
    1): how far the evidence that decided dot or none (the ring's contrast with the corners, its share
    and coverage of one colour, the distance from a dark page, the disc's size) stood from the threshold
    it was held to (`margin`)."""
    found, margins = [], {}
    samples = _sampled(lab, lattice)
    for row in range(lattice.height):
        for col in range(lattice.width):
            dot, margins[row, col] = _dot_at(image, lab, lattice, row, col, samples, page)
            if dot:
                found.append(dot)
    # All of the game's dots are one size: a smaller disc is a pipe's round end, blurred. A colour
    # that fills the cell to its edges is no dot either, but a tint over an empty cell: the edge of
    # the finger's highlight (a dot reaches 0.25 to 0.40 of a cell, such a tint 0.39 to 0.48), or
    # the tint of a cell where a pipe ends (on a small board, the pipe's end covers part of the ring).
    typical = float(median([dot.radius for dot in found])) if found else 0.0
    least, most, scale = SMALLER * typical, min(WIDEST, LARGER * typical), (1 - SMALLER) * typical or 1.0
    kept = [dot for dot in found if least <= dot.radius <= most]
    for dot in found:
        size = min(margin(dot.radius, least, scale), margin(dot.radius, most, scale))
        margins[dot.cell] = min(margins[dot.cell], size) if dot in kept else size
    if page is not None and page[0] <= DARK and kept:
        _dimmed(samples, page, kept, margins)
    return kept, margins


def _dimmed(samples: _Samples, page: np.ndarray, kept: list[Dot], margins: dict[Cell, float]) -> None:
    """The margins of the cells that are a ring of one colour standing out from their corners, but too
    near the dark page for a dot (PAGE), lowered by how near they come to the dimmest dot's distance from
    it: a dimmed screen (or a photo of one) dims every dot alike, and the game's darker dots fall under
    PAGE while the round end of a streak of the page's art stays far below the dots (on the real
    screenshots, 17 at most against 37 at least): such a cell is sure to be none only under FAINT of the
    dimmest dot's distance from the page."""
    dimmest = FAINT * min(distance(dot.lab, page) for dot in kept)
    apart = lengths(samples.middles - page)
    ring = (lengths(samples.middles - samples.boards) >= CONTRAST) & (apart < PAGE)
    ring &= (samples.shares >= 0.5) & (samples.covered >= COVERED)
    for at in np.flatnonzero(ring):
        cell = (int(at) // samples.width, int(at) % samples.width)
        margins[cell] = min(margins[cell], max(0.0, dimmest - float(apart[at])) / dimmest)


def margin(value: float, threshold: float, scale: float) -> float:
    """How far `value` stood from the `threshold` that decided it, in `scale`s, at most 1."""
    return min(1.0, abs(value - threshold) / scale)


def ring(lattice: Grid, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (ys, xs) of the ring of points round a cell's centre."""
    (x, y), (dy, dx) = lattice.centre(row, col), _ring_offsets(lattice)
    return np.round(y + dy).astype(int), np.round(x + dx).astype(int)


def _ring_offsets(lattice: Grid) -> tuple[np.ndarray, np.ndarray]:
    """The ring's points from the cell's centre (dy, dx), in pixels."""
    angles = np.linspace(0, 2 * np.pi, ANGLES, endpoint=False)
    radii = np.repeat(np.array(RADII) * lattice.step, ANGLES)
    turns = np.tile(angles, len(RADII))
    return radii * np.sin(turns), radii * np.cos(turns)


def corners(lattice: Grid, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (ys, xs) of the cell's corners: the board beside a dot, clear of any pipe
    (a square cell's four, a hexagonal cell's six, toward its vertices)."""
    (x, y), (dy, dx) = lattice.centre(row, col), _corner_offsets(lattice)
    return np.round(y + dy).astype(int), np.round(x + dx).astype(int)


def corners_of(lattice: Grid, cells: list[Cell]) -> tuple[np.ndarray, np.ndarray]:
    """The corners of all the cells at once, placed as `corners` places them: ys and xs, cells by points."""
    centres = np.array([lattice.centre(*cell) for cell in cells], dtype=float).reshape(len(cells), 2)
    dy, dx = _corner_offsets(lattice)
    return np.round(centres[:, 1:] + dy).astype(int), np.round(centres[:, :1] + dx).astype(int)


def _corner_offsets(lattice: Grid) -> tuple[np.ndarray, np.ndarray]:
    """The cell's corners from its centre (dy, dx), in pixels: the same for every cell of the lattice, made
    once (read-only; a reading asks for them cell by cell, a thousand times)."""
    return _offsets(lattice.shape, lattice.step)


@lru_cache(maxsize=16)
def _offsets(shape: str, step: float) -> tuple[np.ndarray, np.ndarray]:
    if shape == "hex":
        turns = np.radians(np.arange(0, 360, 60))
        made = HEX_CORNER * step * np.sin(turns), HEX_CORNER * step * np.cos(turns)
    else:
        made = np.array([-1, -1, 1, 1]) * CORNER * step, np.array([-1, 1, -1, 1]) * CORNER * step
    for offsets in made:
        offsets.flags.writeable = False
    return made


@dataclass(frozen=True)
class _Samples:
    """Every cell's ring and corners read at once, in reading order (`width` cells a row): the ring's
    pixels (ys, xs: cells by points), the medians of its ring and of its corners, and the share of its
    points of the ring's colour and how much they cover of those of the ring's or the corners' colour."""

    width: int
    ys: np.ndarray
    xs: np.ndarray
    middles: np.ndarray
    boards: np.ndarray
    shares: np.ndarray
    covered: np.ndarray

    def at(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]


def _sampled(lab: np.ndarray, lattice: Grid) -> _Samples:
    """The rings and corners of all the cells, placed as `ring` and `corners` place them and read at once:
    the same values as cell by cell (`median` down each cell's points), in a fraction of the time."""
    height, width = lab.shape[:2]
    cells = [(row, col) for row in range(lattice.height) for col in range(lattice.width)]
    centres = np.array([lattice.centre(*cell) for cell in cells], dtype=float).reshape(len(cells), 2)
    x, y = centres[:, :1], centres[:, 1:]
    (ring_dy, ring_dx), (corner_dy, corner_dx) = _ring_offsets(lattice), _corner_offsets(lattice)
    ys = np.round(y + ring_dy).astype(int).clip(0, height - 1)
    xs = np.round(x + ring_dx).astype(int).clip(0, width - 1)
    cy = np.round(y + corner_dy).astype(int).clip(0, height - 1)
    cx = np.round(x + corner_dx).astype(int).clip(0, width - 1)
    colours = lab[ys, xs]
    middles, boards = _medians(colours), _medians(lab[cy, cx])
    # A ring point is the dot's if it has the ring's colour and not the board's: on a light
    # board a pale pipe and the tint of its cell are close, but the tint is the corners'.
    # Points of neither colour (a colour-blind letter's ink, an edge) do not count.
    to_dot = lengths(colours - middles[:, None])
    to_board = lengths(colours - boards[:, None])
    on_dot = (to_dot < SAME) & (to_dot < to_board)
    on_board = (to_board < SAME) & ~on_dot
    dotted = on_dot.sum(axis=1)
    covered = dotted / np.maximum(1, dotted + on_board.sum(axis=1))
    return _Samples(lattice.width, ys, xs, middles, boards, on_dot.mean(axis=1), covered)


def _medians(values: np.ndarray) -> np.ndarray:
    """Each cell's median down its points (`values`: cells by points by channels), as `median` gives it."""
    ordered = np.sort(values, axis=1)
    half = ordered.shape[1] // 2
    return ordered[:, half] if ordered.shape[1] % 2 else (ordered[:, half - 1] + ordered[:, half]) / 2


def _pipe_sides(
    lab: np.ndarray, lattice: Grid, row: int, col: int, colour: np.ndarray, board: np.ndarray, samples: _Samples
) -> int:
    """Through how many sides of the cell the colour runs on into the next cell: a dot's own
    pipe leaves by one side at most, a pipe through the cell by two. The next cell's own
    background (a tint of another colour, say) is told from a pipe by its corners (`samples`)."""
    height, width = lab.shape[:2]
    (x, y), step = lattice.centre(row, col), lattice.step
    reach = OUTSIDE * step
    others = lattice.neighbours((row, col))  # toward each cell beside (none beyond the edge)
    if not others:
        return 0
    centres = np.array([lattice.centre(*other) for other in others], dtype=float)
    ux, uy = (centres[:, :1] - x) / step, (centres[:, 1:] - y) / step  # the ways out, one a row
    spread = np.array([-0.06, 0.0, 0.06]) * step  # across the way out
    xs, ys = x + ux * reach - uy * spread, y + uy * reach + ux * spread
    probes = _medians(lab[np.round(ys).astype(int).clip(0, height - 1), np.round(xs).astype(int).clip(0, width - 1)])
    sides = 0
    for other, probe in zip(others, probes, strict=True):
        backgrounds = [board, samples.boards[samples.at(other)]]
        to_dot = distance(probe, colour)
        sides += bool(to_dot < SAME and all(to_dot < distance(probe, b) for b in backgrounds))
    return sides


def _dot_at(
    image: np.ndarray, lab: np.ndarray, lattice: Grid, row: int, col: int, samples: _Samples, page: np.ndarray | None
) -> tuple[Dot | None, float]:
    """The dot in a cell, or None: the ring one colour, and that colour not the board's (`samples`: the
    ring's colours and their median, and the corners' median: the board's colour), nor near a dark page's
    (`page`, as `find_dots` takes it); and the margin of that decision: for a dot, of the test it passed
    most narrowly; for none, of the test it failed most clearly."""
    at = samples.at((row, col))
    middle, board = samples.middles[at], samples.boards[at]
    contrast = distance(middle, board)
    share, covered = float(samples.shares[at]), float(samples.covered[at])
    tests = [(contrast, CONTRAST, 2 * CONTRAST), (share, 0.5, 0.5), (covered, COVERED, 1 - COVERED)]
    if page is not None and page[0] <= DARK:
        tests.append((distance(middle, page), PAGE, PAGE))
    failed = [margin(value, least, scale) for value, least, scale in tests if value < least]
    if failed:
        return None, max(failed)
    if _pipe_sides(lab, lattice, row, col, middle, board, samples) >= 2:  # a pipe through the cell, blurred into a disc
        return None, 1.0
    lightness, green_red, blue_yellow = (float(v) for v in middle)
    blue, green, red = (int(v) for v in median(image[samples.ys[at], samples.xs[at]]))
    radius = _radius(lab, lattice, row, col, middle, board)
    dot = Dot((row, col), (lightness, green_red, blue_yellow), (blue, green, red), radius)
    return dot, min(margin(value, least, scale) for value, least, scale in tests)


def _radius(lab: np.ndarray, lattice: Grid, row: int, col: int, colour: np.ndarray, board: np.ndarray) -> float:
    """How far the colour reaches from the cell's centre (of a cell), without a break, the median of
    eight directions (a pipe leaving the disc lengthens one or two; a letter's ink inside the disc
    changes none; a light border beyond the board round the dot does not count)."""
    height, width = lab.shape[:2]
    (x, y), step = lattice.centre(row, col), lattice.step
    steps = np.arange(RADII[0], 0.5, 0.02)  # from the ring out: inside it may stand a colour-blind letter
    xs = np.round(x + steps * step * RAYS[:, :1]).astype(int).clip(0, width - 1)  # the eight rays at once
    ys = np.round(y + steps * step * RAYS[:, 1:]).astype(int).clip(0, height - 1)
    points = lab[ys, xs]
    to_dot, to_board = lengths(points - colour), lengths(points - board)
    inside = (to_dot < SAME) & (to_dot < to_board)
    return float(median(_run_ends(steps, inside)))


def _run_ends(steps: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Where the first run of the colour along each ray ends (`inside`: rays by steps; 0 where the ray never
    meets it): past a letter's ink at its start, up to the first point off the colour, all rays at once."""
    start = inside.argmax(axis=1)
    off = ~inside & (np.arange(inside.shape[1]) >= start[:, None])  # off the colour, from the run's start on
    ends = np.where(off.any(axis=1), steps[off.argmax(axis=1) - 1], steps[-1])
    return np.where(inside[np.arange(len(inside)), start], ends, 0.0)

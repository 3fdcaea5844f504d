"""The highlight under the player's finger: found on the grid lines, and taken off the picture.

While a pipe is drawn, the game lays a translucent disc of its colour, a cell or two
across, under the finger; a screenshot taken then shows every dot, pipe and line under it
blended toward that colour: pixel = (1 - a) * own + a * C. The dots there no longer match
their partners. The grid lines are one colour all over the board (G0) and no pipe covers
them a quarter of a cell from a corner, so under the disc they read (1 - a) * G0 + a * C:
the points of the lines that stray from G0 mark the disc, and how they stray gives a * C
and a, for the colour C of one of the dots. The disc's pixels are then unblended:
own = (pixel - a * C) / (1 - a). A colour and a paler or darker one stray alike along the
lines, so a few colours are guessed, and the reader keeps the one whose unblended dots pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpflow.vision.board import Lattice
from cpflow.vision.fits import lengths, median
from cpflow.vision.hexes import Grid
from cpflow.vision.ridges import floats, line_pixels

ALONG = (0.2, 0.8)  # of a cell edge: where the lines are read, clear of a pipe's band across them
STRAY = 18.0  # BGR distance from the lines' own colour past which a line point is tinted
FEWEST = 4  # tinted line points that make a disc
MARGIN = 0.15  # of a cell: added to the disc's radius, for its blurred edge
REACH = 1.6  # cells: how far from the disc's crowd of stray line points the disc reaches
ALPHA = (0.08, 0.85)  # the blends believed
GUESSES = 4  # the disc's colours tried, likeliest first


@dataclass(frozen=True)
class Highlight:
    """A disc: its centre and radius (pixels), its colour (BGR) and how much of it shows (a)."""

    x: float
    y: float
    radius: float
    colour: np.ndarray
    alpha: float


def find_highlight(image: np.ndarray, grid: Grid, colours: list[np.ndarray]) -> list[Highlight]:
    """The finger's disc on the board, if the grid lines show one: one guess per dot colour it may
    have (`colours`: the dots' BGR colours), the likeliest first. Along the lines alone a colour
    and a paler one can look alike, so the caller keeps the first guess that makes the dots pair.
    [] when the lines are their own colour all over, and on a hexagonal board (not looked for there yet)."""
    if not isinstance(grid, Lattice):
        return []
    points, values = _line_points(image, grid)
    if len(values) < 4 * FEWEST:
        return []
    own = median(values)
    distance = lengths(values - own)
    stray = distance > max(STRAY, 3 * float(median(distance)))  # past the noise of a blurred, small board
    if stray.sum() < FEWEST or stray.mean() > 0.5:  # none, or not a disc but the whole board's look
        return []
    tinted, shifts = points[stray], values[stray] - own
    # The disc is where strays crowd: the stray with most others within REACH cells, and those
    # near it. Lone strays elsewhere are lines blurred into a tinted cell beside them.
    apart = lengths(tinted[:, None, :] - tinted[None, :, :])
    crowd = (apart < REACH * grid.step).sum(axis=1)
    near = apart[int(np.argmax(crowd))] < REACH * grid.step
    if near.sum() < FEWEST:
        return []
    tinted, shifts = tinted[near], shifts[near]
    centre = tinted.mean(axis=0)
    radius = float(np.max(lengths(tinted - centre))) + MARGIN * grid.step
    guesses = []
    for colour in colours:
        direction = colour - own  # shift = a * (C - G0)
        norm = float(direction @ direction)
        if norm < 1.0:
            continue
        alpha = float(median(shifts @ direction) / norm)
        residual = float(median(lengths(shifts - alpha * direction)))
        if ALPHA[0] <= alpha <= ALPHA[1] and residual <= STRAY:
            guesses.append((residual, Highlight(float(centre[0]), float(centre[1]), radius, colour, alpha)))
    return [found for _, found in sorted(guesses, key=lambda g: g[0])][:GUESSES]


def unblend(image: np.ndarray, found: Highlight) -> np.ndarray:
    """The picture with the disc taken off: its pixels unblended from the disc's colour."""
    height, width = image.shape[:2]
    ys, xs = np.ogrid[:height, :width]
    inside = (xs - found.x) ** 2 + (ys - found.y) ** 2 <= found.radius**2
    out = image.astype(np.float32)
    out[inside] = (out[inside] - found.alpha * found.colour) / (1 - found.alpha)
    return np.clip(out, 0, 255).astype(np.uint8)


def _line_points(image: np.ndarray, grid: Lattice) -> tuple[np.ndarray, np.ndarray]:
    """Points on the grid lines between the board's cells, (x, y), and their colours (BGR)."""
    picture = floats(image)
    points = [(point, segment.across) for segment in grid.segments(ALONG) for point in segment.points]
    values = line_pixels(picture, [(x, y, across) for (x, y), across in points])
    return np.array([point for point, _ in points], dtype=np.float32), np.array(values, dtype=np.float32)

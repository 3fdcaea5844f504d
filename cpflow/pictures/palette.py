"""Colours for drawing: the game's for its sixteen letters, then distinct ones for hundreds more.

The letters are the classic set's (`R` red, `B` blue, `Y` yellow, `G` green, ...; level
files name their colours with the same letters in the game's order). Any other colour
name takes the next of an endless sequence of hues a golden angle apart, at three
lightnesses in turn and one chroma in OKLCH, which keeps neighbours in the sequence far
apart and all of them bright enough to read on the dark background.
"""

from __future__ import annotations

import math

from cpflow.board.grid import Colour, Puzzle

RGB = tuple[int, int, int]

GAME: dict[str, RGB] = {
    "R": (255, 0, 0),  # red
    "B": (0, 0, 255),  # blue
    "Y": (238, 238, 0),  # yellow
    "G": (0, 128, 0),  # green
    "O": (255, 128, 0),  # orange
    "C": (0, 255, 255),  # cyan
    "M": (255, 0, 255),  # magenta
    "m": (165, 42, 42),  # maroon
    "P": (128, 0, 128),  # purple
    "A": (190, 190, 190),  # grey
    "W": (255, 255, 255),  # white
    "g": (0, 255, 0),  # bright green
    "T": (210, 180, 140),  # tan
    "b": (0, 0, 139),  # dark blue
    "c": (0, 139, 139),  # dark cyan
    "p": (255, 20, 147),  # pink
}
BACKGROUND: RGB = (0, 0, 0)
GRID: RGB = (70, 70, 70)
WALL: RGB = (230, 230, 230)
TILE: RGB = (130, 130, 130)  # a bridge's tile
TUNNEL: RGB = (150, 150, 150)  # the chevrons at a warp's ends, before a path takes it
GOLDEN = 137.50776405003785  # degrees


def colours(puzzle: Puzzle) -> dict[Colour, RGB]:
    """An RGB colour per colour of the puzzle: the game's for its letters, spaced hues for the rest."""
    spare = (spare_colour(i) for i in range(len(puzzle.colours)))
    return {colour: GAME[colour] if colour in GAME else next(spare) for colour in puzzle.colours}


def spare_colour(i: int) -> RGB:
    """The i-th colour beyond the game's: hues a golden angle apart, at three lightnesses in turn."""
    return oklch(0.70 + 0.08 * (i % 3), 0.14, (GOLDEN * i) % 360)


def oklch(lightness: float, chroma: float, hue: float) -> RGB:
    """An OKLCH colour (hue in degrees) as 8-bit sRGB, clipped to the gamut."""
    a, b = chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))
    l_ = lightness + 0.3963377774 * a + 0.2158037573 * b
    m_ = lightness - 0.1055613458 * a - 0.0638541728 * b
    s_ = lightness - 0.0894841775 * a - 1.2914855480 * b
    long, medium, short = l_**3, m_**3, s_**3
    linear = (
        4.0767416621 * long - 3.3077115913 * medium + 0.2309699292 * short,
        -1.2684380046 * long + 2.6097574011 * medium - 0.3413193965 * short,
        -0.0041960863 * long - 0.7034186147 * medium + 1.7076147010 * short,
    )
    red, green, blue = (round(255 * _gamma(min(1.0, max(0.0, x)))) for x in linear)
    return red, green, blue


def _gamma(x: float) -> float:
    return 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055


def hex_code(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def blend(rgb: RGB, under: RGB, amount: float) -> RGB:
    """`amount` of `rgb` over `under`."""
    red, green, blue = (round(amount * x + (1 - amount) * y) for x, y in zip(rgb, under, strict=True))
    return red, green, blue


def ink(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on `rgb` (for an endpoint's letter)."""
    r, g, b = rgb
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)

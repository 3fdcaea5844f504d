"""Thin lines in a picture: where they run (the ridge mask the board's lattice is found in) and
the pixels of a line itself.

A grid line is a ridge: a thin line lighter (dark theme) or darker (light theme) than the pixels a
few pixels to either side of it. Pipes and dots are too wide to be ridges and their edges are steps,
so the ridge mask keeps the grid, some text and little else.
"""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

RIDGE = 14  # grey levels a line pixel stands out from both sides, at least
REACH = (2, 3, 5, 8)  # pixels to each side looked at for a ridge: lines 1 to 14 pixels wide
THIN = (2, 3)  # and for thin lines only (1 to 4 pixels wide): a small board's pipes are as wide as a wide line
RUN = 7  # pixels: shorter vertical (horizontal) runs of ridge are not line


class _Floats:
    """A BGR picture (8 bits a channel) read as float32: `floats[key]` is `image[key]` converted."""

    dtype = np.dtype(np.float32)

    def __init__(self, image: np.ndarray):
        self.image, self.shape = image, image.shape

    def __getitem__(self, key) -> np.ndarray:
        return self.image[key].astype(np.float32)


def floats(image: np.ndarray) -> np.ndarray:
    """The picture as float BGR for its readers, who only index it and read its shape: the pixels read
    converted as they are read, the same values as `image.astype(np.float32)` without writing 9 MB for a
    phone screenshot (new pages each, a fault each on a process's first reading)."""
    return cast(np.ndarray, _Floats(image))  # typed as the array it stands in for


def line_pixels(picture: np.ndarray, points: list[tuple[float, float, int]]) -> np.ndarray:
    """Each point's line pixel (`points`: x, y, and `across`: 1 on a vertical line, 0 on a horizontal one),
    all at once: of the pixels within one pixel across the line, the one farthest from the mean of the pixels
    three to either side (the background), the first of equals. `picture`: float BGR of 8-bit values."""
    height, width = picture.shape[:2]
    if not len(points):
        return np.empty((0, *picture.shape[2:]), picture.dtype)
    x, y, across = np.asarray(points, dtype=float).T
    col, row = np.round(x).astype(int).clip(0, width - 1)[:, None], np.round(y).astype(int).clip(0, height - 1)[:, None]
    down = across[:, None] == 0  # a horizontal line: look up and down

    def across_line(steps: list[int]) -> np.ndarray:  # each point's pixels `steps` across its line, on the picture
        ys, xs = (row + steps).clip(0, height - 1), (col + steps).clip(0, width - 1)
        return picture[np.where(down, ys, row), np.where(down, col, xs)]

    near, beside = across_line([-1, 0, 1]), across_line([-3, 3])
    apart = near - ((beside[:, 0] + beside[:, 1]) / 2)[:, None]  # exact: halves of 8-bit values, summed in any order
    return near[np.arange(len(near)), np.sqrt(np.add.reduce(apart * apart, axis=-1)).argmax(axis=1)]


def line_masks(image: np.ndarray, reaches: tuple[int, ...] = REACH) -> tuple[np.ndarray, np.ndarray]:
    """Where thin lines run down and across: two 0/1 masks, of vertical lines and of horizontal ones
    (`reaches`: how far to each side a line is told from, hence how wide it may be)."""
    mean = _mean(image)
    return line_mask(ridge_strength(image, mean, 0, reaches), 0), line_mask(ridge_strength(image, mean, 1, reaches), 1)


def _mean(image: np.ndarray) -> np.ndarray:
    return cv2.transform(image, np.full((1, 3), 1 / 3, np.float32))


def line_mask(strength: np.ndarray, axis: int) -> np.ndarray:
    """The ridges strong enough and long enough to be lines along `axis`: a 0/1 mask."""
    mask = (strength >= RIDGE).astype(np.uint8)
    run = (1, RUN) if axis == 0 else (RUN, 1)  # (width, height)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, run))


def ridge_strength(image: np.ndarray, mean: np.ndarray, axis: int, reaches: tuple[int, ...] = REACH) -> np.ndarray:
    """By how much each pixel stands out, lighter or darker, from the pixels a few to either side
    across `axis` (0: left and right, for vertical lines), in its most telling channel: blue, green,
    red, or for a thin line their mean too (a grey line between a blue cell and a yellow one is
    lighter than both in no channel by much, but in their mean it is; a wide band of the mean is
    as often the dark cell between a bright pipe and a line; `mean`: the channels' mean, `_mean`)."""
    found = np.zeros_like(image)
    found_mean = np.zeros_like(mean)
    for reach in reaches:
        found = cv2.max(found, _stands_out(image, axis, reach))
        if reach in THIN:
            found_mean = cv2.max(found_mean, _stands_out(mean, axis, reach))
    # The channels split and compared pairwise: numpy's max over them, or OpenCV's reduce, is 50 times slower.
    blue, green, red = cv2.split(found)
    return cv2.max(cv2.max(cv2.max(blue, green), red), found_mean)


def _stands_out(image: np.ndarray, axis: int, reach: int) -> np.ndarray:
    """How much lighter or darker each pixel is than both pixels `reach` to either side across
    `axis`, channel by channel (saturating differences)."""
    size = image.shape[1 - axis]
    # Beyond the picture's edge, its edge pixel again (np.roll would wrap round).
    if axis == 0:
        padded = cv2.copyMakeBorder(image, 0, 0, reach, reach, cv2.BORDER_REPLICATE)
        before, after = padded[:, :size], padded[:, 2 * reach : 2 * reach + size]
    else:
        padded = cv2.copyMakeBorder(image, reach, reach, 0, 0, cv2.BORDER_REPLICATE)
        before, after = padded[:size], padded[2 * reach : 2 * reach + size]
    # Lighter than both is lighter than the lighter one: min(x - b, x - a) is x - max(a, b), saturating too.
    light = cv2.subtract(image, cv2.max(before, after))
    dark = cv2.subtract(cv2.min(before, after), image)
    return cv2.max(light, dark)

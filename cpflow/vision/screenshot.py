"""A screenshot of the game in, a puzzle out: decode, find the board, find the dots, pair them.

The picture is read at a working size (the longer side at most WORKING pixels), which
keeps a 1440x2560 phone screenshot fast and changes nothing a board needs: its cells
stay tens of pixels wide.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from cpflow.board.grid import Puzzle
from cpflow.errors import NotAnImage, ScreenshotUnreadable
from cpflow.vision import debug
from cpflow.vision.board import find_lattice, ridges
from cpflow.vision.bridges import find_bridges
from cpflow.vision.colours import name_pairs, pair_dots
from cpflow.vision.dots import find_dots, lab_image
from cpflow.vision.highlight import find_highlight, unblend
from cpflow.vision.holes import find_holes
from cpflow.vision.pipes import Play, read_play
from cpflow.vision.sides import read_sides, walls, warps

WORKING = 1280  # pixels, the working image's longer side at most
MAX_PIXELS = 40_000_000  # a larger image is refused from its header, before it is decoded


@dataclass(frozen=True)
class Reading:
    """What a screenshot shows: the puzzle (its dots), and the play (the pipes drawn, and the cells
    the reading was unsure of)."""

    puzzle: Puzzle
    play: Play

    def played(self) -> Puzzle:
        """The puzzle with the pipes read drawn in (`Puzzle.drawn`), as `hint` takes a play."""
        return replace(self.puzzle, drawn=dict(self.play.drawn))


def read_screenshot(data: bytes, debug_dir: Path | None = None, name: str = "screenshot") -> Puzzle:
    """The puzzle a screenshot shows (PNG, JPEG, ...); ScreenshotUnreadable, with a one-line
    reason, when no board can be read from it. `debug_dir` receives the intermediate images."""
    return read(data, debug_dir, name).puzzle


def read(data: bytes, debug_dir: Path | None = None, name: str = "screenshot") -> Reading:
    """The puzzle a screenshot shows and the play drawn on it; ScreenshotUnreadable as `read_screenshot`."""
    image = decode(data)
    vertical, horizontal = ridges(image, 0), ridges(image, 1)
    if debug_dir is not None:
        debug.write_lines(debug_dir, image, vertical, horizontal)
    lattice = find_lattice(vertical, horizontal)
    image, lab, dots, pairs = _without_highlight(image, lattice)
    sides = read_sides(image, lattice, vertical, horizontal)
    holes = find_holes(lab, lattice, sides)
    try:
        named = name_pairs(pairs if pairs is not None else pair_dots(dots))
    except ScreenshotUnreadable:
        if debug_dir is not None:
            debug.write(debug_dir, image, lattice, dots, holes, None)
        raise
    endpoints = {colour: (a.cell, b.cell) for colour, (a, b) in named.items()}
    try:
        puzzle = Puzzle.build(
            lattice.width,
            lattice.height,
            endpoints,
            holes=holes,
            walls=walls(sides, lattice, holes),
            warps=warps(sides, lattice, holes),
            bridges=find_bridges(lab, lattice, dots, holes),
            name=name,
        )
    except ValueError as error:  # a reading that makes no board (none is known): said, not raised raw
        raise ScreenshotUnreadable(f"no board found: {error}") from None
    play = read_play(lab, lattice, named, puzzle)
    if debug_dir is not None:
        debug.write(debug_dir, image, lattice, dots, holes, named, play)
    return Reading(puzzle, play)


def _without_highlight(image: np.ndarray, lattice):
    """The picture, in Lab too, its dots and their pairs (None when they do not pair), with the
    finger's highlight taken off (cpflow.vision.highlight) when the grid lines show one: the first
    guess of its colour whose unblended dots pair up, else the picture as it is."""
    lab = lab_image(image)
    dots = find_dots(image, lab, lattice)
    for guess in find_highlight(image, lattice, [np.array(dot.bgr, dtype=np.float32) for dot in dots]):
        clean = unblend(image, guess)
        clean_lab = lab_image(clean)
        clean_dots = find_dots(clean, clean_lab, lattice)
        try:
            return clean, clean_lab, clean_dots, pair_dots(clean_dots)
        except ScreenshotUnreadable:
            continue
    return image, lab, dots, None


def decode(data: bytes) -> np.ndarray:
    """The picture as a BGR array at the working size; NotAnImage when it cannot be decoded."""
    _check_size(data)
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # a broken file is said once, below
    raw = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    if image is None:
        raise NotAnImage("not an image (PNG, JPEG, GIF, BMP, WebP), or a damaged one")
    height, width = image.shape[:2]
    shrink = WORKING / max(height, width)
    if shrink < 1:
        image = cv2.resize(image, (round(width * shrink), round(height * shrink)), interpolation=cv2.INTER_AREA)
    return image


def _check_size(data: bytes) -> None:
    """Refuse a picture far larger than any screen from its header, before it is decoded."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused below, not warned about
            with Image.open(io.BytesIO(data)) as header:
                width, height = header.size
    except Image.DecompressionBombError:
        raise ScreenshotUnreadable("the image is far larger than a screenshot") from None
    except OSError:
        return  # not a format Pillow knows: OpenCV decides
    if width * height > MAX_PIXELS:
        raise ScreenshotUnreadable(f"the image of {width}x{height} pixels is far larger than a screenshot")

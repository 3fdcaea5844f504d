"""Grouping the dots into colours: the two dots of a colour are each other's closest match.

The dots are compared with each other, not with a fixed palette: the closest two dots
(in CIE Lab) form a pair, then the closest two of the rest, and so on. A screenshot's
colours drift with the phone, the theme and JPEG, but the two dots of one colour drift
together, so the game's dark blue and violet, or its two greens, stay apart. Only then
is each pair named, after the nearest of the game's colours not yet taken (`R` for its
red, ...), so that the puzzle reads and draws like the game.
"""

from __future__ import annotations

from itertools import chain, count

import numpy as np

from cpflow.board.grid import Colour, cell_name
from cpflow.errors import ScreenshotUnreadable
from cpflow.pictures.palette import GAME
from cpflow.vision.dots import Dot
from cpflow.vision.lab import lab_of

APART = 28.0  # Lab distance between the two dots of a colour, at most
SPARE = "123456789adefhijklnoqrsuvwxyzDEFHIJKLNQSUVXZ"  # names once the game's sixteen are taken (none of them)


def pair_dots(dots: list[Dot]) -> list[tuple[Dot, Dot]]:
    """The dots two by two, closest colours first; ScreenshotUnreadable when they do not pair up."""
    if not dots:
        raise ScreenshotUnreadable("no endpoint dots found on the board")
    pairs = []
    first, second = np.triu_indices(len(dots), 1)  # every two dots once, all their distances at once
    labs = np.array([dot.lab for dot in dots], dtype=float)
    apart = np.linalg.norm(labs[first] - labs[second], axis=1)
    near = np.flatnonzero(apart <= APART)
    taken: set[int] = set()
    for k in near[np.argsort(apart[near], kind="stable")]:
        i, j = int(first[k]), int(second[k])
        if i in taken or j in taken:
            continue
        pairs.append((dots[i], dots[j]))
        taken |= {i, j}
    alone = [dot for k, dot in enumerate(dots) if k not in taken]
    if alone:
        where = ", ".join(f"{cell_name(dot.cell)} {_hex(dot)}" for dot in alone)
        dot_at = "the dot at" if len(alone) == 1 else "the dots at"
        raise ScreenshotUnreadable(f"colours do not pair up: no dot of the same colour for {dot_at} {where}")
    return pairs


def name_pairs(pairs: list[tuple[Dot, Dot]]) -> dict[Colour, tuple[Dot, Dot]]:
    """Each pair named after the nearest free game colour, in reading order of their first dots."""
    pairs = sorted(((a, b) if a.cell <= b.cell else (b, a) for a, b in pairs), key=lambda p: p[0].cell)
    game = {letter: _lab_of_rgb(rgb) for letter, rgb in GAME.items()}
    middle = [np.mean([a.lab, b.lab], axis=0) for a, b in pairs]
    choices = sorted(
        ((float(np.linalg.norm(m - lab)), k, letter) for k, m in enumerate(middle) for letter, lab in game.items()),
    )
    names: dict[int, Colour] = {}
    for _, k, letter in choices:
        if k not in names and letter not in names.values():
            names[k] = letter
    spare = chain(SPARE, (str(n) for n in count(10)))  # SPARE has 1 to 9
    for k in range(len(pairs)):
        names.setdefault(k, next(spare))
    return {names[k]: pair for k, pair in enumerate(pairs)}


def _hex(dot: Dot) -> str:
    blue, green, red = dot.bgr
    return f"#{red:02x}{green:02x}{blue:02x}"


def _lab_of_rgb(rgb: tuple[int, int, int]) -> np.ndarray:
    return lab_of(np.array(rgb[::-1], dtype=np.uint8))

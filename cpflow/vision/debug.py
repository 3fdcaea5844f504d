"""The intermediate images of an import, so that a user can see where it went wrong.

Into the folder asked for, as far as the import got: `0_lines.png` (the thin lines seen,
vertical in red, horizontal in green: what the board is looked for in), `1_board.png`
(the board found, outlined), `2_grid.png` (its grid lines), `3_dots.png` (where each
cell was read: white points on the cells that hold a dot, grey on the rest; holes
crossed out),
`4_colours.png` (each pair's two dots joined and numbered), `5_play.png` (each cell a pipe
was read through, a disc of its pair's colour; the cells the reading was unsure of crossed
in red), and `debug.png`: the steps side by side, the board cut out, to look at first.
Each written whole or not at all (cpflow.outputs; OutputError when it cannot be).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cpflow import outputs
from cpflow.board.grid import Cell, cell_of
from cpflow.vision.dots import Dot, corners, ring
from cpflow.vision.hexes import Grid
from cpflow.vision.pipes import Play

FILES = ("0_lines.png", "1_board.png", "2_grid.png", "3_dots.png", "4_colours.png", "5_play.png", "debug.png")
MARK = (255, 255, 255)
OUTLINE = (0, 0, 255)


def write_lines(folder: Path, image: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray) -> None:
    """The ridge masks the board is looked for in, over the picture darkened."""
    outputs.folder(folder)
    picture = (image * 0.3).astype(np.uint8)
    picture[vertical > 0] = OUTLINE
    picture[horizontal > 0] = (0, 255, 0)
    _save(folder / FILES[0], picture)


def write(
    folder: Path,
    image: np.ndarray,
    lattice: Grid,
    dots: list[Dot],
    holes: set[Cell],
    named: dict[str, tuple[Dot, Dot]] | None,
    play: Play | None = None,
) -> None:
    """The board, grid, dots and (when the dots paired up) colours and play pictures, and all of them side by side."""
    steps = [board_picture(image, lattice), grid_picture(image, lattice), dots_picture(image, lattice, dots, holes)]
    if named is not None:
        steps.append(groups_picture(image, lattice, list(named.values()), list(named)))
        if play is not None:
            steps.append(play_picture(image, lattice, play, named))
    for name, picture in zip(FILES[1:-1], steps, strict=False):
        _save(folder / name, picture)
    _save(folder / FILES[-1], side_by_side(steps[0], [_cut(p, lattice) for p in steps[1:]]))


def _save(path: Path, picture: np.ndarray) -> None:
    outputs.write(path, cv2.imencode(".png", picture)[1].tobytes())


def side_by_side(whole: np.ndarray, parts: list[np.ndarray], height: int = 480) -> np.ndarray:
    """The whole screen and the board's close-ups in a row, all `height` pixels high."""
    scaled = [cv2.resize(p, (max(1, round(p.shape[1] * height / p.shape[0])), height)) for p in [whole, *parts]]
    gap = np.full((height, 8, 3), 255, dtype=np.uint8)
    row = [scaled[0]]
    for picture in scaled[1:]:
        row += [gap, picture]
    return np.hstack(row)


def _cut(picture: np.ndarray, lattice: Grid) -> np.ndarray:
    """The board and half a cell round it."""
    margin = lattice.step / 2
    left, top, right, bottom = lattice.bounds()
    return picture[
        max(0, round(top - margin)) : round(bottom + margin), max(0, round(left - margin)) : round(right + margin)
    ]


def board_picture(image: np.ndarray, lattice: Grid) -> np.ndarray:
    picture = image.copy()
    left, top, right, bottom = lattice.bounds()
    top_left, bottom_right = (round(left), round(top)), (round(right), round(bottom))
    cv2.rectangle(picture, top_left, bottom_right, OUTLINE, max(2, round(lattice.step / 12)))
    label = f"{lattice.width}x{lattice.height}"
    cv2.putText(picture, label, (top_left[0], max(20, top_left[1] - 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.8, OUTLINE, 2)
    return picture


def grid_picture(image: np.ndarray, lattice: Grid) -> np.ndarray:
    picture = (image * 0.5).astype(np.uint8)
    for row in range(lattice.height):
        for col in range(lattice.width):
            corners_ = np.round(lattice.outline(row, col)).astype(np.int32)
            cv2.polylines(picture, [corners_], True, OUTLINE, 1)
    return picture


def dots_picture(image: np.ndarray, lattice: Grid, dots: list[Dot], holes: set[Cell]) -> np.ndarray:
    """Every cell's sample points (ring and corners) in grey, those of dots in white; holes crossed out."""
    picture = grid_picture(image, lattice)
    on = {dot.cell for dot in dots}
    for row, col in holes:
        corners_ = lattice.outline(row, col)
        x0, x1 = round(min(x for x, _ in corners_)), round(max(x for x, _ in corners_))
        y0, y1 = round(min(y for _, y in corners_)), round(max(y for _, y in corners_))
        cv2.line(picture, (x0, y0), (x1, y1), OUTLINE, 2)
        cv2.line(picture, (x0, y1), (x1, y0), OUTLINE, 2)
    for row in range(lattice.height):
        for col in range(lattice.width):
            colour = MARK if (row, col) in on else (128, 128, 128)
            for ys, xs in (ring(lattice, row, col), corners(lattice, row, col)):
                for y, x in zip(ys, xs, strict=True):
                    cv2.circle(picture, (int(x), int(y)), 1, colour, -1)
    return picture


def play_picture(image: np.ndarray, lattice: Grid, play: Play, named: dict[str, tuple[Dot, Dot]]) -> np.ndarray:
    """Each cell read as drawn, a disc of its pair's colour outlined in white; each unsure cell crossed in red."""
    picture = (image * 0.5).astype(np.uint8)
    radius = max(2, round(0.18 * lattice.step))
    for node, colour in play.drawn.items():
        x, y = (round(v) for v in lattice.centre(*cell_of(node)))
        bgr = tuple(int(v) for v in named[colour][0].bgr)
        cv2.circle(picture, (x, y), radius, bgr, -1)
        cv2.circle(picture, (x, y), radius, MARK, 1)
    for row, col in play.unsure:
        x, y = (round(v) for v in lattice.centre(row, col))
        cv2.line(picture, (x - radius, y - radius), (x + radius, y + radius), OUTLINE, 2)
        cv2.line(picture, (x - radius, y + radius), (x + radius, y - radius), OUTLINE, 2)
    return picture


def groups_picture(image: np.ndarray, lattice: Grid, pairs: list[tuple[Dot, Dot]], names: list[str]) -> np.ndarray:
    """Each pair's dots joined by a line in the pair's colour, and labelled with its name."""
    picture = (image * 0.4).astype(np.uint8)
    radius, width = round(lattice.step * 0.3), max(2, round(lattice.step / 10))
    scale = lattice.step / 60
    ends = [[tuple(round(v) for v in lattice.centre(*dot.cell)) for dot in pair] for pair in pairs]
    for (a, _), (start, stop) in zip(pairs, ends, strict=True):  # every line first, so no line hides a dot
        cv2.line(picture, start, stop, a.bgr, width)
    for pair, name, at in zip(pairs, names, ends, strict=True):
        for (x, y), dot in zip(at, pair, strict=True):
            cv2.circle(picture, (x, y), radius, dot.bgr, -1)
            cv2.circle(picture, (x, y), radius, MARK, 1)
            (w, h), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
            ink = (0, 0, 0) if dot.lab[0] > 60 else MARK
            cv2.putText(picture, name, (x - w // 2, y + h // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 2)
    return picture

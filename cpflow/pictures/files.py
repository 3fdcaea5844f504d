"""Pictures to files: the format from the suffix (.svg, .png, .gif), the size from the board;
each written whole or not at all, alone or with a group of files (cpflow.outputs).

Pillow is imported only for .png and .gif, so SVG needs nothing beyond the standard library.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from cpflow import outputs
from cpflow.board.grid import Cell, Puzzle, Solution
from cpflow.pictures.scene import Scene, beside, edges_scene, scene

SUFFIXES = (".svg", ".png", ".gif")
FRAMES = 60  # at most, in an animation
LONGEST_SIDE = 960  # pixels, for a board's longer side, within the bounds below
CELL_PIXELS = (8, 48)


def scale_for(picture: Scene) -> float:
    """Pixels per cell: the longer side near LONGEST_SIDE pixels (twice that for a long thin
    board, so that its cells stay big enough to read), a cell 8 to 48 pixels."""
    low, high = CELL_PIXELS
    longer, shorter = max(picture.width, picture.height), min(picture.width, picture.height)
    side = LONGEST_SIDE * (2 if longer >= 4 * shorter else 1)
    return float(min(high, max(low, side // longer)))


def frames(puzzle: Puzzle, solution: Solution) -> list[Scene]:
    """The paths drawn step by step, all at once: at most FRAMES scenes, the last the whole solution."""
    longest = max(len(path) for path in solution.paths.values())
    stride = max(1, -(-longest // FRAMES))
    steps = list(range(0, longest, stride))
    if steps[-1] != longest - 1:
        steps.append(longest - 1)
    return [scene(puzzle, solution, steps=step) for step in steps]


def still(
    puzzle: Puzzle, solutions: Sequence[Solution] = (), highlight: Collection[Cell] = (), labels: bool = False
) -> Scene:
    """The board with one solution, or several side by side (`highlight` outlined), or none."""
    parts = [scene(puzzle, solution, highlight, labels) for solution in solutions] or [
        scene(puzzle, None, highlight, labels)
    ]
    return beside(parts) if len(parts) > 1 else parts[0]


def write_picture(
    path: Path,
    puzzle: Puzzle,
    solutions: Sequence[Solution] = (),
    highlight: Collection[Cell] = (),
    labels: bool = False,
    animate: bool = False,
    seconds: float = 3.0,
    rounds: Sequence[dict] = (),
    group: outputs.Group | None = None,
) -> None:
    """Draw the puzzle (with one solution, or several side by side) to `path`, by its suffix, alone
    or as one of a `group` of files that land together (OutputError when it cannot be written).

    `.gif`, or `.svg` with `animate`, draws the (first) solution's paths step by step;
    a `.gif` given an ILP's `rounds` (each round's joined edges) shows one frame a round.
    """
    data = drawing(path, puzzle, solutions, highlight, labels, animate, seconds, rounds)
    if group is None:
        outputs.write(path, data)
    else:
        group.write(path, data)


def drawing(
    path: Path,
    puzzle: Puzzle,
    solutions: Sequence[Solution],
    highlight: Collection[Cell],
    labels: bool,
    animate: bool,
    seconds: float,
    rounds: Sequence[dict],
) -> str | bytes:
    """The picture `write_picture` writes, as SVG text or PNG or GIF bytes."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"cannot tell the picture format from {path.name!r}; use .svg, .png or .gif")
    drawn = still(puzzle, solutions, highlight, labels)
    scale = scale_for(drawn)
    if suffix == ".svg":
        from cpflow.pictures.svg import svg

        return svg(drawn, scale, seconds if animate and solutions else None)
    from cpflow.pictures import raster

    if suffix == ".png":
        return raster.png(drawn, scale)
    scenes = [edges_scene(puzzle, edges) for edges in rounds] or (
        frames(puzzle, solutions[0]) if solutions else [drawn]
    )
    return raster.gif(scenes, scale, seconds)

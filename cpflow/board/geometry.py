"""Where cells stand in a drawing: centres and outlines in cell units, by the board's shape.

Square cells are unit squares, row 0 at the top. Hexagonal cells are flat-topped
hexagons one unit tall, in columns 0.866 units apart, even columns half a unit lower
than odd ones (the "even-q" layout of the game's hex boards).
"""

from __future__ import annotations

import math

from cpflow.board.grid import Cell

Point = tuple[float, float]  # (x, y) in cell units, y downward
HEX_RADIUS = 1 / math.sqrt(3)  # a hexagon one unit tall


def centre(shape: str, cell: Cell) -> Point:
    r, c = cell
    if shape == "hex":
        return HEX_RADIUS + 1.5 * HEX_RADIUS * c, r + 0.5 + (0.5 if c % 2 == 0 else 0.0)
    return c + 0.5, r + 0.5


def outline(shape: str, cell: Cell) -> list[Point]:
    """The cell's corners, clockwise from the right (hex) or the top left (square)."""
    x, y = centre(shape, cell)
    if shape == "hex":
        return [
            (x + HEX_RADIUS * math.cos(math.radians(a)), y + HEX_RADIUS * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
    return [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]


def extent(shape: str, width: int, height: int) -> Point:
    """The drawing's width and height in cell units, for a board of `width` x `height` cells."""
    if shape == "hex":
        return HEX_RADIUS * (2 + 1.5 * (width - 1)), height + 0.5
    return float(width), float(height)


def shared_side(shape: str, a: Cell, b: Cell) -> tuple[Point, Point] | None:
    """The side two touching cells have in common (where a wall between them stands)."""
    near = [p for p in outline(shape, a) if any(math.dist(p, q) < 1e-6 for q in outline(shape, b))]
    return (near[0], near[1]) if len(near) == 2 else None


def away(cell: Cell, other: Cell) -> Point:
    """The unit direction a warp leaves `cell` by: away from its other end, along their row or column."""
    (r1, c1), (r2, c2) = cell, other
    if r1 == r2:
        return (-1.0 if c2 > c1 else 1.0), 0.0
    return 0.0, (-1.0 if r2 > r1 else 1.0)

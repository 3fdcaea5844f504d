"""A scene as SVG text, still or animated (each pipe drawn from its start), with the standard library.

Elements carry classes a reader can count: `cell`, `border`, `wall`, `bridge`, `pipe`,
`overpass`, `warp`, `dot`, `label`, `mark`; pipes and dots carry `data-colour`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from cpflow.board.geometry import Point
from cpflow.pictures.palette import GRID, TILE, hex_code, ink
from cpflow.pictures.scene import BORDER_WIDTH, DOT, GAP, PIPE, WALL_WIDTH, Scene

SVG = "http://www.w3.org/2000/svg"


def svg(picture: Scene, scale: float, animate: float | None = None) -> str:
    """The scene as an SVG document `scale` pixels per cell; `animate` seconds draws the pipes in."""
    root = ET.Element(
        "svg",
        xmlns=SVG,
        width=_n(picture.width * scale),
        height=_n(picture.height * scale),
        viewBox=f"0 0 {_n(picture.width)} {_n(picture.height)}",
    )
    ET.SubElement(
        root, "rect", {"class": "background", "width": "100%", "height": "100%", "fill": hex_code(picture.background)}
    )
    grid = ET.SubElement(root, "g", {"stroke": hex_code(GRID), "stroke-width": _n(max(0.03, 1 / scale))})
    for corners, fill in picture.cells:
        ET.SubElement(grid, "polygon", {"class": "cell", "points": _points(corners), "fill": hex_code(fill)})
    _edges(root, "border", [edge.inside(BORDER_WIDTH) for edge in picture.border], hex_code(picture.edge), BORDER_WIDTH)
    _edges(root, "wall", picture.walls, hex_code(picture.edge), WALL_WIDTH)
    for corners in picture.tiles:
        (left, top), (right, bottom) = corners[0], corners[2]
        box = {"x": _n(left), "y": _n(top), "width": _n(right - left), "height": _n(bottom - top), "rx": "0.08"}
        ET.SubElement(root, "rect", {"class": "bridge", **box, "fill": hex_code(TILE)})
    for pipe in picture.pipes:
        line = _pipe(root, "pipe", pipe.points, hex_code(pipe.rgb), PIPE, pipe.colour)
        if animate:
            line.set("pathLength", "1")
            line.set("stroke-dasharray", "1")
            ET.SubElement(line, "animate", attributeName="stroke-dashoffset", values="1;0", dur=f"{animate}s")
    for pipe in picture.overpasses:
        _pipe(root, "gap", pipe.points, hex_code(picture.background), GAP, None, cap="butt")
        _pipe(root, "overpass", pipe.points, hex_code(pipe.rgb), PIPE, pipe.colour, cap="butt")
    for at, direction, rgb in picture.warps:
        _pipe(root, "warp", chevron(at, direction), hex_code(rgb), 0.1, None)
    _dots(root, picture)
    for corners in picture.marks:
        ET.SubElement(root, "polygon", {"class": "mark", "points": _points(corners), "fill": "none"}, stroke="#ffffff")
        root[-1].set("stroke-width", "0.06")
    return ET.tostring(root, encoding="unicode") + "\n"


def chevron(at: Point, direction: Point) -> list[Point]:
    """A small `>` pointing along `direction`, its tip at `at` (a warp's end, on the board's edge):
    inside the cell, so never cut off at the picture's edge."""
    (x, y), (dx, dy) = at, direction
    px, py = -dy, dx
    return [
        (x - 0.2 * dx + 0.15 * px, y - 0.2 * dy + 0.15 * py),
        (x, y),
        (x - 0.2 * dx - 0.15 * px, y - 0.2 * dy - 0.15 * py),
    ]


def _edges(root: ET.Element, kind: str, sides, colour: str, width: float) -> None:
    for (x1, y1), (x2, y2) in sides:
        attributes = {"class": kind, "x1": _n(x1), "y1": _n(y1), "x2": _n(x2), "y2": _n(y2)}
        ET.SubElement(root, "line", attributes, stroke=colour, **{"stroke-width": _n(width)})
        root[-1].set("stroke-linecap", "round")


def _dots(root: ET.Element, picture: Scene) -> None:
    for dot in picture.dots:
        x, y = dot.centre
        circle = {"class": "dot", "data-colour": dot.colour, "cx": _n(x), "cy": _n(y), "r": _n(DOT)}
        ET.SubElement(root, "circle", circle, fill=hex_code(dot.rgb))
        if dot.label:
            text = {"class": "label", "x": _n(x), "y": _n(y + 0.13), "text-anchor": "middle", "font-size": "0.38"}
            ET.SubElement(root, "text", text, fill=hex_code(ink(dot.rgb)), **{"font-family": "sans-serif"})
            root[-1].text = dot.label


def _pipe(root, kind: str, points: Sequence[Point], colour: str, width: float, name: str | None, cap="round"):
    attributes = {"class": kind, "points": _points(points), "fill": "none", "stroke": colour}
    attributes.update({"stroke-width": _n(width), "stroke-linecap": cap, "stroke-linejoin": "round"})
    if name is not None:
        attributes["data-colour"] = name
    return ET.SubElement(root, "polyline", attributes)


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")

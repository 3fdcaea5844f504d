"""A picture of a board as shapes in cell units, drawn the same way to SVG and to PNG.

The game's look: a black background, a thin grid, each path's cells tinted in its
colour, thick round pipes through the cell centres, a dot on each endpoint, light bars
for walls and a thinner one round the board (its border, open where a warp leaves), a
grey chevron at each end of a warp (in a path's colour once the path takes it), a grey
tile on each bridge, and on a bridge the across pipe passing over the down pipe.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType

from cpflow.board.geometry import Point, away, centre, extent, outline, shared_side
from cpflow.board.grid import ACROSS, Cell, Colour, Node, Puzzle, Solution, cell_of
from cpflow.pictures.palette import BACKGROUND, RGB, TUNNEL, WALL, blend, colours

PIPE = 0.36  # pipe width, in cell units
WALL_WIDTH = 0.14
BORDER_WIDTH = 0.1
GAP = 1.4 * PIPE  # the gap round a pipe passing over a bridge: narrower than the tile
DOT = 0.32  # endpoint radius
TINT = 0.25  # how much of its colour a path's cell takes


@dataclass(frozen=True)
class Pipe:
    """One colour's pipe: a polyline through cell centres."""

    colour: Colour
    rgb: RGB
    points: list[Point]


@dataclass(frozen=True)
class Edge:
    """A side of a cell on the board's edge, and the unit vector into the cell: a border is drawn
    inside its cell, along the side (so never cut off at the picture's edge)."""

    a: Point
    b: Point
    inward: Point

    def inside(self, width: float) -> tuple[Point, Point]:
        """The side moved half of `width` into its cell: where a line that wide is drawn."""
        dx, dy = (width / 2 * v for v in self.inward)
        return (self.a[0] + dx, self.a[1] + dy), (self.b[0] + dx, self.b[1] + dy)


@dataclass(frozen=True)
class Dot:
    colour: Colour
    rgb: RGB
    centre: Point
    label: str | None  # the colour's name, when labels are asked for


@dataclass
class Scene:
    """Everything a picture shows, in drawing order."""

    width: float
    height: float
    cells: list[tuple[list[Point], RGB]] = field(default_factory=list)  # outline, fill
    border: list[Edge] = field(default_factory=list)  # the board's edge, side by side
    walls: list[tuple[Point, Point]] = field(default_factory=list)
    tiles: list[list[Point]] = field(default_factory=list)  # a bridge's tile, under its pipes
    pipes: list[Pipe] = field(default_factory=list)
    overpasses: list[Pipe] = field(default_factory=list)  # bridge pipes drawn over the rest
    warps: list[tuple[Point, Point, RGB]] = field(default_factory=list)  # edge point, outward direction, colour
    dots: list[Dot] = field(default_factory=list)
    marks: list[list[Point]] = field(default_factory=list)  # outlines of highlighted cells
    background: RGB = BACKGROUND  # the page, showing through holes and round the board
    edge: RGB = WALL  # walls and the border


def scene(
    puzzle: Puzzle,
    solution: Solution | None = None,
    highlight: Collection[Cell] = (),
    labels: bool = False,
    steps: int | None = None,
) -> Scene:
    """The picture of a board and, if given, a solution; `steps` draws each path's first steps only."""
    width, height = extent(puzzle.shape, puzzle.width, puzzle.height)
    picture = Scene(width, height)
    rgb = colours(puzzle)
    given = solution.paths if solution else {}  # a path of no colour of the puzzle (a mistake, said) is not drawn
    paths = {k: path[: steps + 1] if steps is not None else path for k, path in given.items() if k in rgb}
    painted = {n: k for n, k in solution.painted.items() if k in rgb} if solution and steps is None else {}
    _cells(picture, puzzle, paths, rgb, painted)
    _board(picture, puzzle)
    for colour, path in paths.items():
        _pipes(picture, puzzle, colour, rgb[colour], path)
    _loose(picture, puzzle, paths, rgb, painted)
    _overpasses(picture, puzzle, paths, rgb)
    picture.dots = [
        Dot(colour, rgb[colour], centre(puzzle.shape, cell_of(node)), colour if labels else None)
        for colour, ends in puzzle.endpoints.items()
        for node in ends
    ]
    picture.marks = [_inset(outline(puzzle.shape, cell), centre(puzzle.shape, cell)) for cell in highlight]
    return picture


def _inset(corners: list[Point], middle: Point, keep: float = 0.84) -> list[Point]:
    """The outline shrunk toward the cell's centre, so that marks on neighbouring cells stay apart."""
    (mx, my) = middle
    return [(mx + keep * (x - mx), my + keep * (y - my)) for x, y in corners]


def _cells(
    picture: Scene,
    puzzle: Puzzle,
    paths: dict[Colour, tuple[Node, ...]],
    rgb: dict[Colour, RGB],
    painted: Mapping = MappingProxyType({}),
) -> None:
    """Every cell's outline, tinted with the colour of the path through it, or the colour it was
    painted in a grid that no path runs through (a play's loose ends); a bridge stays dark."""
    tint = {cell_of(node): rgb[colour] for node, colour in painted.items() if len(node) == 2}
    tint.update({cell_of(node): rgb[colour] for colour, path in paths.items() for node in path if len(node) == 2})
    tint.update({cell_of(node): rgb[colour] for colour, ends in puzzle.endpoints.items() for node in ends})
    for cell in puzzle.cells:
        fill = blend(tint[cell], BACKGROUND, TINT) if cell in tint else BACKGROUND
        picture.cells.append((outline(puzzle.shape, cell), fill))


def _board(picture: Scene, puzzle: Puzzle) -> None:
    """What the board has besides its cells: its border (each side of a cell with no board cell
    beyond, less the sides warps leave by), walls, bridge tiles, and a grey chevron at each warp's ends."""
    shape, warps = puzzle.shape, puzzle.warps()
    ends = [_edge(shape, a, b) for first, second in warps for a, b in ((first, second), (second, first))]
    sides = [(a, b) for cell in puzzle.cells for a, b in _sides(outline(shape, cell))]
    drawn = Counter(_key(a, b) for a, b in sides)  # a side two cells share is drawn twice
    leaving = {_key(at, at) for at, _ in ends}
    picture.border = [
        Edge(*side, _inward(side, centre(shape, cell)))
        for cell in puzzle.cells
        for side in _sides(outline(shape, cell))
        if drawn[_key(*side)] == 1 and _key(*side) not in leaving
    ]
    picture.walls = [side for a, b in puzzle.walls() if (side := shared_side(shape, a, b))]
    picture.tiles = [_inset(outline(shape, cell), centre(shape, cell)) for cell in puzzle.bridges()]
    picture.warps = [(at, direction, TUNNEL) for at, direction in ends]


def _sides(corners: list[Point]) -> list[tuple[Point, Point]]:
    return list(zip(corners, corners[1:] + corners[:1], strict=True))


def _inward(side: tuple[Point, Point], middle: Point) -> Point:
    """The unit vector from the side's middle toward the cell's."""
    (a, b) = side
    dx, dy = middle[0] - (a[0] + b[0]) / 2, middle[1] - (a[1] + b[1]) / 2
    length = math.hypot(dx, dy)
    return dx / length, dy / length


def _key(a: Point, b: Point) -> Point:
    """A side by its middle, rounded (the same side of two cells, drawn from either)."""
    return round((a[0] + b[0]) / 2, 6), round((a[1] + b[1]) / 2, 6)


def _pipes(picture: Scene, puzzle: Puzzle, colour: Colour, rgb: RGB, path: tuple[Node, ...]) -> None:
    """A path's pipe through its cell centres, broken where it takes a warp (marked at both edges)."""
    shape, line = puzzle.shape, []
    for u, w in pairwise(path):
        a, b = cell_of(u), cell_of(w)
        line.append(centre(shape, a))
        if not puzzle.touches(a, b):
            out, back = _edge(shape, a, b), _edge(shape, b, a)
            picture.pipes.append(Pipe(colour, rgb, [*line, out[0]]))
            picture.warps += [(*out, rgb), (*back, rgb)]
            line = [back[0]]
    if path:
        line.append(centre(shape, cell_of(path[-1])))
        picture.pipes.append(Pipe(colour, rgb, line))


def _loose(picture: Scene, puzzle: Puzzle, paths, rgb: dict[Colour, RGB], painted: Mapping) -> None:
    """Pipes between the cells painted in a grid that no path runs through (a play's piece drawn from
    its second end, a stray) and the cells of their colour beside them."""
    on = {node for path in paths.values() for node in path}
    colour = {**painted, **puzzle.endpoint_colour()}
    for node, c in painted.items():
        for other in puzzle.neighbours.get(node, ()):
            joins = colour.get(other) == c and (other in on or other < node) and node not in on
            if joins and puzzle.touches(cell_of(node), cell_of(other)):
                picture.pipes.append(Pipe(c, rgb[c], [centre(puzzle.shape, cell_of(x)) for x in (other, node)]))


def _edge(shape: str, cell: Cell, other: Cell) -> tuple[Point, Point]:
    """Where a warp leaves `cell` (the middle of its side toward the board's edge) and which way."""
    (x, y), (dx, dy) = centre(shape, cell), away(cell, other)
    return (x + dx / 2, y + dy / 2), (dx, dy)


def _overpasses(picture: Scene, puzzle: Puzzle, paths, rgb: dict[Colour, RGB]) -> None:
    """Across every bridge crossed both ways, the across pipe again, drawn over the down one."""
    lanes = {node: colour for colour, path in paths.items() for node in path if len(node) == 3}
    for cell in puzzle.bridges():
        over, under = lanes.get((*cell, ACROSS)), lanes.get((*cell, 1 - ACROSS))
        if over and under:
            x, y = centre(puzzle.shape, cell)
            picture.overpasses.append(Pipe(over, rgb[over], [(x - 0.5, y), (x + 0.5, y)]))


def edges_scene(puzzle: Puzzle, edges: dict[Colour, list[tuple[Node, Node]]]) -> Scene:
    """The picture of an answer given as each colour's joined edges, loops and all (an ILP round's)."""
    width, height = extent(puzzle.shape, puzzle.width, puzzle.height)
    picture = Scene(width, height)
    rgb = colours(puzzle)
    _cells(picture, puzzle, {colour: tuple(n for edge in pairs for n in edge) for colour, pairs in edges.items()}, rgb)
    _board(picture, puzzle)
    for colour, pairs in edges.items():
        for a, b in pairs:
            _pipes(picture, puzzle, colour, rgb[colour], (a, b))
    picture.dots = [
        Dot(colour, rgb[colour], centre(puzzle.shape, cell_of(node)), None)
        for colour, ends in puzzle.endpoints.items()
        for node in ends
    ]
    return picture


def beside(scenes: list[Scene], gap: float = 0.6) -> Scene:
    """The scenes side by side, left to right, `gap` cells apart (two solutions of one puzzle, say)."""
    width, height = sum(s.width for s in scenes) + gap * (len(scenes) - 1), max(s.height for s in scenes)
    whole = Scene(width, height, background=scenes[0].background, edge=scenes[0].edge)
    dx = 0.0
    for part in scenes:
        whole.cells += [(_shift(corners, dx), fill) for corners, fill in part.cells]
        whole.border += [Edge((e.a[0] + dx, e.a[1]), (e.b[0] + dx, e.b[1]), e.inward) for e in part.border]
        whole.walls += [(first, second) for first, second in (_shift(side, dx) for side in part.walls)]
        whole.tiles += [_shift(corners, dx) for corners in part.tiles]
        whole.pipes += [Pipe(p.colour, p.rgb, _shift(p.points, dx)) for p in part.pipes]
        whole.overpasses += [Pipe(p.colour, p.rgb, _shift(p.points, dx)) for p in part.overpasses]
        whole.warps += [(_shift([at], dx)[0], direction, rgb) for at, direction, rgb in part.warps]
        whole.dots += [Dot(d.colour, d.rgb, _shift([d.centre], dx)[0], d.label) for d in part.dots]
        whole.marks += [_shift(corners, dx) for corners in part.marks]
        dx += part.width + gap
    return whole


def _shift(points: Iterable[Point], dx: float) -> list[Point]:
    """The points moved `dx` to the right."""
    return [(x + dx, y) for x, y in points]

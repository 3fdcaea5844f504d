"""A picture of a board as shapes in cell units, drawn the same way to SVG and to PNG.

The game's look: a black background, a thin grid, each path's cells tinted in its
colour, thick round pipes through the cell centres, a dot on each endpoint, light bars
for walls, a chevron where a path leaves by a warp and where it comes back, and on a
bridge the across pipe passing over the down pipe.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from cpflow.board.geometry import Point, away, centre, extent, outline, shared_side
from cpflow.board.grid import ACROSS, Cell, Colour, Node, Puzzle, Solution, cell_of
from cpflow.pictures.palette import BACKGROUND, RGB, blend, colours

PIPE = 0.36  # pipe width, in cell units
DOT = 0.32  # endpoint radius
TINT = 0.25  # how much of its colour a path's cell takes


@dataclass(frozen=True)
class Pipe:
    """One colour's pipe: a polyline through cell centres."""

    colour: Colour
    rgb: RGB
    points: list[Point]


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
    walls: list[tuple[Point, Point]] = field(default_factory=list)
    pipes: list[Pipe] = field(default_factory=list)
    overpasses: list[Pipe] = field(default_factory=list)  # bridge pipes drawn over the rest
    warps: list[tuple[Point, Point, RGB]] = field(default_factory=list)  # edge point, outward direction, colour
    dots: list[Dot] = field(default_factory=list)
    marks: list[list[Point]] = field(default_factory=list)  # outlines of highlighted cells


def scene(
    puzzle: Puzzle,
    solution: Solution | None = None,
    highlight: Collection[Cell] = (),
    labels: bool = False,
    steps: int | None = None,
) -> Scene:
    """The picture of a board and, if given, a solution; `steps` draws each path's first steps only."""
    width, height = extent(puzzle)
    picture = Scene(width, height)
    rgb = colours(puzzle)
    paths = {
        k: path[: steps + 1] if steps is not None else path for k, path in (solution.paths if solution else {}).items()
    }
    _cells(picture, puzzle, paths, rgb)
    picture.walls = [side for a, b in puzzle.walls() if (side := shared_side(puzzle.shape, a, b))]
    for colour, path in paths.items():
        _pipes(picture, puzzle, colour, rgb[colour], path)
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


def _cells(picture: Scene, puzzle: Puzzle, paths: dict[Colour, tuple[Node, ...]], rgb: dict[Colour, RGB]) -> None:
    """Every cell's outline, tinted with the colour of the path through it (a bridge stays dark)."""
    tint = {cell_of(node): rgb[colour] for colour, path in paths.items() for node in path if len(node) == 2}
    tint.update({cell_of(node): rgb[colour] for colour, ends in puzzle.endpoints.items() for node in ends})
    for cell in puzzle.cells:
        fill = blend(tint[cell], BACKGROUND, TINT) if cell in tint else BACKGROUND
        picture.cells.append((outline(puzzle.shape, cell), fill))


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
    width, height = extent(puzzle)
    picture = Scene(width, height)
    rgb = colours(puzzle)
    _cells(picture, puzzle, {colour: tuple(n for edge in pairs for n in edge) for colour, pairs in edges.items()}, rgb)
    picture.walls = [side for a, b in puzzle.walls() if (side := shared_side(puzzle.shape, a, b))]
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
    whole = Scene(sum(s.width for s in scenes) + gap * (len(scenes) - 1), max(s.height for s in scenes))
    dx = 0.0
    for part in scenes:
        whole.cells += [(_shift(corners, dx), fill) for corners, fill in part.cells]
        whole.walls += [(first, second) for first, second in (_shift(side, dx) for side in part.walls)]
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

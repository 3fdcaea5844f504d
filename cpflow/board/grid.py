"""The puzzle as a graph: nodes, who neighbours whom, and two endpoints per colour.

Glossary
- cell: a place in the board's array, (row, col) from 0 at the top left in code, e.g. (0, 2);
  written for a person from 1 as `r1c3` (`cell_name`).
  A level's cell number is `row * width + col`.
- shape: how the array's cells touch: `square` (four sides) or `hex` (six; flat-topped
  hexagons in columns, even columns half a cell lower than odd ones: "even-q").
- hole: a cell of the array that is not on the board.
- wall: two cells that touch in the array but have no passage between them.
- warp: a passage between two cells that do not touch in the array (e.g. a row's ends).
- bridge: a cell crossed by two paths, one straight across, one straight down; it is
  two nodes, its lanes `(row, col, 0)` (across) and `(row, col, 1)` (down).
- node: what a path steps through: a cell (row, col), or a bridge's lane (row, col, lane).
- colour: the name of one pair of endpoints, e.g. 'R' or '12'.
- endpoint: one of the two nodes a colour's path must join (never a bridge lane).
- path: the nodes of one colour, in order, from its first endpoint to its second.
- solution: one path per colour, covering every node exactly once.
- rules: the default is Flow Free's; `touch` and `blanks` relax them (`Rules`).
- play: the board as a player has drawn it so far: the puzzle and its drawn cells
  (`Puzzle.drawn`), which a solution must keep (`cpflow hint`, `solve --play`).

Engines, the verifier and the workflows see only `nodes` and `neighbours`; the shape
and the array are for reading, writing, drawing and generating, and only this module
works out which cells touch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

Cell = tuple[int, int]  # (row, col), e.g. (0, 2)
Node = tuple[int, ...]  # a cell (row, col), or a bridge lane (row, col, lane), e.g. (2, 3, 1)
Colour = str  # e.g. 'R', or '12' in the header format
Path = tuple[Node, ...]  # e.g. ((0, 0), (0, 1), (1, 1))
Pair = frozenset[Cell]  # two cells, e.g. the two sides of a wall

SHAPES = ("square", "hex")
BOARD_KINDS = ("holes", "walls", "warps", "bridges", "hexagons")  # what a board may have beyond a plain rectangle
MAX_NEIGHBOURS = 255  # a node's most: a board's are 4 to 8, a graph's a few dozen; what the compiled search takes


@dataclass(frozen=True)
class Rules:
    """Which of the game's rules hold. The default is Flow Free's: every node covered, no path
    touching itself. `touch`: paths may run beside themselves (the Numberlink reading);
    `blanks`: nodes may stay empty (the original Numberlink rule)."""

    touch: bool = False
    blanks: bool = False


FLOW = Rules()
ACROSS, DOWN = 0, 1  # a bridge's lanes


@dataclass(frozen=True)
class Puzzle:
    """A board: its nodes, who neighbours whom, and each colour's two endpoints."""

    width: int
    height: int
    endpoints: Mapping[Colour, tuple[Node, Node]]  # in reading order of the file
    neighbours: Mapping[Node, tuple[Node, ...]]  # every node of the board is a key
    shape: str = "square"
    name: str = field(default="", compare=False)
    rules: Rules = FLOW
    # the play: cells drawn so far, which a solution keeps (an endpoint in it is painted over: a mistake, for a hint)
    drawn: Mapping[Node, Colour] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        width: int,
        height: int,
        endpoints: Mapping[Colour, tuple[Cell, Cell]],
        *,
        shape: str = "square",
        holes: Iterable[Cell] = (),
        walls: Iterable[Iterable[Cell]] = (),
        warps: Iterable[Iterable[Cell]] = (),
        bridges: Iterable[Cell] = (),
        name: str = "",
    ) -> Puzzle:
        """A width x height array of the shape, less its holes and walls, plus warps; bridges become lanes.

        Raises ValueError naming the first cell that makes no sense (off the array, a
        hole or bridge used as an endpoint, a cell that is two endpoints, a wall between
        cells that do not touch...).
        """
        if shape not in SHAPES:
            raise ValueError(f"unknown shape {shape!r}; choose from {', '.join(SHAPES)}")
        array = {(r, c) for r in range(height) for c in range(width)}
        holes, bridges = set(holes), set(bridges)
        cells = array - holes
        _check_cells(array, holes | bridges, "is off the board")
        if bridges and shape != "square":
            raise ValueError("bridges stand on square boards only")
        _check_cells(cells, bridges, "is a hole and cannot be a bridge")
        links: dict[Node, set[Node]] = {node: set() for cell in cells for node in _nodes(cell, bridges)}
        for a in sorted(cells):
            for b in lattice(shape, width, height, a):
                if b in cells:
                    links[_toward(a, b, bridges)].add(_toward(b, a, bridges))
        for wall in walls:
            a, b = _pair(wall, cells, "wall")
            if b not in lattice(shape, width, height, a):
                raise ValueError(f"wall between {cell_name(a)} and {cell_name(b)}, which do not touch")
            links[_toward(a, b, bridges)].discard(_toward(b, a, bridges))
            links[_toward(b, a, bridges)].discard(_toward(a, b, bridges))
        for warp in warps:
            a, b = _pair(warp, cells, "warp")
            if a in bridges or b in bridges:
                raise ValueError(f"warp from {cell_name(a)} to {cell_name(b)} ends on a bridge")
            links[a].add(b)
            links[b].add(a)
            crowded = next((cell for cell in (a, b) if len(links[cell]) > MAX_NEIGHBOURS), None)
            if crowded:
                raise ValueError(f"{cell_name(crowded)} has over {MAX_NEIGHBOURS} neighbours, the most a node may have")
        ends = {colour: tuple(pair) for colour, pair in endpoints.items()}
        for colour, pair in ends.items():
            _check_cells(cells, set(pair), f"is an endpoint of {colour!r} but a hole")
            if set(pair) & bridges:
                raise ValueError(f"colour {colour!r} has an endpoint on a bridge")
        check_endpoints(ends)
        neighbours = {node: tuple(sorted(links[node])) for node in sorted(links)}
        pairs = {colour: (first, second) for colour, (first, second) in ends.items()}  # two each, as checked
        return cls(width, height, pairs, neighbours, shape, name)

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Every node, in reading order (a bridge's two lanes together)."""
        return tuple(self.neighbours)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell on the board, in reading order (a bridge once)."""
        return tuple(dict.fromkeys(cell_of(node) for node in self.neighbours))

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(self.endpoints)

    def endpoint_colour(self) -> dict[Node, Colour]:
        """The colour of each endpoint node."""
        return {node: colour for colour, pair in self.endpoints.items() for node in pair}

    def are_neighbours(self, a: Node, b: Node) -> bool:
        return b in self.neighbours.get(a, ())

    def array(self) -> list[list[Cell | None]]:
        """The array row by row, None where a hole is: what a drawing or a text grid walks over."""
        on = set(self.cells)
        return [[(r, c) if (r, c) in on else None for c in range(self.width)] for r in range(self.height)]

    def holes(self) -> list[Cell]:
        """Cells of the array that are not on the board."""
        on = set(self.cells)
        return [(r, c) for r in range(self.height) for c in range(self.width) if (r, c) not in on]

    def bridges(self) -> list[Cell]:
        return [cell_of(node) for node in self.neighbours if len(node) == 3 and node[2] == ACROSS]

    def touches(self, a: Cell, b: Cell) -> bool:
        """Whether two cells touch in the array (whatever walls stand between them)."""
        return b in lattice(self.shape, self.width, self.height, a)

    def passages(self) -> set[Pair]:
        """The pairs of cells a path can step between."""
        return {frozenset((cell_of(a), cell_of(b))) for a, near in self.neighbours.items() for b in near}

    def walls(self) -> list[tuple[Cell, Cell]]:
        """Pairs of cells on the board that touch in the array but have no passage."""
        open_ = self.passages()
        cells = self.cells
        on = set(cells)
        return [
            (a, b)
            for a in cells
            for b in lattice(self.shape, self.width, self.height, a)
            if a < b and b in on and frozenset((a, b)) not in open_
        ]

    def warps(self) -> list[tuple[Cell, Cell]]:
        """Passages between cells that do not touch in the array."""
        pairs = (sorted(pair) for pair in self.passages() if len(pair) == 2)
        found = {(a, b) for a, b in pairs if not self.touches(a, b)}
        return sorted(found)

    def kinds(self) -> list[str]:
        """The board's kinds (BOARD_KINDS), e.g. ["holes", "walls"]; none for a plain square board."""
        found = {
            "holes": bool(self.holes()),
            "walls": bool(self.walls()),
            "warps": bool(self.warps()),
            "bridges": bool(self.bridges()),
            "hexagons": self.shape == "hex",
        }
        return [kind for kind in BOARD_KINDS if found[kind]]

    def is_plain(self) -> bool:
        """A square board with no holes, walls, warps or bridges: what the classic formats can write."""
        return self.shape == "square" and not (self.holes() or self.bridges() or self.walls() or self.warps())


@dataclass(frozen=True)
class Solution:
    """One path per colour, each from the colour's first endpoint to its second; `painted`, when it
    was read from a coloured grid (`read`), is each cell's colour as written (which names a person's
    mistake). It belongs to the paths read with it: `dataclasses.replace` gives new paths none."""

    paths: Mapping[Colour, Path]
    painted: Mapping[Node, Colour] = field(default_factory=dict, compare=False, init=False)

    @classmethod
    def read(cls, paths: Mapping[Colour, Path], painted: Mapping[Node, Colour]) -> Solution:
        """The paths traced through a coloured grid, with each cell's colour as written."""
        solution = cls(paths)
        object.__setattr__(solution, "painted", painted)  # frozen: set once, here
        return solution

    def colour_of(self) -> dict[Node, Colour]:
        """The colour of each covered node (a node in two paths keeps the later one)."""
        return {node: colour for colour, path in self.paths.items() for node in path}


def check_endpoints(endpoints: Mapping[Colour, tuple[Node, ...]]) -> None:
    """Each colour has two endpoints on two nodes, and no node is an endpoint twice; else ValueError."""
    owner: dict[Node, Colour] = {}
    for colour, pair in endpoints.items():
        if len(pair) != 2:
            raise ValueError(f"colour {colour!r} needs two endpoints, has {len(pair)}")
        if pair[0] == pair[1]:
            raise ValueError(f"colour {colour!r} has both endpoints on {describe(pair[0])}")
        for node in pair:
            if node in owner:
                raise ValueError(f"{describe(node)} is an endpoint of both {owner[node]!r} and {colour!r}")
            owner[node] = colour


def differ(first: Solution, second: Solution) -> list[Cell]:
    """The cells two solutions of one puzzle colour differently, in order."""
    one, other = first.colour_of(), second.colour_of()
    return sorted({cell_of(node) for node in one if one[node] != other.get(node)})


def cell_of(node: Node) -> Cell:
    """The cell a node stands on: itself, or a bridge lane's cell."""
    return (node[0], node[1])


def nodes_along(puzzle: Puzzle, cells: list[Cell]) -> tuple[Node, ...]:
    """A path written as cells, as nodes: a bridge cell becomes the lane it is crossed along."""
    bridges = set(puzzle.bridges())
    nodes: list[Node] = []
    for i, cell in enumerate(cells):
        node: Node = cell
        if cell in bridges:
            near = cells[i - 1] if i > 0 else cells[min(i + 1, len(cells) - 1)]
            node = (*cell, ACROSS if near[0] == cell[0] else DOWN)
        nodes.append(node)
    return tuple(nodes)


def cell_name(node: Node) -> str:
    """A node's cell as a person reads it, the one way every command, error and page writes a cell:
    'r3c5' is row 3, column 5, counted from 1 at the top left (node (2, 4)); a bridge's lane is its cell."""
    return f"r{node[0] + 1}c{node[1] + 1}"


def describe(node: Node) -> str:
    """A node in words, for messages: 'r3c4', or 'the down lane of bridge r3c4' (node (2, 3, 1))."""
    if len(node) == 2:
        return cell_name(node)
    return f"the {('across', 'down')[node[2]]} lane of bridge {cell_name(node)}"


def tag(node: Node) -> str:
    """A node as an identifier fragment for model variables: '2_3', or '2_3_1' for a lane."""
    return f"{node[0]}_{node[1]}" if len(node) == 2 else f"{node[0]}_{node[1]}_{node[2]}"


def lattice(shape: str, width: int, height: int, cell: Cell) -> list[Cell]:
    """The cells of the array that touch `cell`, by the shape's rule, in reading order."""
    r, c = cell
    steps: tuple[tuple[int, int], ...]
    if shape == "square":
        steps = ((-1, 0), (0, -1), (0, 1), (1, 0))
    elif c % 2 == 0:  # even columns stand half a cell lower
        steps = ((-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (1, 0))
    else:
        steps = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0))
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < height and 0 <= c + dc < width]


def _nodes(cell: Cell, bridges: set[Cell]) -> list[Node]:
    return [(*cell, ACROSS), (*cell, DOWN)] if cell in bridges else [cell]


def _toward(cell: Cell, other: Cell, bridges: set[Cell]) -> Node:
    """The node of `cell` that a step toward `other` uses: a bridge's lane along that step."""
    if cell not in bridges:
        return cell
    return (*cell, ACROSS if cell[0] == other[0] else DOWN)


def _pair(pair: Iterable[Iterable[int]], cells: set[Cell], what: str) -> tuple[Cell, Cell]:
    a, b = sorted(tuple(cell) for cell in pair)
    _check_cells(cells, {a, b}, f"is an end of a {what} but not on the board")
    if a == b:
        raise ValueError(f"{what} from {cell_name(a)} to itself")
    return cell_of(a), cell_of(b)  # a and b are cells of the board, as checked


def _check_cells(allowed: set[Cell], cells: Iterable[Node], problem: str) -> None:
    for cell in sorted(cells):
        if cell not in allowed:
            raise ValueError(f"{cell_name(cell)} {problem}")


def rings(puzzle: Puzzle, longest: int = 6) -> Iterator[list[Node]]:
    """Short cycles of the graph, each in order: triangles (hex boards) and the cells round
    2x2 blocks (and 2x3, 3x2 ones when `longest` allows) of square boards. One at a time, for
    a builder that looks at its deadline between them: a dense graph has millions of triangles."""
    near = {u: set(ns) for u, ns in puzzle.neighbours.items()}
    for u, ns in near.items():
        for v in ns:
            if u < v:
                yield from ([u, v, w] for w in ns & near[v] if v < w)
    shapes = [shape for shape in BLOCKS if len(shape) <= longest]
    for r, c in puzzle.cells:
        for shape in shapes:
            ring: list[Node] = [(r + dr, c + dc) for dr, dc in shape]
            if all(b in near.get(a, ()) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)):
                yield ring


# Cells round a 2x2, 2x3 and 3x2 block, in ring order, as steps from the block's top-left cell.
BLOCKS = (
    ((0, 0), (0, 1), (1, 1), (1, 0)),
    ((0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)),
    ((0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)),
)

"""The JSON graph format: any board as nodes, edges and endpoints (and a solution's paths).

```json
{"shape": "square", "width": 3, "height": 2,
 "nodes": [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1, 0], [1, 1, 1], [1, 2]],
 "edges": [[[0, 0], [0, 1]], [[1, 0], [1, 1, 0]], ...],
 "endpoints": {"R": [[0, 0], [1, 2]]},
 "paths": {"R": [[0, 0], [0, 1], ...]}}
```
A node is `[row, col]`, or `[row, col, lane]` for a bridge's lane (0 across, 1 down);
row and column place it in the drawing (`shape` says how cells touch there), inside
`width` x `height` when those are given. A cell is one node or a bridge's two lanes.
`edges` are the passages, each once, never from a node to itself; `endpoints` gives
each colour (one word of printable characters) two cells no other colour ends on;
`paths` is optional (a solution). Any graph is allowed: the board need not be one the
game could draw.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection

from cpflow.board.grid import MAX_NEIGHBOURS, SHAPES, Colour, Node, Puzzle, Solution, check_endpoints
from cpflow.board.grids import MAX_CELLS, MAX_SIDE
from cpflow.errors import PuzzleFormatError


def parse_graph(text: str, source: str) -> tuple[Puzzle, Solution | None]:
    """The puzzle of a JSON graph (and its `paths` as a solution, if given)."""
    data = read_json(text, source)
    where = _Where(source, text)
    if not isinstance(data, dict):
        raise where.error("", "a JSON graph is an object with nodes, edges and endpoints")
    shape = data.get("shape", "square")
    if not isinstance(shape, str) or shape not in SHAPES:
        raise where.error("shape", f"unknown shape {_short(shape)}; choose from {', '.join(SHAPES)}")
    links = _nodes(data, where)
    nodes, known = list(links), links.keys()
    _check_lanes(known, where)
    _link(data, links, where)
    endpoints = _endpoints(data, known, where)
    width, height = _size(data, nodes, where)
    neighbours = {node: tuple(sorted(links[node])) for node in sorted(nodes)}
    puzzle = Puzzle(width, height, endpoints, neighbours, shape, source)
    paths = data.get("paths")
    if paths is None:
        return puzzle, None
    if not isinstance(paths, dict):
        raise where.error("paths", "paths is an object: colour -> list of nodes")
    lists = {str(colour): path if isinstance(path, list) else [] for colour, path in paths.items()}
    solution = {colour: tuple(where.node(x, "paths") for x in path) for colour, path in lists.items()}
    return puzzle, Solution(solution)


def read_json(text: str, source: str):
    """The JSON value of a text; PuzzleFormatError where it is not JSON, or JSON Python cannot read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(source, error.lineno, error.colno, f"not JSON: {error.msg}") from None
    except ValueError:  # an integer of over 4300 digits, which Python refuses to read
        raise PuzzleFormatError.whole(source, "not JSON cpflow can read: a number is too long") from None
    except RecursionError:
        raise PuzzleFormatError.whole(source, "not JSON cpflow can read: arrays or objects nested too deep") from None


def _nodes(data: dict, where: _Where) -> dict[Node, set[Node]]:
    """Each node, listed once, in the order listed, with an empty set for its neighbours."""
    links: dict[Node, set[Node]] = {}
    for i, item in enumerate(_list(data, "nodes", where)):
        node = where.node(item, "nodes", at=i)
        if node in links:
            raise where.error("nodes", f"{list(node)} is listed twice among the nodes; a node is listed once", i)
        links[node] = set()
    return links


def _link(data: dict, links: dict[Node, set[Node]], where: _Where) -> None:
    """Each edge's two nodes as each other's neighbours: listed once, never a loop, and no
    node with over MAX_NEIGHBOURS (refused at the edge that passes it, before any more work)."""
    for i, item in enumerate(_list(data, "edges", where)):
        if not isinstance(item, list) or len(item) != 2:
            raise where.error("edges", f"an edge is a pair of nodes, not {_short(item)}", i)
        a, b = (where.node(x, "edges", links, i) for x in item)
        if a == b:
            raise where.error("edges", f"an edge from {list(a)} to itself", i)
        if b in links[a]:
            raise where.error("edges", f"the edge between {list(a)} and {list(b)} is listed twice", i)
        links[a].add(b)
        links[b].add(a)
        crowded = next((node for node in (a, b) if len(links[node]) > MAX_NEIGHBOURS), None)
        if crowded:
            message = f"{list(crowded)} has over {MAX_NEIGHBOURS} neighbours, the most a node may have"
            raise where.error("edges", message, i)


def _check_lanes(known: Collection[Node], where: _Where) -> None:
    """A cell is one node, or a bridge's two lanes: never a cell and a lane, never one lane alone."""
    for r, c, lane in sorted(node for node in known if len(node) == 3):
        if (r, c) in known:
            raise where.error("nodes", f"[{r}, {c}] is a node and a bridge lane at once")
        if (r, c, 1 - lane) not in known:
            raise where.error("nodes", f"bridge [{r}, {c}] has one lane; a bridge is two nodes, lanes 0 and 1")


def _endpoints(data: dict, known: Collection[Node], where: _Where) -> dict[Colour, tuple[Node, Node]]:
    """Each colour's two endpoints: a colour is one word of printable characters, its ends two cells."""
    endpoints = {}
    for colour, pair in _dict(data, "endpoints", where).items():
        if not colour or not colour.isprintable() or any(ch.isspace() for ch in colour):
            raise where.error("endpoints", f"colour {colour!r} is not one word of printable characters")
        ends = tuple(where.node(x, "endpoints", known) for x in (pair if isinstance(pair, list) else [pair]))
        if len(ends) != 2 or any(len(end) != 2 for end in ends):
            raise where.error("endpoints", f"colour {colour!r} needs two endpoints, each a cell [row, col]")
        endpoints[colour] = ends
    if not endpoints:
        raise where.error("endpoints", "no colours: the board has no endpoints")
    try:
        check_endpoints(endpoints)
    except ValueError as error:
        raise where.error("endpoints", str(error)) from None
    return endpoints


def _size(data: dict, nodes: list[Node], where: _Where) -> tuple[int, int]:
    """The array's width and height, as given or just big enough for the nodes: within the limits, nodes inside."""
    size = {"width": 1 + max(node[1] for node in nodes), "height": 1 + max(node[0] for node in nodes)}
    for key in size:
        size[key] = data.get(key, size[key])
        if type(size[key]) is not int or not 1 <= size[key] <= MAX_SIDE:
            raise where.error(key, f"{key} must be a whole number from 1 to {MAX_SIDE}, not {_short(size[key])}")
    width, height = size["width"], size["height"]
    if width * height > MAX_CELLS:
        raise where.error("nodes", f"board of {width}x{height} is over the size limit ({MAX_CELLS} cells)")
    outside = next((node for node in nodes if node[0] >= height or node[1] >= width), None)
    if outside:
        raise where.error("nodes", f"node {list(outside)} is outside the {width}x{height} board")
    return width, height


def write_graph(puzzle: Puzzle, solution: Solution | None = None) -> str:
    """The puzzle (and solution) as a JSON graph; `parse_graph` reads it back."""
    data = {
        "shape": puzzle.shape,
        "width": puzzle.width,
        "height": puzzle.height,
        "nodes": [list(node) for node in puzzle.nodes],
        "edges": [[list(a), list(b)] for a in puzzle.nodes for b in puzzle.neighbours[a] if a < b],
        "endpoints": {colour: [list(a), list(b)] for colour, (a, b) in puzzle.endpoints.items()},
    }
    if solution:
        data["paths"] = {colour: [list(node) for node in path] for colour, path in solution.paths.items()}
    return json.dumps(data) + "\n"


def _list(data: dict, key: str, where: _Where) -> list:
    value = data.get(key)
    if not isinstance(value, list) or (key == "nodes" and not value):
        raise where.error(key, f"{key!r} must be a list" + (" of at least one node" if key == "nodes" else ""))
    return value


def _dict(data: dict, key: str, where: _Where) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise where.error(key, f"{key!r} must be an object: colour -> [node, node]")
    return value


class _Where:
    """Locates a key of the JSON text for error messages (its first mention), or an item of the
    list under it (counted in one pass over the text, made only for the error)."""

    def __init__(self, source: str, text: str):
        self.source, self.text = source, text

    def error(self, key: str, message: str, item: int | None = None) -> PuzzleFormatError:
        at = self.text.find(f'"{key}"') if key else -1
        if at >= 0 and item is not None:
            at = _item_at(self.text, at + len(key) + 2, item, at)
        prefix = self.text[: max(at, 0)]
        line, col = prefix.count("\n") + 1, len(prefix) - (prefix.rfind("\n") + 1) + 1
        return PuzzleFormatError(self.source, line, col, message)

    def node(self, item, key: str, known: Collection[Node] | None = None, at: int | None = None) -> Node:
        """A node as written: whole numbers (not true or false), row and column below MAX_SIDE, lane 0
        or 1 (`at`: its item in the list under `key`, for the error)."""
        ok = isinstance(item, list) and len(item) in (2, 3) and all(type(x) is int and x >= 0 for x in item)
        if not ok or max(item[:2]) >= MAX_SIDE or (len(item) == 3 and item[2] not in (0, 1)):
            raise self.error(key, f"{_short(item)} is not a node [row, col] or [row, col, lane]", at)
        node = tuple(item)
        if known is not None and node not in known:
            raise self.error(key, f"{_short(item)} is not one of the nodes", at)
        return node


# What a scan of JSON text stops at: a string (skipped whole), a bracket or a comma.
_STOPS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},]')
_VALUE = re.compile(r"\S")  # where a value begins, after any space


def _item_at(text: str, start: int, item: int, otherwise: int) -> int:
    """Where the item-th value of the list after `start` (a key's end) begins, else `otherwise`."""
    depth, count, begin = 0, 0, -1
    for stop in _STOPS.finditer(text, start):
        mark = stop[0]
        if mark in ("[", "{"):
            depth += 1
            if depth == 1:
                begin = stop.end()
        elif mark in ("]", "}"):
            depth -= 1
            if depth == 0:
                break
        elif mark == "," and depth == 1:
            count, begin = count + 1, stop.end()
        if depth == 1 and count == item and begin >= 0:
            value = _VALUE.search(text, begin)
            return value.start() if value else begin
    return otherwise


def _short(value) -> str:
    """A JSON value for a message: the start of it, when it is long."""
    try:
        text = json.dumps(value)
    except RecursionError:  # read at the edge of the limit, written from further down the stack
        return "a value nested too deep"
    return text if len(text) <= 60 else text[:57] + "..."

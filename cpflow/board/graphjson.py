"""The JSON graph format: any board as nodes, edges and endpoints (and a solution's paths).

```json
{"shape": "square", "width": 3, "height": 2,
 "nodes": [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1, 0], [1, 1, 1], [1, 2]],
 "edges": [[[0, 0], [0, 1]], [[1, 0], [1, 1, 0]], ...],
 "endpoints": {"R": [[0, 0], [1, 2]]},
 "paths": {"R": [[0, 0], [0, 1], ...]}}
```
A node is `[row, col]`, or `[row, col, lane]` for a bridge's lane (0 across, 1 down);
row and column place it in the drawing (`shape` says how cells touch there). `edges`
are the passages, each once; `paths` is optional (a solution). Any graph is allowed:
the board need not be one the game could draw.
"""

from __future__ import annotations

import json

from cpflow.board.errors import PuzzleFormatError
from cpflow.board.grid import SHAPES, Node, Puzzle, Solution


def parse_graph(text: str, source: str) -> tuple[Puzzle, Solution | None]:
    """The puzzle of a JSON graph (and its `paths` as a solution, if given)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(source, error.lineno, error.colno, f"not JSON: {error.msg}") from None
    where = _Where(source, text)
    if not isinstance(data, dict):
        raise where.error("", "a JSON graph is an object with nodes, edges and endpoints")
    shape = data.get("shape", "square")
    if shape not in SHAPES:
        raise where.error("shape", f"unknown shape {shape!r}; choose from {', '.join(SHAPES)}")
    nodes = [where.node(item, "nodes") for item in _list(data, "nodes", where)]
    known = set(nodes)
    links: dict[Node, set[Node]] = {node: set() for node in nodes}
    for item in _list(data, "edges", where):
        if not isinstance(item, list) or len(item) != 2:
            raise where.error("edges", f"an edge is a pair of nodes, not {json.dumps(item)}")
        a, b = (where.node(x, "edges", known) for x in item)
        links[a].add(b)
        links[b].add(a)
    endpoints = {}
    for colour, pair in _dict(data, "endpoints", where).items():
        ends = tuple(where.node(x, "endpoints", known) for x in (pair if isinstance(pair, list) else [pair]))
        if len(ends) != 2 or any(len(end) != 2 for end in ends):
            raise where.error("endpoints", f"colour {colour!r} needs two endpoints, each a cell [row, col]")
        endpoints[str(colour)] = ends
    if not endpoints:
        raise where.error("endpoints", "no colours: the board has no endpoints")
    width = data.get("width", 1 + max(node[1] for node in nodes))
    height = data.get("height", 1 + max(node[0] for node in nodes))
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
    """Locates a key of the JSON text for error messages (its first mention)."""

    def __init__(self, source: str, text: str):
        self.source, self.text = source, text

    def error(self, key: str, message: str) -> PuzzleFormatError:
        at = self.text.find(f'"{key}"') if key else -1
        prefix = self.text[: max(at, 0)]
        line, col = prefix.count("\n") + 1, len(prefix) - (prefix.rfind("\n") + 1) + 1
        return PuzzleFormatError(self.source, line, col, message)

    def node(self, item, key: str, known: set[Node] | None = None) -> Node:
        ok = isinstance(item, list) and len(item) in (2, 3) and all(isinstance(x, int) and x >= 0 for x in item)
        if not ok or (len(item) == 3 and item[2] not in (0, 1)):
            raise self.error(key, f"{json.dumps(item)} is not a node [row, col] or [row, col, lane]")
        node = tuple(item)
        if known is not None and node not in known:
            raise self.error(key, f"{json.dumps(item)} is not one of the nodes")
        return node

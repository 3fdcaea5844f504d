"""A cover of the board by non-touching paths, as many as a range of colours asks for: winding
paths in tiles of the board, cut wherever they would touch themselves, merged shortest first
(`join`); and `split`, a path cut in two where two solutions differ."""

from __future__ import annotations

from random import Random

from cpflow.board.grid import Cell, Node, Path, Puzzle, cell_of
from cpflow.errors import GenerationFailed
from cpflow.workflows.generate.order import SHORTEST, TRIES, default_colours

ROOMY = 4  # cells in a path not short: shorter ones grow while they can (the game has few)
STRAIGHTEN_AFTER = 10  # covers with too many paths before the next are made straighter
PATIENCE = 4  # a join stops after this many moves per path that left no path fewer
TILE = 14  # side of the tiles a cover's first paths are made in
Kept = frozenset[frozenset[Node]]  # steps no move may break: the warps, so that every puzzle uses its own


def cover(board: Puzzle, colours: tuple[int, int], rng: Random, tries: int = TRIES) -> list[Path]:
    """Non-touching paths of two nodes or more covering the board, between colours[0] and colours[1] of them.

    Winding paths in tiles of the board, cut wherever they would touch themselves, are
    merged down to the wanted count (`pieces`, `join`); merging stops at about one path
    per 11 cells. When that is still too many, each next try uses a little bigger tiles
    and straighter paths, so the count comes down into range (long straight paths in
    the end); a try that left a lone cell or an end on a bridge is made again.
    """
    low, high = colours
    tile, winding = TILE, 2.0
    missed = {"more": 0, "fewer": 0, "board": 0}  # why tries failed: too many paths, too few, a lone cell
    for _ in range(tries):
        paths = join(board, pieces(board, tile, winding, rng), rng.randint(low, high), rng)
        if len(paths) > high:
            missed["more"] += 1
            if missed["more"] > STRAIGHTEN_AFTER:
                tile, winding = tile + 1, winding * 0.8
        elif all(len(path) >= SHORTEST and _can_end(path[0]) and _can_end(path[-1]) for path in paths):
            while len(paths) < low and split(paths, set(board.cells), rng, kept(board)):
                pass
            if len(paths) >= low:
                return [tuple(path) for path in paths]
            missed["fewer"] += 1
        else:
            missed["board"] += 1
    usual_low, usual_high = default_colours(board.width, board.height, len(board.holes()))
    advice = {
        "more": f"allow more colours, e.g. --colours {min(low, usual_low)}-{max(high + 1, usual_high)}",
        "fewer": f"allow fewer colours, e.g. --colours {min(low - 1, usual_low)}-{high}",
        "board": "take out fewer holes or walls",
    }[max(missed, key=missed.__getitem__)]
    raise GenerationFailed(
        f"found no cover of a {board.width}x{board.height} board by {low}-{high} non-touching paths "
        f"in {tries} tries; {advice}"
    )


def pieces(board: Puzzle, tile: int, winding: float, rng: Random) -> list[list[Node]]:
    """Random paths through each tile of the board (about tile x tile cells), cut wherever they would touch themselves,
    and each warp as a piece of two nodes (so that every puzzle made uses its warps).

    Tiles keep big boards from being one long serpentine that backbite moves only
    shuffle near its ends; `winding` is the number of moves per node.
    """
    found = [list(step) for step in map(sorted, kept(board))]  # each warp a piece of its own, which moves keep
    warped = {node for piece in found for node in piece}
    tiles: dict[tuple[int, int], list[Node]] = {}
    for node in board.nodes:
        if node not in warped:
            tiles.setdefault((node[0] // tile, node[1] // tile), []).append(node)
    for key in sorted(tiles):
        for path in serpentine(board, tiles[key], rng):
            found += cut(board, shuffled(board, path, int(winding * len(path)), rng))
    return found


def serpentine(board: Puzzle, nodes: list[Node], rng: Random) -> list[list[Node]]:
    """The nodes in a serpentine order, by rows or by columns at random, cut into runs of neighbours.

    On a whole rectangle of a square or hexagonal board this is one path through every
    cell; holes and walls cut it where the next node is not a neighbour.
    """
    across = rng.random() < 0.5
    key = (
        (lambda n: (n[0], n[1] if n[0] % 2 == 0 else -n[1]))
        if across
        else (lambda n: (n[1], n[0] if n[1] % 2 == 0 else -n[0]))
    )
    runs: list[list[Node]] = []
    for node in sorted(nodes, key=key):
        if runs and board.are_neighbours(runs[-1][-1], node):
            runs[-1].append(node)
        else:
            runs.append([node])
    return runs


def shuffled(board: Puzzle, path: list[Node], moves: int, rng: Random) -> list[Node]:
    """The path through the same nodes after `moves` backbite moves: an end steps to a neighbour
    on the path (not the one before it), and the loop that closes is reversed."""
    path, on = list(path), set(path)
    if len(path) < 3:
        return path
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        options = [n for n in board.neighbours[path[-1]] if n in on and n != path[-2]]
        if options:
            i = path.index(rng.choice(options))
            path[i + 1 :] = path[:i:-1]
    return path


def cut(board: Puzzle, path: list[Node]) -> list[list[Node]]:
    """The path in pieces, cut before any node that would make its piece touch itself."""
    pieces: list[list[Node]] = [[]]
    for node in path:
        piece = pieces[-1]
        if any(board.are_neighbours(node, other) for other in piece[:-1]):
            pieces.append([])
        pieces[-1].append(node)
    return pieces


def join(board: Puzzle, paths: list[list[Node]], target: int, rng: Random) -> list[list[Node]]:
    """The paths merged, shortest first, down to `target` paths, none shorter than ROOMY, or as far as they go.

    A path is joined end to end with a neighbouring path; else, if longer than ROOMY, it
    gives its end node to a neighbouring path's end that is no shorter (one shorter than
    ROOMY takes one instead); else it bites: steps from an end into a neighbouring path
    and takes the part beyond. Every move keeps every path non-touching; gifts let paths
    grow where no two ends meet, and bites move ends to where they may. Stops after a
    budget of moves, or when as many moves again as there are paths brought no path fewer.
    """
    paths = [list(path) for path in paths]
    keep = kept(board)
    stuck: set[tuple[Node, Node, int]] = set()  # (first node, last node, length) of paths that could not move
    budget = 2 * sum(map(len, paths))  # gifts can pass nodes back and forth
    best, since = len(paths), 0
    while (len(paths) > target or any(len(path) < ROOMY for path in paths)) and budget > 0:
        if not _merge_one(board, paths, stuck, rng, keep):
            break
        budget -= 1
        best, since = (len(paths), 0) if len(paths) < best else (best, since + 1)
        if since > PATIENCE * len(paths):
            break
    return paths


def _merge_one(
    board: Puzzle, paths: list[list[Node]], stuck: set[tuple[Node, Node, int]], rng: Random, keep: Kept
) -> bool:
    """One join or gift by the shortest path that can make one; False when none can."""
    owner = {node: i for i, path in enumerate(paths) for node in path}
    for i in sorted(range(len(paths)), key=lambda i: (len(paths[i]), rng.random())):
        path = paths[i]
        if (path[0], path[-1], len(path)) in stuck:
            continue
        ends = (path[0], path[-1])
        near = sorted({owner[n] for end in ends for n in board.neighbours[end] if owner.get(n, i) != i})
        rng.shuffle(near)
        for j in near:
            joined = _joined(board, paths[j], path)
            if joined:
                paths[j] = joined
                del paths[i]
                return True
            if ROOMY < len(path) <= len(paths[j]) and _take(board, paths[j], path, rng, keep):
                return True
            if len(path) < ROOMY < len(paths[j]) and _take(board, path, paths[j], rng, keep):
                return True  # a path too short takes a node: else nodes pass from shorter to longer paths only
        if _bite(board, paths, i, owner, rng, keep):
            return True
        stuck.add((path[0], path[-1], len(path)))
    return False


def _bite(board: Puzzle, paths: list[list[Node]], i: int, owner: dict[Node, int], rng: Random, keep: Kept) -> bool:
    """Path i steps from an end into the middle of a neighbouring path and takes the part beyond,
    if that touches nothing else of it and breaks no step to keep: as many paths as before,
    their ends elsewhere."""
    path, options = paths[i], []
    for own in (path, path[::-1]):
        for node in board.neighbours[own[-1]]:
            j = owner.get(node, i)
            if j != i:
                other, k = paths[j], paths[j].index(node)
                if k > 0:  # takes other[k:], breaking the step other[k - 1], other[k]
                    options.append((own, j, other[k:], other[:k], frozenset(other[k - 1 : k + 1])))
                if k < len(other) - 1:  # takes other[k::-1], breaking the step other[k], other[k + 1]
                    options.append((own, j, other[k::-1], other[k + 1 :], frozenset(other[k : k + 2])))
    rng.shuffle(options)
    for own, j, part, rest, broken in options:
        if broken in keep:
            continue
        taken = set(part)
        if sum(1 for node in own for near in board.neighbours[node] if near in taken) == 1:
            paths[i], paths[j] = own + part, rest
            return True
    return False


def _take(board: Puzzle, taker: list[Node], giver: list[Node], rng: Random, keep: Kept = frozenset()) -> bool:
    """Move an end node of `giver` onto an end of `taker`, if that touches nothing of `taker` and
    breaks no step to keep."""
    for t_end, g_end in rng.sample([(-1, -1), (-1, 0), (0, -1), (0, 0)], 4):
        node, end = giver[g_end], taker[t_end]
        if len(giver) > 1 and frozenset((node, giver[1 if g_end == 0 else -2])) in keep:
            continue
        if board.are_neighbours(node, end) and sum(board.are_neighbours(node, other) for other in taker) == 1:
            giver.pop(g_end)
            if t_end == -1:
                taker.append(node)
            else:
                taker.insert(0, node)
            return True
    return False


def _joined(board: Puzzle, first: list[Node], second: list[Node]) -> list[Node] | None:
    """The two paths as one, end to start, in some orientation, if that touches nowhere else."""
    others = set(second)
    for a in (first, first[::-1]):
        for b in (second, second[::-1]):
            if board.are_neighbours(a[-1], b[0]):
                contacts = sum(1 for node in a for n in board.neighbours[node] if n in others)
                if contacts == 1:
                    return a + b
    return None


def split(paths: list, cells: set[Cell], rng: Random, keep: Kept = frozenset()) -> bool:
    """Split a path next to one of `cells` (where two solutions differ) into two of SHORTEST nodes
    or more, the longer halves preferred, never leaving an end on a bridge nor cutting a step to keep."""
    options = [
        (min(i, len(path) - i), p, i)
        for p, path in enumerate(paths)
        for i in range(SHORTEST, len(path) - SHORTEST + 1)
        if {cell_of(path[i - 1]), cell_of(path[i])} & cells
        and _can_end(path[i - 1])
        and _can_end(path[i])
        and frozenset((path[i - 1], path[i])) not in keep
    ]
    if not options:
        return False
    longest = max(options)[0]
    _, p, i = rng.choice([option for option in options if option[0] > SHORTEST or option[0] == longest])
    paths[p : p + 1] = [paths[p][:i], paths[p][i:]]
    return True


def kept(board: Puzzle) -> Kept:
    """The board's warps, as steps to keep."""
    return frozenset(frozenset(warp) for warp in board.warps())


def _can_end(node: Node) -> bool:
    """Whether a path may end here: anywhere but on a bridge's lane."""
    return len(node) == 2

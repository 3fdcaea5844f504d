"""Making puzzles with a proven unique solution.

Method, on any board (holes, walls, hexagons: it walks the board's graph): the board is
cut into tiles; a random path through each tile (a serpentine shuffled by backbite
moves) is cut wherever it would touch itself, and the pieces are merged
across the board, shortest first, until the wanted number of colours is reached:
a cover of the board by non-touching paths, whose ends become the endpoints. The solver
then looks for a second solution; while there is one, the intended path through a cell
where the two differ is split in two (a new colour there), and the check runs again.
Every puzzle returned was proven unique, and its intended solution passed the verifier.

All randomness comes from the `random.Random` passed in, and the solver runs with a
fixed seed on one worker: same seed, same puzzles. Each board of a pack has its own
`Random`, seeded from the pack's seed and the board's number (`board_seed`), so a pack
is the same made here, on a pool or on a cluster of any size. Effort is capped by counts, not by
the clock, for the same reason.
"""

from __future__ import annotations

import pathlib
import re
import string
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import partial
from random import Random

from cpflow import outputs
from cpflow.board.formats import picture
from cpflow.board.grid import Cell, Node, Path, Puzzle, Rules, Solution, cell_of
from cpflow.board.grids import MAX_CELLS, MAX_SIDE
from cpflow.board.verify import violations
from cpflow.errors import GenerationFailed, InvalidSolution
from cpflow.workflows.batch import Failed, Where, each
from cpflow.workflows.unique import Verdict, uniqueness

TRIES = 1000  # random covers per puzzle, and tries per cover, before giving up
GRADE_TRIES = 300  # covers per puzzle of a grade asked for (each graded by its hint chain)
SHORTEST = 3  # cells in the shortest path made: the game never puts two endpoints side by side
ROOMY = 4  # cells in a path not short: shorter ones grow while they can (the game has few)
STRAIGHTEN_AFTER = 10  # covers with too many paths before the next are made straighter
PATIENCE = 4  # a join stops after this many moves per path that left no path fewer
TILE = 14  # side of the tiles a cover's first paths are made in
CARVINGS = 10  # random holes and walls tried per puzzle before giving up
# The game's letters first; '0' is left out, as a file of letters and '0' reads as the zero format.
GAME = "RBYGOCMmPAWgTbcp"
NAMES = GAME + "".join(c for c in string.ascii_letters + string.digits[1:] if c not in GAME)


@dataclass(frozen=True)
class Order:
    """What to make: puzzles on `board` with between colours[0] and colours[1] colours, `holes`
    cells and `walls` passages taken out at random, `warps` tunnels and `bridges` added at
    random (`carve`), each proven unique within `time_limit` seconds per proof;
    `touch_proof`: unique also when paths may touch themselves; `grade`: of that grade only."""

    board: Puzzle
    colours: tuple[int, int]
    holes: int = 0
    walls: int = 0
    touch_proof: bool = False
    time_limit: float = 60.0
    grade: str | None = None  # one of deduce.hints.GRADES: only puzzles whose hint chain grades so
    warps: int = 0
    bridges: int = 0

    def carves(self) -> bool:
        """Whether each board is carved at random (holes, walls, warps or bridges asked for)."""
        return bool(self.holes or self.walls or self.warps or self.bridges)

    def carve(self, rng: Random) -> Puzzle:
        return carve(self.board, self.holes, self.walls, rng, self.warps, self.bridges)


@dataclass(frozen=True)
class Generated:
    """A puzzle proven unique, its solution, and what it took to make."""

    puzzle: Puzzle
    solution: Solution
    covers: int  # random covers tried
    repairs: int  # paths split to remove second solutions
    seconds: float


def size_of(text: str) -> tuple[int, int]:
    """(width, height) from text such as '7x7' or '12x8'; ValueError unless it is a board of 4 cells
    or more that the readers accept back (MAX_CELLS cells, MAX_SIDE a side)."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or int(match[1]) * int(match[2]) < 4:
        raise ValueError(f"{text!r} is not a size like 7x7 (4 cells at least)")
    width, height = int(match[1]), int(match[2])
    if max(width, height) > MAX_SIDE or width * height > MAX_CELLS:
        raise ValueError(f"{text!r} is over the size limit ({MAX_CELLS} cells, {MAX_SIDE} a side)")
    return width, height


def colour_range(text: str, cells: int) -> tuple[int, int]:
    """(fewest, most) colours from 'K' or 'K-L'; ValueError unless 1 <= K <= L <= cells // SHORTEST."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    low, high = (int(match[1]), int(match[2] or match[1])) if match else (0, 0)
    if not 1 <= low <= high:
        raise ValueError(f"{text!r} is not a number of colours K or a range K-L")
    if high > cells // SHORTEST:
        raise ValueError(
            f"{high} colours need {SHORTEST * high} cells (paths of {SHORTEST} cells at least), "
            f"more than the board's {cells}"
        )
    return low, high


def check_holes(width: int, height: int, holes: int) -> int:
    """The holes asked for, when they leave a board: ValueError unless two colours' paths fit in what stays."""
    stay = 2 * SHORTEST
    most = width * height - stay
    if holes > most:
        raise ValueError(
            f"{holes} holes leave no board of {width}x{height}: at most {max(0, most)} ({stay} cells stay)"
        )
    return holes


def check_bridges(shape: str, bridges: int) -> int:
    """The bridges asked for, when the shape has them: ValueError on a hexagonal board."""
    if bridges and shape != "square":
        raise ValueError("bridges stand on square boards only")
    return bridges


def default_colours(width: int, height: int, holes: int = 0) -> tuple[int, int]:
    """A colour range like the game's: from about the square root of the cell count up.

    The upper end allows one colour per 11 cells on big boards: a cover by well-mixed
    paths that do not touch themselves has about that many (bench/generate.py made
    61-82 colours on 30x30), and asking for fewer straightens the paths into stripes.
    The range is worked out on the whole array, then kept within what the cells left after
    `holes` can hold (SHORTEST cells a colour).
    """
    cells = width * height
    root = cells**0.5
    fewest, most = max(2, round(0.8 * root)), max(3, round(1.2 * root), round(cells / 11))
    most = min(most, (cells - holes) // SHORTEST)
    return min(fewest, most), most


def plain(width: int, height: int, shape: str = "square") -> Puzzle:
    """The empty board a generator fills: every cell of the array, no endpoints yet."""
    return Puzzle.build(width, height, {}, shape=shape)


def carve(board: Puzzle, holes: int, walls: int, rng: Random, warps: int = 0, bridges: int = 0) -> Puzzle:
    """The board with `holes` random cells taken out, `bridges` random cells made bridges (a cell
    with its four neighbours, none beside another bridge), `walls` random passages closed (none
    at a bridge) and `warps` random tunnels across the board (a row's or a column's two end
    cells joined, as the game draws them; a cell in one at most)."""
    cells = list(board.cells)
    for _ in range(TRIES):
        gone = set(rng.sample(cells, min(holes, max(0, len(cells) - 2))))
        crossings = _bridges(board, gone, bridges, rng) if bridges else set()
        open_ = sorted(
            tuple(sorted(pair)) for pair in board.passages() if len(pair) == 2 and not pair & (gone | crossings)
        )
        closed = rng.sample(open_, min(walls, len(open_)))
        tunnels = _warps(board, gone | crossings, warps, rng) if warps else []
        carved = Puzzle.build(
            board.width, board.height, {}, shape=board.shape, holes=gone, walls=closed, warps=tunnels, bridges=crossings
        )
        if all(carved.neighbours.values()):  # no cell cut off on its own
            return carved
    raise GenerationFailed(f"could not carve {holes} holes and {walls} walls without cutting a cell off")


def _bridges(board: Puzzle, gone: set[Cell], count: int, rng: Random) -> set[Cell]:
    """`count` cells whose four neighbours are on the board, none beside another; GenerationFailed
    when the board has too few."""
    on = set(board.cells) - gone
    candidates = [cell for cell in board.cells if cell in on and len(set(_square(board, cell)) & on) == 4]
    chosen: set[Cell] = set()
    for cell in rng.sample(candidates, len(candidates)):
        if len(chosen) < count and not set(_square(board, cell)) & chosen:
            chosen.add(cell)
    if len(chosen) < count:
        raise GenerationFailed(f"room for {len(chosen)} bridges at most on this {board.width}x{board.height} board")
    return chosen


def _square(board: Puzzle, cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] if board.shape == "square" else []


def _warps(board: Puzzle, taken: set[Cell], count: int, rng: Random) -> list[tuple[Cell, Cell]]:
    """`count` pairs of a row's or a column's two end cells, no cell in two; GenerationFailed when
    the board has too few."""
    width, height, on = board.width, board.height, set(board.cells) - taken
    ends = [((r, 0), (r, width - 1)) for r in range(height) if width > 2]
    ends += [((0, c), (height - 1, c)) for c in range(width) if height > 2]
    chosen: list[tuple[Cell, Cell]] = []
    used: set[Cell] = set()
    for a, b in rng.sample(ends, len(ends)):
        if len(chosen) < count and a in on and b in on and not {a, b} & used:
            chosen.append((a, b))
            used |= {a, b}
    if len(chosen) < count:
        raise GenerationFailed(f"room for {len(chosen)} warps at most on this {board.width}x{board.height} board")
    return sorted(chosen)


def generate(order: Order, board: Puzzle, rng: Random, tries: int = TRIES) -> Generated:
    """One puzzle of the order on the board (the order's, carved), proven unique (and of its grade:
    covers are made until one grades so, GRADE_TRIES at most)."""
    began = time.perf_counter()
    tries = min(tries, GRADE_TRIES) if order.grade else tries
    for covers in range(1, tries + 1):
        made = make_unique(order, board, cover(board, order.colours, rng, tries), rng)
        if made and (order.grade is None or _grade(*made[:2]) == order.grade):
            puzzle, solution, repairs = made
            return Generated(puzzle, solution, covers, repairs, time.perf_counter() - began)
    low, high = order.colours
    size = f"{board.width}x{board.height}"
    if order.grade:
        raise GenerationFailed(
            f"no unique {size} puzzle of grade {order.grade} with {low}-{high} colours in {tries} covers; "
            "harder puzzles come more often on bigger boards with fewer colours"
        )
    raise GenerationFailed(f"no unique {size} puzzle with {low}-{high} colours in {tries} covers")


def _grade(puzzle: Puzzle, solution: Solution) -> str | None:
    """The grade of a puzzle's hint chain (deduce.hints), from its solution."""
    from cpflow.workflows.hints import graded

    return graded(puzzle, known=solution).grade


def make_unique(order: Order, board: Puzzle, paths: list[Path], rng: Random) -> tuple[Puzzle, Solution, int] | None:
    """The puzzle of a cover, repaired until unique: (puzzle, solution, repairs), or None.

    While the solver finds a second solution (one that may touch itself, for a touch-proof
    order), a path through a cell where the two differ is split in two. None when that
    would need more than the order's colours, or when a uniqueness proof runs out of time.
    """
    paths, repairs = list(paths), 0
    rules = Rules(touch=order.touch_proof)
    while len(paths) <= order.colours[1]:
        puzzle, solution = puzzle_of(board, paths)
        found = uniqueness(replace(puzzle, rules=rules), time_limit=order.time_limit, workers=1, random_seed=0)
        if found.verdict is Verdict.UNIQUE:
            return puzzle, solution, repairs
        if found.verdict is not Verdict.NOT_UNIQUE or not split(paths, set(found.differences()), rng, _kept(board)):
            return None
        repairs += 1
    return None


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
            while len(paths) < low and split(paths, set(board.cells), rng, _kept(board)):
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
    found = [list(step) for step in map(sorted, _kept(board))]  # each warp a piece of its own, which moves keep
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
    keep = _kept(board)
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


Kept = frozenset[frozenset[Node]]  # steps no move may break: the warps, so that every puzzle uses its own


def _kept(board: Puzzle) -> Kept:
    """The board's warps, as steps to keep."""
    return frozenset(frozenset(warp) for warp in board.warps())


def _can_end(node: Node) -> bool:
    """Whether a path may end here: anywhere but on a bridge's lane."""
    return len(node) == 2


def puzzle_of(board: Puzzle, paths: list[Path]) -> tuple[Puzzle, Solution]:
    """The puzzle whose endpoints are the paths' ends, colours named in reading order."""
    oriented = sorted(path if path[0] < path[-1] else path[::-1] for path in paths)
    names = NAMES if len(oriented) <= len(NAMES) else [str(i) for i in range(1, len(oriented) + 1)]
    solution = Solution({names[i]: path for i, path in enumerate(oriented)})
    puzzle = replace(board, endpoints={k: (p[0], p[-1]) for k, p in solution.paths.items()}, name="")
    found = violations(puzzle, solution)
    if found:
        raise InvalidSolution("generate", found)
    return puzzle, solution


def generate_many(order: Order, count: int, seed: int, where: Where | int = 1) -> Iterator[Generated]:
    """`count` unique puzzles of the order, in order; the same arguments give the same puzzles
    wherever they are made (`where`: here, a pool, a cluster)."""
    made = partial(generate_one, order=order, seed=seed)
    for answer in each(made, range(1, count + 1), where):
        if isinstance(answer, Failed):
            raise GenerationFailed(answer.line)
        yield answer


def generate_one(number: int, order: Order, seed: int) -> Generated:
    """Board `number` (from 1) of the pack made with `seed`: it depends on nothing else, so boards can be
    made apart, in any order."""
    rng = Random(board_seed(seed, number))
    if not order.carves():
        return generate(order, order.board, rng)
    for _ in range(CARVINGS - 1):  # some carvings no cover in the colour range fits: carve again
        try:
            return generate(order, order.carve(rng), rng)
        except GenerationFailed:
            continue
    return generate(order, order.carve(rng), rng)


def board_seed(seed: int, number: int) -> int | str:
    """The seed of board `number` of a pack: the pack's seed for the first board (so a seed's first
    board is what it always was), one derived from both for the others (a string seed is hashed
    by SHA-512: the same in every process, and no two packs' boards share a stream)."""
    return seed if number == 1 else f"cpflow-generate:{seed}:{number}"


def name(width: int, height: int, number: int, prefix: str = "gen") -> str:
    """A collection name such as gen_14x14_03."""
    return f"{prefix}_{width}x{height}_{number:02d}"


def files(directory: pathlib.Path, stem: str) -> tuple[pathlib.Path, pathlib.Path]:
    """Where `save` writes a puzzle and its solution."""
    return directory / f"{stem}.txt", directory / f"{stem}.solution.txt"


def save(
    made: Generated, directory: pathlib.Path, stem: str, group: outputs.Group | None = None
) -> tuple[pathlib.Path, pathlib.Path]:
    """Writes STEM.txt (the puzzle) and STEM.solution.txt (its proven-unique solution), both or
    neither (cpflow.outputs: an interrupt, a full disk), with `group`'s other files when given."""
    puzzle_file, solution_file = files(directory, stem)
    with outputs.together() if group is None else nullcontext(group) as landing:
        landing.write(puzzle_file, picture(made.puzzle))
        landing.write(solution_file, picture(made.puzzle, made.solution))
    return puzzle_file, solution_file

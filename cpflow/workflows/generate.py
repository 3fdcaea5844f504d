"""Making puzzles with a proven unique solution.

Method: the board is cut into tiles; a random Hamiltonian path of each tile (backbite
moves from a serpentine) is cut wherever it would touch itself, and the pieces are
merged across the board, shortest first, until the wanted number of colours is reached:
a cover of the board by non-touching paths, whose ends become the endpoints. The solver
then looks for a second solution; while there is one, the intended path through a cell
where the two differ is split in two (a new colour there), and the check runs again.
Every puzzle returned was proven unique, and its intended solution passed the verifier.

All randomness comes from the `random.Random` passed in, and the solver runs with a
fixed seed on one worker: same seed, same puzzles. Effort is capped by counts, not by
the clock, for the same reason.
"""

from __future__ import annotations

import pathlib
import re
import string
import time
from collections.abc import Iterator
from dataclasses import dataclass
from random import Random

from cpflow.board.errors import GenerationFailed, InvalidSolution
from cpflow.board.formats import picture
from cpflow.board.grid import Cell, Path, Puzzle, Solution
from cpflow.board.verify import violations
from cpflow.workflows.unique import Verdict, uniqueness

TRIES = 1000  # random Hamiltonian paths per cover, and covers per puzzle, before giving up
TILE = 14  # side of the tiles a cover's first paths are made in
# The game's letters first; '0' is left out, as a file of letters and '0' reads as the zero format.
GAME = "RBYGOCMmPAWgTbcp"
NAMES = GAME + "".join(c for c in string.ascii_letters + string.digits[1:] if c not in GAME)


@dataclass(frozen=True)
class Generated:
    """A puzzle proven unique, its solution, and what it took to make."""

    puzzle: Puzzle
    solution: Solution
    covers: int  # random covers tried
    repairs: int  # paths split to remove second solutions
    seconds: float


def size_of(text: str) -> tuple[int, int]:
    """(width, height) from text such as '7x7' or '12x8'; ValueError if it is not a board of 4 cells or more."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or int(match[1]) * int(match[2]) < 4:
        raise ValueError(f"{text!r} is not a size like 7x7 (4 cells at least)")
    return int(match[1]), int(match[2])


def colour_range(text: str, cells: int) -> tuple[int, int]:
    """(fewest, most) colours from 'K' or 'K-L'; ValueError unless 1 <= K <= L <= cells // 2."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    low, high = (int(match[1]), int(match[2] or match[1])) if match else (0, 0)
    if not 1 <= low <= high:
        raise ValueError(f"{text!r} is not a number of colours K or a range K-L")
    if high > cells // 2:
        raise ValueError(f"{high} colours need {2 * high} endpoints, more than the board's {cells} cells")
    return low, high


def default_colours(width: int, height: int) -> tuple[int, int]:
    """A colour range like the game's: from about the square root of the cell count up.

    The upper end allows one colour per 11 cells on big boards: a cover by well-mixed
    paths that do not touch themselves has about that many (bench/generate.py made
    61-82 colours on 30x30), and asking for fewer straightens the paths into stripes.
    """
    cells = width * height
    root = cells**0.5
    return max(2, round(0.8 * root)), max(3, round(1.2 * root), round(cells / 11))


def generate(
    width: int, height: int, colours: tuple[int, int], rng: Random, time_limit: float = 60.0, tries: int = TRIES
) -> Generated:
    """One puzzle of width x height with between colours[0] and colours[1] colours, proven unique."""
    began = time.perf_counter()
    for covers in range(1, tries + 1):
        made = make_unique(width, height, cover(width, height, colours, rng, tries), colours[1], rng, time_limit)
        if made:
            puzzle, solution, repairs = made
            return Generated(puzzle, solution, covers, repairs, time.perf_counter() - began)
    low, high = colours
    raise GenerationFailed(f"no unique {width}x{height} puzzle with {low}-{high} colours in {tries} covers")


def make_unique(
    width: int, height: int, paths: list[Path], most: int, rng: Random, time_limit: float
) -> tuple[Puzzle, Solution, int] | None:
    """The puzzle of a cover, repaired until unique: (puzzle, solution, repairs), or None.

    While the solver finds a second solution, a path through a cell where the two
    differ is split in two. None when that would need more than `most` colours, or
    when a uniqueness proof runs out of time.
    """
    paths, repairs = list(paths), 0
    while len(paths) <= most:
        puzzle, solution = board(width, height, paths)
        found = uniqueness(puzzle, time_limit=time_limit, workers=1, random_seed=0)
        if found.verdict is Verdict.UNIQUE:
            return puzzle, solution, repairs
        if found.verdict is not Verdict.NOT_UNIQUE or not split(paths, set(found.differences()), rng):
            return None
        repairs += 1
    return None


def cover(width: int, height: int, colours: tuple[int, int], rng: Random, tries: int = TRIES) -> list[Path]:
    """Non-touching paths of two cells or more covering the board, between colours[0] and colours[1] of them.

    Winding paths in tiles of the board, cut wherever they would touch themselves, are
    merged down to the wanted count (`pieces`, `join`); merging stops at about one path
    per 11 cells. When that is still too many, each next try uses a little bigger tiles
    and straighter paths, so the count comes down into range (long straight paths in
    the end); a try that failed on a lone cell is made again as it was.
    """
    low, high = colours
    tile, winding = TILE, 2.0
    for _ in range(tries):
        paths = join(pieces(width, height, tile, winding, rng), rng.randint(low, high), rng)
        if len(paths) > high:
            tile, winding = tile + 1, winding * 0.8
        elif all(len(path) >= 2 for path in paths):
            while len(paths) < low and split(paths, {cell for path in paths for cell in path}, rng):
                pass
            if len(paths) >= low:
                return [tuple(path) for path in paths]
    raise GenerationFailed(
        f"found no cover of a {width}x{height} board by {low}-{high} non-touching paths in {tries} tries; "
        "allow more colours"
    )


def pieces(width: int, height: int, tile: int, winding: float, rng: Random) -> list[list[Cell]]:
    """A random Hamiltonian path of each tile (about tile x tile), cut wherever it would touch itself.

    Tiles keep big boards from being one long serpentine that backbite moves only
    shuffle near its ends; `winding` is the number of moves per cell.
    """
    found = []
    for top, rows in _spans(height, tile):
        for left, cols in _spans(width, tile):
            moves = int(winding * rows * cols)
            if rng.random() < 0.5:
                path = [(top + r, left + c) for r, c in hamiltonian_path(cols, rows, moves, rng)]
            else:  # the serpentine the other way round
                path = [(top + r, left + c) for c, r in hamiltonian_path(rows, cols, moves, rng)]
            found += cut(path)
    return found


def _spans(length: int, tile: int) -> list[tuple[int, int]]:
    """(start, size) of near-equal parts of a side, each at most `tile` long."""
    parts = -(-length // max(tile, 1))
    base, extra = divmod(length, parts)
    sizes = [base + (i < extra) for i in range(parts)]
    return [(sum(sizes[:i]), size) for i, size in enumerate(sizes)]


def hamiltonian_path(width: int, height: int, moves: int, rng: Random) -> list[Cell]:
    """A random path through every cell: a serpentine shuffled by `moves` backbite moves."""
    path = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    if len(path) < 3:
        return path
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        (r, c), before = path[-1], path[-2]
        options = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        options = [n for n in options if 0 <= n[0] < height and 0 <= n[1] < width and n != before]
        i = path.index(rng.choice(options))
        path[i + 1 :] = path[:i:-1]
    return path


def cut(path: list[Cell]) -> list[list[Cell]]:
    """The path in pieces, cut before any cell that would make its piece touch itself."""
    pieces: list[list[Cell]] = [[]]
    for cell in path:
        piece = pieces[-1]
        if any(_adjacent(cell, other) for other in piece[:-1]):
            pieces.append([])
        pieces[-1].append(cell)
    return pieces


def join(paths: list[list[Cell]], target: int, rng: Random) -> list[list[Cell]]:
    """The paths merged, shortest first, down to `target` paths or as far as they go.

    A path is joined end to end with a neighbouring path or, if three cells or longer,
    gives its end cell to a neighbouring path's end that is no shorter (a lone cell
    takes one instead); both moves keep every path non-touching, and giving lets paths
    grow where no two ends meet. Stops after a budget of moves too.
    """
    paths, stuck = [list(path) for path in paths], set()
    budget = 2 * sum(map(len, paths))  # gifts can pass cells back and forth
    while (len(paths) > target or any(len(path) < 2 for path in paths)) and budget > 0:
        if not _merge_one(paths, stuck, rng):
            break
        budget -= 1
    return paths


def _merge_one(paths: list[list[Cell]], stuck: set, rng: Random) -> bool:
    """One join or gift by the shortest path that can make one; False when none can."""
    owner = {cell: i for i, path in enumerate(paths) for cell in path}
    for i in sorted(range(len(paths)), key=lambda i: (len(paths[i]), rng.random())):
        path = paths[i]
        if (path[0], path[-1], len(path)) in stuck:
            continue
        near = sorted({owner[n] for end in (path[0], path[-1]) for n in _around(end) if owner.get(n, i) != i})
        rng.shuffle(near)
        for j in near:
            joined = _joined(paths[j], path)
            if joined:
                paths[j] = joined
                del paths[i]
                return True
            if 3 <= len(path) <= len(paths[j]) and _take(paths[j], path, rng):
                return True
            if len(path) == 1 and len(paths[j]) >= 3 and _take(path, paths[j], rng):
                return True  # a lone cell takes a cell: cells pass from shorter to longer paths only
        stuck.add((path[0], path[-1], len(path)))
    return False


def _take(taker: list[Cell], giver: list[Cell], rng: Random) -> bool:
    """Move an end cell of `giver` onto an end of `taker`, if that touches nothing of `taker`."""
    for t_end, g_end in rng.sample([(-1, -1), (-1, 0), (0, -1), (0, 0)], 4):
        cell, end = giver[g_end], taker[t_end]
        if _adjacent(cell, end) and sum(_adjacent(cell, other) for other in taker) == 1:
            giver.pop(g_end)
            if t_end == -1:
                taker.append(cell)
            else:
                taker.insert(0, cell)
            return True
    return False


def _joined(first: list[Cell], second: list[Cell]) -> list[Cell] | None:
    """The two paths as one, end to start, in some orientation, if that touches nowhere else."""
    others = set(second)
    for a in (first, first[::-1]):
        for b in (second, second[::-1]):
            if _adjacent(a[-1], b[0]):
                contacts = sum(1 for cell in a for n in _around(cell) if n in others)
                if contacts == 1:
                    return a + b
    return None


def split(paths: list, cells: set[Cell], rng: Random) -> bool:
    """Split a path next to one of `cells` (where two solutions differ) into two of two cells or more."""
    options = [
        (p, i) for p, path in enumerate(paths) for i in range(2, len(path) - 1) if {path[i - 1], path[i]} & cells
    ]
    if not options:
        return False
    p, i = rng.choice(options)
    paths[p : p + 1] = [paths[p][:i], paths[p][i:]]
    return True


def board(width: int, height: int, paths: list[Path]) -> tuple[Puzzle, Solution]:
    """The puzzle whose endpoints are the paths' ends, colours named in reading order."""
    oriented = sorted(path if path[0] < path[-1] else path[::-1] for path in paths)
    names = NAMES if len(oriented) <= len(NAMES) else [str(i) for i in range(1, len(oriented) + 1)]
    solution = Solution({names[i]: path for i, path in enumerate(oriented)})
    puzzle = Puzzle.build(width, height, {k: (p[0], p[-1]) for k, p in solution.paths.items()})
    found = violations(puzzle, solution)
    if found:
        raise InvalidSolution("generate", found)
    return puzzle, solution


def generate_many(
    width: int, height: int, colours: tuple[int, int], count: int, seed: int, time_limit: float = 60.0
) -> Iterator[Generated]:
    """`count` unique puzzles, one at a time; the same arguments give the same puzzles."""
    rng = Random(seed)
    for _ in range(count):
        yield generate(width, height, colours, rng, time_limit)


def name(width: int, height: int, number: int, prefix: str = "gen") -> str:
    """A collection name such as gen_14x14_03."""
    return f"{prefix}_{width}x{height}_{number:02d}"


def files(directory: pathlib.Path, stem: str) -> tuple[pathlib.Path, pathlib.Path]:
    """Where `save` writes a puzzle and its solution."""
    return directory / f"{stem}.txt", directory / f"{stem}.solution.txt"


def save(made: Generated, directory: pathlib.Path, stem: str) -> tuple[pathlib.Path, pathlib.Path]:
    """Writes STEM.txt (the puzzle) and STEM.solution.txt (its proven-unique solution)."""
    puzzle_file, solution_file = files(directory, stem)
    puzzle_file.write_text(picture(made.puzzle))
    solution_file.write_text(picture(made.puzzle, made.solution))
    return puzzle_file, solution_file


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _around(cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]

"""Carving a board at random: holes and walls taken out, warps and bridges added, no cell cut off."""

from __future__ import annotations

from random import Random

from cpflow.board.grid import Cell, Puzzle
from cpflow.errors import GenerationFailed
from cpflow.workflows.generate.order import TRIES


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

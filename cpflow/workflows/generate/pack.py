"""Packs of puzzles: board N of a pack made from the pack's seed and N alone, so that a pack is the
same made here, on a pool or on a cluster; and the files a puzzle is saved in."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from contextlib import nullcontext
from functools import partial
from random import Random

from cpflow import outputs
from cpflow.board.formats import picture
from cpflow.errors import GenerationFailed
from cpflow.workflows.batch import Failed, Where, each
from cpflow.workflows.generate.carve import carve
from cpflow.workflows.generate.order import Order
from cpflow.workflows.generate.prove import Generated, generate

CARVINGS = 10  # random holes and walls tried per puzzle before giving up


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
    carved = partial(carve, order.board, order.holes, order.walls, rng, order.warps, order.bridges)
    for _ in range(CARVINGS - 1):  # some carvings no cover in the colour range fits: carve again
        try:
            return generate(order, carved(), rng)
        except GenerationFailed:
            continue
    return generate(order, carved(), rng)


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

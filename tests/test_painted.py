"""`Solution.painted` (each cell's colour as a grid wrote it) belongs to the paths read with it: new
paths given by `dataclasses.replace` carry none, so a picture of them draws no stale cells."""

from __future__ import annotations

from dataclasses import replace

from conftest import PUZZLES
from cpflow.board.formats import load, load_solution, parse_solution
from cpflow.board.grid import Solution
from cpflow.board.mistakes import mistakes
from cpflow.pictures.scene import scene


def test_new_paths_given_by_replace_carry_no_painted_cells_and_draw_only_themselves():
    path = PUZZLES / "gen_5x5_01.txt"
    puzzle = load(path)[0]
    whole = load_solution(puzzle, path.with_suffix(".solution.txt"))
    assert len(whole.painted) == puzzle.width * puzzle.height  # read from a coloured grid: every cell
    half = replace(whole, paths={colour: steps[:2] for colour, steps in whole.paths.items()})
    assert half.painted == {}
    assert scene(puzzle, half).cells == scene(puzzle, Solution(half.paths)).cells
    assert scene(puzzle, half).cells != scene(puzzle, whole).cells  # the rest of the grid is not drawn


def test_a_grid_read_keeps_its_colours_so_verify_still_names_a_painted_over_endpoint():
    path = PUZZLES / "gen_5x5_01.txt"
    puzzle = load(path)[0]
    rows = [list(row) for row in path.with_suffix(".solution.txt").read_text().split()]
    rows[2][4] = "Y"  # G's endpoint at r3c5
    read = parse_solution(puzzle, "\n".join("".join(row) for row in rows) + "\n")
    assert read.painted[(2, 4)] == "Y"
    assert mistakes(puzzle, read)[0].located() == "r3c5: G's endpoint, painted Y"

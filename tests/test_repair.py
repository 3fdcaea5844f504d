"""`cpflow fix`: a puzzle with several solutions made unique by one edit, proven after it."""

from __future__ import annotations

import json
import subprocess
import sys
from random import Random

import pytest

from conftest import PUZZLES
from cpflow.board.formats import load
from cpflow.board.grid import Puzzle, cell_of
from cpflow.board.verify import violations
from cpflow.errors import GenerationFailed
from cpflow.workflows.generate.carve import carve
from cpflow.workflows.generate.cover import cover
from cpflow.workflows.generate.order import plain
from cpflow.workflows.generate.prove import puzzle_of
from cpflow.workflows.repair import fix
from cpflow.workflows.unique import Verdict, uniqueness

TWO_SOLUTIONS = PUZZLES / "designs" / "two_solutions_4x4.txt"  # blue and green can trade columns (test_unique's)


def cpflow(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cpflow", *args], capture_output=True, text=True, timeout=120)


def not_unique(walls: int, wanted: int = 3) -> list[Puzzle]:
    """Covers the generator made, left unrepaired, that have more than one solution (7x7)."""
    found, rng = [], Random(walls)
    while len(found) < wanted:
        board_ = carve(plain(7, 7), 0, walls, rng) if walls else plain(7, 7)
        try:
            puzzle, _ = puzzle_of(board_, cover(board_, (4, 8), rng, tries=50))
        except GenerationFailed:
            continue  # walls that leave a cell in a dead end no path of 3 cells can cover
        if uniqueness(puzzle).verdict is Verdict.NOT_UNIQUE:
            found.append(puzzle)
    return found


def one_edit_apart(before: Puzzle, after: Puzzle, kind: str) -> bool:
    """Whether `after` is `before` with exactly one edit of the kind."""
    ends = {c: {cell_of(n) for n in pair} for c, pair in before.endpoints.items()}
    later = {c: {cell_of(n) for n in pair} for c, pair in after.endpoints.items()}
    if kind == "wall":
        return ends == later and len(after.walls()) == len(before.walls()) + 1
    if kind == "move":
        changed = [c for c in ends if ends[c] != later[c]]
        return set(later) == set(ends) and len(changed) == 1 and len(ends[changed[0]] & later[changed[0]]) == 1
    added = set(later) - set(ends)  # a pair: one new colour; one old colour keeps one end and gets a new one
    changed = [c for c in ends if ends[c] != later[c]]
    return len(added) == 1 and len(changed) == 1 and before.neighbours == after.neighbours


def assert_fixed(puzzle: Puzzle) -> str:
    found = fix(puzzle)
    assert found.verdict == "fixed" and found.edit is not None
    proof = uniqueness(found.puzzle)
    assert proof.verdict is Verdict.UNIQUE and proof.solutions == (found.solution,)
    assert violations(found.puzzle, found.solution) == []
    assert one_edit_apart(puzzle, found.puzzle, found.edit.kind), found.edit
    return found.edit.kind


def test_the_two_solution_board_of_the_tests_is_fixed_by_one_edit():
    assert_fixed(load(TWO_SOLUTIONS)[0])


@pytest.mark.parametrize("walls", [0, 6])
def test_generated_boards_with_two_solutions_are_fixed_by_one_edit_each(walls):
    kinds = [assert_fixed(puzzle) for puzzle in not_unique(walls)]
    if walls:
        assert "wall" in kinds  # on a board with walls, a wall is tried first and seldom fails


def test_a_unique_puzzle_needs_no_edit_and_an_unsolvable_one_cannot_be_fixed():
    puzzle = load(PUZZLES / "gen_5x5_01.txt")[0]
    assert fix(puzzle).verdict == "unique" and fix(puzzle).puzzle == puzzle
    assert fix(load(PUZZLES / "unsolvable_6x6.txt")[0]).verdict == "unsolvable"


def test_cli_fix_prints_the_edit_writes_the_puzzle_and_says_so_in_its_exit_code(tmp_path):
    two = TWO_SOLUTIONS
    out = tmp_path / "fixed.txt"
    done = cpflow("fix", str(two), "--out", str(out), "--format", "text")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{two}: not unique; fixed: ")
    (written,) = load(out)
    assert uniqueness(written).verdict is Verdict.UNIQUE
    record = json.loads(cpflow("fix", str(two), "--format", "json").stdout)
    assert record["status"] == "fixed" and record["edit"]["kind"] in ("wall", "move", "pair")
    assert record["puzzle"] == out.read_text() and len(record["paths"]) == len(written.colours)
    unsolvable = cpflow("fix", str(PUZZLES / "unsolvable_6x6.txt"), "--out", str(tmp_path / "none.txt"))
    assert unsolvable.returncode == 1 and not (tmp_path / "none.txt").exists()
    bad = tmp_path / "bad.txt"
    bad.write_text("R.\n.Q\n")
    refused = cpflow("fix", str(bad))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr and len(refused.stderr.splitlines()) == 1

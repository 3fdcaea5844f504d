"""`cpflow fix`: a puzzle with several solutions made unique by one edit, proven after it."""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import time
from random import Random

import pytest

from conftest import PUZZLES
from cpflow.board.formats import load
from cpflow.board.grid import Puzzle, cell_of, differ
from cpflow.board.verify import violations
from cpflow.cli.progress import status_line
from cpflow.errors import GenerationFailed
from cpflow.workflows.generate.carve import carve
from cpflow.workflows.generate.cover import cover
from cpflow.workflows.generate.order import plain
from cpflow.workflows.generate.prove import puzzle_of
from cpflow.workflows.repair import Step, carried_back, carried_over, edits, fix, survives
from cpflow.workflows.unique import Verdict, uniqueness

TWO_SOLUTIONS = PUZZLES / "designs" / "two_solutions_4x4.txt"  # blue and green can trade columns (test_unique's)


def cpflow(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cpflow", *args], capture_output=True, text=True, timeout=120)


@functools.cache
def not_unique(walls: int, wanted: int = 3) -> list[Puzzle]:
    """Covers the generator made, left unrepaired, that have more than one solution (7x7; made once)."""
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


def test_edits_are_where_the_two_solutions_differ_each_keeping_one_and_ruling_out_the_other():
    for walls in (0, 6):
        for puzzle in not_unique(walls)[:2]:
            found = uniqueness(puzzle)
            differ = set(found.differences())
            changed = {c for c in puzzle.colours if differ & {cell_of(n) for n in found.solutions[0].paths[c]}}
            depths = []
            for candidate in edits(puzzle, found):
                cells = set(candidate.edit.cells)
                if candidate.edit.kind == "move":
                    assert candidate.edit.colour in changed and candidate.keeps is None
                    continue
                assert violations(candidate.puzzle, candidate.keeps) == []  # the solution it keeps, verified
                others = [s for s in found.solutions if survives(candidate, puzzle, s)]
                assert others == []  # neither solution survives it as a second one
                if candidate.edit.kind == "wall":
                    assert candidate.edit.cells in found.different_steps()
                else:
                    assert cells & differ
                    depths.append(len(cells & differ))
            assert depths and depths == sorted(depths, reverse=True)  # cuts inside the region first (both cells)


def test_every_proof_is_told_to_the_progress_callback_and_the_library_prints_nothing(capsys):
    steps: list[Step] = []
    found = fix(not_unique(0)[0], progress=steps.append)
    assert found.verdict == "fixed" and capsys.readouterr() == ("", "")
    assert [step.tried for step in steps] == list(range(1, found.tried + 1))
    assert steps[0].edit is None and steps[-1].edit == found.edit
    assert steps[-1].words().startswith(f"fix: proof {found.tried}, ") and found.edit.words() in steps[-1].words()


def test_the_time_limit_is_for_the_whole_repair():
    puzzle = not_unique(0)[0]
    steps: list[Step] = []

    def slow(step: Step) -> None:  # the second proof (the first edit's) starts after the whole limit has passed
        steps.append(step)
        if step.tried == 2:
            time.sleep(0.5)

    found = fix(puzzle, time_limit=0.4, progress=slow)
    assert found.verdict == "unknown" and found.tried == 2 and found.edit is None and found.puzzle == puzzle
    assert found.short_of == "an edit was proven unique"
    assert fix(puzzle, time_limit=1e-9).verdict == "unknown"


def test_cli_fix_out_of_time_says_so_in_one_line_and_exits_3(tmp_path):
    out = tmp_path / "fixed.txt"
    done = cpflow("fix", str(TWO_SOLUTIONS), "--time-limit", "0.000001", "--format", "text", "--out", str(out))
    assert done.returncode == 3 and not out.exists()
    (line,) = done.stdout.splitlines()
    said = "the time limit ran out before it was known whether the puzzle has more than one solution (1 proof, "
    assert line.startswith(f"{TWO_SOLUTIONS}: {said}")  # not "before an edit was proven unique": none was tried
    assert done.stderr == ""  # not a terminal: no progress


def test_progress_is_shown_on_stderr_only_when_it_is_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with status_line("fix") as show:
        assert show is None
    monkeypatch.setattr(sys, "stderr", Terminal())
    with status_line("fix") as show:
        assert show is not None
        show("fix: proof 2, 0.1 s: add a wall between r1c1 and r1c2")


def test_a_solution_carried_over_an_edit_and_back_is_the_same_and_verified():
    puzzle = not_unique(0)[0]
    found = uniqueness(puzzle)
    for candidate in edits(puzzle, found):
        if candidate.edit.kind != "pair":
            continue
        kept = next(s for s in found.solutions if carried_over(candidate, s) is not None)
        over = carried_over(candidate, kept)
        assert violations(candidate.puzzle, over) == [] and not differ(over, candidate.keeps)
        back = carried_back(candidate, puzzle, candidate.keeps)
        assert back is not None and violations(puzzle, back) == [] and not differ(back, kept)

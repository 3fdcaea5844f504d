"""verify names the mistake (issue 38): the cell whose colour breaks a rule and which rule, one line
each, not every rule each broken path then breaks."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from conftest import PUZZLES
from cpflow.board.formats import parse, parse_solution
from cpflow.board.mistakes import is_partial, mistakes

SOLVED = sorted(
    p for p in PUZZLES.glob("gen_*.txt") if not p.name.endswith(".solution.txt") and int(p.name[4:6].rstrip("x")) <= 10
)


def grid_of(name) -> tuple:
    puzzle = parse(name.read_text(), str(name))[0]
    rows = [list(row) for row in name.with_suffix(".solution.txt").read_text().split()]
    return puzzle, rows


@pytest.mark.parametrize("name", SOLVED, ids=lambda p: p.stem)
def test_one_changed_cell_is_named_on_the_first_line(name):
    puzzle, rows = grid_of(name)
    ends = puzzle.endpoint_colour()
    assert mistakes(puzzle, parse_solution(puzzle, "\n".join(map("".join, rows)))) == []
    chosen = random.Random(name.stem)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if (r, c) not in ends]
    for r, c in chosen.sample(cells, 12):
        changed = [row[:] for row in rows]
        changed[r][c] = chosen.choice([k for k in puzzle.colours if k != rows[r][c]])
        found = mistakes(puzzle, parse_solution(puzzle, "\n".join(map("".join, changed))))
        assert found and found[0].node == (r, c), (r, c, [p.located() for p in found])
        assert found[0].located().startswith(f"r{r + 1}c{c + 1}: {changed[r][c]} breaks path {rows[r][c]} here")
        assert len(found) <= 2 and not is_partial(found)


def test_a_painted_over_endpoint_is_named():
    puzzle, rows = grid_of(PUZZLES / "gen_5x5_01.txt")
    (r, c), colour = next(iter(puzzle.endpoint_colour().items()))
    rows[r][c] = next(k for k in puzzle.colours if k != colour)
    found = mistakes(puzzle, parse_solution(puzzle, "\n".join(map("".join, rows))))
    assert found[0].located() == f"r{r + 1}c{c + 1}: {colour}'s endpoint, painted {rows[r][c]}"


def test_a_path_that_touches_itself_is_named_once():
    puzzle = parse("AB.\n...\nA.B\n", "p")[0]
    found = mistakes(puzzle, parse_solution(puzzle, "ABB\nAAB\nAAB\n"))
    assert [p.located() for p in found] == ["r2c1: path A touches itself (beside r3c1)"]


def test_an_unfinished_play_is_partial_and_its_empty_cells_take_one_line():
    puzzle = parse((PUZZLES / "starter_5x5.txt").read_text(), "p")[0]
    found = mistakes(puzzle, parse_solution(puzzle, (PUZZLES / "plays/starter_5x5_mistake.txt").read_text()))
    assert is_partial(found)
    assert sum("no path covers" in p.short for p in found) == 1
    assert "r1c1: empty, where path G breaks" in [p.located() for p in found]


def test_paths_without_a_grid_say_the_cells_no_path_covers_in_one_line():
    puzzle = parse("AB.\n...\nA.B\n", "p")[0]
    solution = parse_solution(puzzle, '{"paths": {"A": [[0, 0], [1, 0], [2, 0]], "B": [[0, 1], [0, 2]]}}')
    assert [p.located() for p in mistakes(puzzle, solution)] == [
        "r1c3: path B stops here, short of its other end",
        "r2c2: no path covers it, nor r2c3, r3c2 or 1 more",
    ]


def test_verify_prints_the_changed_cell_first_and_exits_1(tmp_path):
    puzzle, rows = grid_of(PUZZLES / "gen_7x7_01.txt")
    r, c = next((r, c) for r in range(7) for c in range(7) if (r, c) not in puzzle.endpoint_colour())
    rows[r][c] = next(k for k in puzzle.colours if k != rows[r][c])
    (tmp_path / "s.txt").write_text("\n".join(map("".join, rows)) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "cpflow", "verify", PUZZLES / "gen_7x7_01.txt", tmp_path / "s.txt"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[1].startswith(f"  r{r + 1}c{c + 1}: {rows[r][c]} breaks path")


def test_render_draws_an_unfinished_play_as_partly_drawn_and_exits_0_only_with_partial(tmp_path):
    puzzle, play = PUZZLES / "starter_5x5.txt", PUZZLES / "plays/starter_5x5_mistake.txt"
    out = tmp_path / "play.svg"
    command = [sys.executable, "-m", "cpflow", "render", puzzle, "--solution", play, "--out", out]
    strict = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert strict.returncode == 1 and strict.stdout == f"{out}: 5x5, partly drawn\n" and out.exists()
    assert "r1c1: empty, where path G breaks" in strict.stderr and "(0, 2)" not in strict.stderr
    asked = subprocess.run([*command, "--partial"], capture_output=True, text=True, timeout=60)
    assert (asked.returncode, asked.stdout, asked.stderr) == (0, f"{out}: 5x5, partly drawn\n", "")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("GGYYY\nGOOOB\nRRCOB\nBRCCB\nBBCBB\n")
    broken = subprocess.run([*command[:6], wrong, "--out", out, "--partial"], capture_output=True, text=True)
    assert broken.returncode == 1 and broken.stdout == f"{out}: 5x5, not solved\n"
    assert broken.stderr == f"{wrong}: r5c3: C breaks path B here (path C branches)\n"


@pytest.mark.parametrize("name", ["hex_7x7_01", "hex_7x7_02", "holes_8x8_01", "holes_8x8_02"])
def test_one_changed_cell_is_named_first_on_hexagonal_boards_and_boards_with_holes(name):
    """On a hexagonal board a changed cell can join another colour's path as a detour that touches
    itself: that path is not taken as drawn right."""
    path = PUZZLES / f"{name}.txt"
    puzzle = parse(path.read_text(), str(path))[0]
    lines = path.with_suffix(".solution.txt").read_text().splitlines()  # 'board WxH ...', then the rows
    ends = puzzle.endpoint_colour()
    chosen = random.Random(name)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if lines[1 + r][c] in puzzle.colours]
    for r, c in chosen.sample([cell for cell in cells if cell not in ends], 20):
        changed = list(lines)
        changed[1 + r] = (
            lines[1 + r][:c]
            + chosen.choice([k for k in puzzle.colours if k != lines[1 + r][c]])
            + lines[1 + r][c + 1 :]
        )
        found = mistakes(puzzle, parse_solution(puzzle, "\n".join(changed) + "\n"))
        assert found and found[0].node == (r, c), (r, c, [p.located() for p in found])
        assert found[0].located().startswith(f"r{r + 1}c{c + 1}: ")


def render(*args):
    return subprocess.run([sys.executable, "-m", "cpflow", "render", *map(str, args)], capture_output=True, text=True)


def test_render_draws_a_solution_with_a_colour_the_puzzle_lacks_as_not_solved(tmp_path):
    """A path of a colour not on the board ended the drawing in a KeyError traceback."""
    puzzle, given, out = tmp_path / "p.txt", tmp_path / "s.json", tmp_path / "p.png"
    puzzle.write_text("R.R\n...\n")
    given.write_text('{"paths": {"X": [[0, 0]]}}\n')
    done = render(puzzle, "--solution", given, "--out", out)
    assert (done.returncode, done.stdout) == (1, f"{out}: 3x2, not solved\n") and out.exists()
    assert f"{given}: colour X is not in the puzzle" in done.stderr.splitlines()


def test_render_checks_the_solution_a_level_carries(tmp_path):
    """A level line whose own paths leave cells empty was drawn and said "solved", exit 0."""
    level, out = tmp_path / "l.level", tmp_path / "l.svg"
    level.write_text("3,0,1,1;0,1\n")
    done = render(level, "--out", out)
    assert (done.returncode, done.stdout) == (1, f"{out}: 3x3, partly drawn\n") and out.exists()
    assert done.stderr.startswith(f"{level}: r1c3: no path covers it")


def test_a_level_solution_of_another_size_is_bad_input(tmp_path):
    """A 7x7 level checked as the solution of a 5x5 puzzle was said invalid with cells off the board."""
    level = tmp_path / "l.level"
    level.write_text("7,0,1,1;0,1,2,3,4,5,6\n")
    for done in (
        render(PUZZLES / "starter_5x5.txt", "--solution", level, "--out", tmp_path / "x.svg"),
        subprocess.run(
            [sys.executable, "-m", "cpflow", "verify", PUZZLES / "starter_5x5.txt", level],
            capture_output=True,
            text=True,
        ),
    ):
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"{level}: solution is 7x7, the puzzle 5x5\n")
    assert not (tmp_path / "x.svg").exists()

"""Why a puzzle has no solution: the set found cannot hold (by brute force), and no element can go."""

from __future__ import annotations

import json
import string
import subprocess
import sys
import time
from dataclasses import replace
from itertools import combinations

from brute import brute_solutions, simple_paths
from hypothesis import HealthCheck, assume, example, given, settings
from test_variants import tiny_boards

from conftest import PUZZLES, board
from cpflow.board.formats import load
from cpflow.board.grid import Puzzle, Rules, Solution
from cpflow.board.verify import violations
from cpflow.deduce.sentences import shaped, why_sentence
from cpflow.engines.relaxed import size
from cpflow.engines.why import LARGEST, Why, why

TINY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def meets(puzzle, solution: Solution, connect, cover) -> bool:
    """Whether paths of some colours meet the requirements under the puzzle's touching rule, blanks allowed."""
    drawn = {c: puzzle.endpoints[c] for c in solution.paths}
    relaxed = replace(puzzle, endpoints=drawn, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
    covered = solution.colour_of()
    others = {n for c, pair in puzzle.endpoints.items() if c not in drawn for n in pair}
    return (
        not violations(relaxed, solution)
        and set(connect) <= set(solution.paths)
        and set(cover) <= set(covered)
        and not others & set(covered)
    )


def drawings(puzzle, drawing: list, i: int = 0, used: frozenset = frozenset(), chosen: dict | None = None):
    """Every choice of simple paths for the colours in `drawing`, one after another, sharing no cell."""
    chosen = chosen or {}
    if i == len(drawing):
        yield Solution(dict(chosen))
        return
    start, end = puzzle.endpoints[drawing[i]]
    for path in simple_paths(puzzle, start, end, used):
        yield from drawings(puzzle, drawing, i + 1, used | set(path), {**chosen, drawing[i]: path})


def brute_meets(puzzle, connect, cover) -> bool:
    """Whether any choice of colours and paths meets the requirements (brute force, tiny boards)."""
    optional = [c for c in puzzle.colours if c not in connect]
    return any(
        meets(puzzle, solution, connect, cover)
        for k in range(len(optional) + 1)
        for extra in combinations(optional, k)
        for solution in drawings(puzzle, [*connect, *extra])
    )


# a part whose border is one cell with two neighbours outside: a path passes through it alone
ONE_CELL_PASSAGE = Puzzle(
    width=2,
    height=3,
    endpoints={"R": ((0, 1), (1, 0))},
    neighbours={
        (0, 1): ((1, 1),),
        (1, 0): ((1, 1),),
        (1, 1): ((0, 1), (1, 0), (2, 1)),
        (2, 0): ((2, 1),),
        (2, 1): ((1, 1), (2, 0)),
    },
    shape="square",
    name="tiny",
    rules=Rules(touch=False, blanks=False),
)


@TINY
@given(puzzle=tiny_boards())
@example(puzzle=ONE_CELL_PASSAGE)
def test_the_set_cannot_hold_and_each_element_has_a_witness_without_it(puzzle):
    assume(not any(True for _ in brute_solutions(puzzle)))
    found = why(puzzle, 30)
    assert found is not None and found.minimal
    assert not brute_meets(puzzle, found.connect, found.cover)
    elements = [("connect", c) for c in found.connect] + [("cover", n) for n in found.cover]
    assert set(found.witnesses) == set(elements)
    for (kind, what), witness in found.witnesses.items():
        connect = [c for c in found.connect if (kind, what) != ("connect", c)]
        cover = [n for n in found.cover if (kind, what) != ("cover", n)]
        assert meets(puzzle, witness, connect, cover)


def test_a_solvable_puzzle_has_no_why():
    assert why(load(PUZZLES / "starter_5x5.txt")[0], 30) is None


def test_solve_says_why_in_json_and_text():
    path = str(PUZZLES / "unsolvable_6x6.txt")
    done = subprocess.run([sys.executable, "-m", "cpflow", "solve", path, "-f", "json"], capture_output=True, text=True)
    assert done.returncode == 1
    found = json.loads(done.stdout)["why"]
    assert found["minimal"] and len(found["witnesses"]) == len(found["connect"]) + len(found["cover"])
    text = subprocess.run([sys.executable, "-m", "cpflow", "unique", path], capture_output=True, text=True)
    assert text.returncode == 1
    assert any(line.startswith("why: ") for line in text.stdout.splitlines())
    stars = sum(line.count("*") for line in text.stdout.splitlines())
    assert stars == len(found["cover"])


def rows_board(size: int, swapped: bool = False, pocket: bool = False):
    """A size x size board, each row's colour from its first cell to its last (solvable: straight
    lines); `swapped`: the first two rows' right ends swapped, so their colours cross; `pocket`: the last
    row's colour ends one cell early, leaving the corner a cell no path can pass through."""
    names = string.ascii_letters[:size]
    ends = {name: ((r, 0), (r, size - 1)) for r, name in enumerate(names)}
    if swapped:
        ends[names[0]], ends[names[1]] = ((0, 0), (1, size - 1)), ((1, 0), (0, size - 1))
    if pocket:
        ends[names[-1]] = ((size - 1, 0), (size - 1, size - 2))
    return Puzzle.build(size, size, ends, name="rows")


def witnessed(puzzle, found) -> bool:
    """Each element of the set has a witness that meets the others (checked again here)."""
    elements = [("connect", c) for c in found.connect] + [("cover", n) for n in found.cover]
    return set(found.witnesses) == set(elements) and all(
        meets(
            puzzle,
            witness,
            [c for c in found.connect if (kind, what) != ("connect", c)],
            [n for n in found.cover if (kind, what) != ("cover", n)],
        )
        for (kind, what), witness in found.witnesses.items()
    )


def test_a_board_too_big_for_the_circuit_model_is_explained_whole_by_the_label_model():
    puzzle = rows_board(30, pocket=True)
    assert size(puzzle) > LARGEST  # no per-colour circuit model of the whole board
    found = why(puzzle, 60)
    assert found is not None and found.minimal and found.radius is None  # proven on the whole board
    assert found.cover == ((29, 29),) and not found.connect
    assert witnessed(puzzle, found)


def test_when_the_label_model_proves_nothing_the_parts_where_the_rules_refute_are_tried(monkeypatch):
    from cpflow.engines import relaxed_label as module  # why imports it when it builds a model (no OR-Tools before)

    class Silent(module.RelaxedLabel):
        def solve(self, wanted, deadline):
            return "unknown", None, []

    monkeypatch.setattr(module, "RelaxedLabel", Silent)
    puzzle = rows_board(30, pocket=True)
    found = why(puzzle, 60)
    assert found is not None and found.minimal and found.radius is not None  # proven on a part
    assert found.cover == ((29, 29),) and not found.connect
    assert witnessed(puzzle, found)


def test_the_set_found_on_a_part_is_minimal_with_witnesses():
    (puzzle,) = load(PUZZLES / "unsolvable_6x6.txt")
    found = why(puzzle, 60)
    assert found is not None and found.minimal and witnessed(puzzle, found)
    assert not brute_meets(puzzle, found.connect, found.cover)


def test_a_set_the_time_limit_stopped_is_labelled_and_none_found_is_said(monkeypatch):
    from cpflow.engines import why as module
    from cpflow.results import Status
    from cpflow.workflows import records, unsolvable

    (puzzle,) = load(PUZZLES / "unsolvable_6x6.txt")
    partial = Why((), ((0, 1), (1, 0), (2, 2)), {}, minimal=False)
    monkeypatch.setattr(module, "why", lambda *args: partial)
    reason = unsolvable.explanation(puzzle, Status.UNSOLVABLE, 1)
    assert reason is not None and "(not minimal: the time limit came first" in reason.sentence
    assert records.why(reason)["why"]["minimal"] is False
    monkeypatch.setattr(module, "why", lambda *args: None)
    reason = unsolvable.explanation(puzzle, Status.UNSOLVABLE, 1)
    assert reason is not None and reason.why is None
    assert reason.sentence.startswith("unsolvable; no smallest reason found in ")
    assert records.why(reason) == {"why": {"found": False, "sentence": reason.sentence, "minimal": False}}


WALLED = "AB...\nB....\n.....\n....A\n"
CROSSING = "A.B\n...\nB.A\n"
PARITY = "A..A\nB.CD\nBEDC\nE...\n"


def test_each_shape_is_said_in_one_sentence_with_its_cells():
    walled = board(WALLED)
    found = why(walled, 30)
    assert found is not None and (found.connect, found.cover) == (("A",), ())
    assert shaped(walled, found.connect, found.cover) == (
        "walled in",
        "A is walled in: the ends of B shut r1c1 off from r4c5, even with every other cell empty.",
    )
    kind, said = shaped(board(CROSSING), ["A", "B"], [])
    assert kind == "crossing" and said == (
        "A and B cross: A's r1c1 to r3c3 and B's r1c3 to r3c1 cannot both be drawn, even with every other cell empty."
    )
    kind, said = shaped(board(PARITY), ["A"], [(0, 1), (0, 2), (1, 1)])
    assert kind == "parity" and "r1c2, r1c3 and r2c2" in said and "3 dark and 2 light" in said
    (six,) = load(PUZZLES / "unsolvable_6x6.txt")
    kind, said = shaped(six, ["R"], [(0, 1)])
    assert kind == "too small" and said.startswith("r1c2 cannot be covered while R connects")
    assert shaped(six, [], [(0, 1), (1, 0)]) == ("too small", why_sentence([], [(0, 1), (1, 0)]))


def test_solve_quiet_on_an_unsolvable_50x50_within_its_time_limit(tmp_path):
    """The one timing test issue 39 asks for: `solve -q --time-limit 1` on an unsolvable 50x50 (two
    endpoints swapped) takes under 2 s, the whole process."""
    from cpflow.board.formats import picture

    path = tmp_path / "rows_50x50.txt"
    path.write_text(picture(rows_board(50, swapped=True)))
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "cpflow", "solve", "-q", "--time-limit", "1", str(path)], capture_output=True, text=True
    )
    took = time.monotonic() - began
    assert done.returncode == 1 and done.stdout.split()[1] == "unsolvable"
    assert took < 2, f"{took:.2f} s"


def test_a_set_far_from_minimal_shrinks_in_chunks_not_one_solve_an_element():
    """Redundant elements go many at a time (each chunk twice the last after a set stays infeasible),
    even when every core CP-SAT gives is the whole set it was asked about (no help from the cores)."""
    from cpflow.clock import Deadline
    from cpflow.engines.relaxed_label import RelaxedLabel
    from cpflow.engines.why import _shrunk

    puzzle = rows_board(8, pocket=True)  # the corner (8, 8) alone cannot be covered
    label, solves = RelaxedLabel(puzzle), []

    class Whole:
        opened = False

        def solve(self, wanted, deadline):
            solves.append(len(wanted))
            status, solution, _ = label.solve(wanted, deadline)
            return status, solution, list(wanted) if status == "infeasible" else []

    everything = label.requirements()
    found = _shrunk(puzzle, Whole(), everything, Deadline(60), None)
    assert found.minimal and (found.connect, found.cover) == ((), ((7, 7),)) and witnessed(puzzle, found)
    assert len(solves) < len(everything) // 3, solves

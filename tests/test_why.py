"""Why a puzzle has no solution: the set found cannot hold (by brute force), and no element can go."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from itertools import combinations

from brute import brute_solutions, simple_paths
from hypothesis import HealthCheck, assume, given, settings
from test_variants import tiny_boards

from conftest import PUZZLES
from cpflow.board.formats import load
from cpflow.board.grid import Rules, Solution
from cpflow.board.verify import violations
from cpflow.engines.why import why

TINY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def meets(puzzle, solution: Solution, connect, cover) -> bool:
    """Whether paths of some colours meet the requirements under the usual rules, blanks allowed."""
    drawn = {c: puzzle.endpoints[c] for c in solution.paths}
    relaxed = replace(puzzle, endpoints=drawn, rules=Rules(blanks=True), drawn={})
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


@TINY
@given(puzzle=tiny_boards())
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

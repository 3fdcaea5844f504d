"""`cpflow hint`: every step agrees with the solution, mistakes name the wrong cells, exit codes and JSON."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import PUZZLES, board, needs_variants, needs_zucker, variant_levels, zucker_puzzles
from cpflow.board.formats import load, load_solution, load_with_solutions
from cpflow.board.grid import cell_of
from cpflow.deduce.rulebook import GRADES
from cpflow.deduce.steps import STEP_KINDS, Step
from cpflow.errors import InvalidSolution
from cpflow.results import Status
from cpflow.workflows import hints as hinting
from cpflow.workflows.hints import MISTAKE, SOLVED, STEP, UNSOLVABLE, chain, grade, hint

SMALL = sorted(p for p in PUZZLES.glob("gen_1[024]x*.txt") if not p.name.endswith(".solution.txt"))


def stored(path):
    puzzle = load(path)[0]
    return puzzle, load_solution(puzzle, path.with_suffix(".solution.txt"))


def cpflow(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cpflow", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def assert_chain_reaches(puzzle, solution) -> list:
    """Repeated hints from the bare puzzle reach the solution, every step's cells agreeing with it."""
    colour_of = solution.colour_of()
    found = list(chain(puzzle))
    assert [h.status for h in found] == [STEP] * (len(found) - 1) + [SOLVED]
    for h in found[:-1]:
        assert h.step.cells, "a step colours at least one cell"
        assert all(colour_of[cell] == h.step.colour for cell in h.step.cells), h
        assert h.reason
    final = found[-1].play.drawn
    assert all(final.get(node, colour) == colour for node, colour in colour_of.items() if len(node) == 2)
    return found


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_the_chain_from_the_bare_puzzle_reaches_the_stored_solution(path):
    assert_chain_reaches(*stored(path))


@needs_zucker
@pytest.mark.parametrize("path", zucker_puzzles()[:8], ids=lambda p: p.stem)
def test_the_chain_reaches_the_solution_on_classic_boards(path):
    from cpflow.engines.pipeline import solve

    puzzle = load(path)[0]
    result = solve(puzzle)
    if result.solution is None:
        assert hint(puzzle).status == UNSOLVABLE
    else:
        assert_chain_reaches(puzzle, result.solution)


@needs_variants
@pytest.mark.parametrize("path", variant_levels()[::4], ids=lambda p: p.stem)
def test_the_chain_reaches_the_solution_on_variant_levels(path):
    puzzle, solution = load_with_solutions(path)[0]
    assert_chain_reaches(puzzle, solution)


def test_a_corner_cell_with_two_open_sides_is_a_degree_step_caused_by_the_endpoint_beside_it():
    puzzle = load(PUZZLES / "gen_10x10_01.txt")[0]  # B's endpoint at r2c10 is below the corner r1c10
    first = hint(puzzle)
    assert first.status == STEP and first.step.kind == "degree"
    assert first.step.colour == "B" and set(first.step.cells) == {(0, 9), (0, 8)}
    assert (1, 9) in first.step.because
    assert first.reason == "r1c10 has only two open sides, so the path through it is B's."


def test_a_play_with_one_wrong_cell_is_a_mistake_naming_that_cell():
    path = PUZZLES / "gen_10x10_01.txt"
    puzzle, solution = stored(path)
    colour_of = {node: c for node, c in solution.colour_of().items() if node not in puzzle.endpoint_colour()}
    rng = random.Random(7)
    cells = sorted(colour_of)
    kept = dict(rng.sample([(cell, colour_of[cell]) for cell in cells], 30))
    wrong = next(cell for cell in cells if cell not in kept)
    kept[wrong] = next(c for c in puzzle.colours if c != colour_of[wrong])
    found = hint(replace(puzzle, drawn=kept))
    assert found.status == MISTAKE
    assert found.wrong == (wrong,)
    assert "Take back" in found.reason


def test_a_finished_play_is_solved_and_a_board_without_solution_is_unsolvable():
    puzzle, solution = stored(PUZZLES / "gen_10x10_02.txt")
    whole = {node: c for node, c in solution.colour_of().items() if node not in puzzle.endpoint_colour()}
    assert hint(replace(puzzle, drawn=whole)).status == SOLVED
    impossible = board(
        """
        AB
        BA
        """
    )
    assert hint(impossible).status == UNSOLVABLE


def test_a_step_the_solution_does_not_extend_is_caught(monkeypatch):
    """Every hint is checked like every solution: a wrong step is a bug, never printed."""
    puzzle, solution = stored(PUZZLES / "gen_10x10_01.txt")
    colour_of = solution.colour_of()
    cell = next(node for node in puzzle.nodes if node not in puzzle.endpoint_colour())
    other = next(c for c in puzzle.colours if c != colour_of[cell])
    monkeypatch.setattr(hinting, "next_step", lambda play, known: Step("degree", "degree", other, (cell,), ()))
    with pytest.raises(InvalidSolution):
        hint(puzzle)


@pytest.mark.parametrize("path", SMALL[:6], ids=lambda p: p.name)
def test_the_grade_counts_every_step_by_kind_and_names_the_deepest_reasoning(path):
    found = list(chain(load(path)[0]))
    summary = grade(found)
    assert summary.steps == len(found) - 1 and summary.end == SOLVED
    assert set(summary.kinds) == set(STEP_KINDS)
    steps = [h.step for h in found if h.step]
    assert summary.what_ifs == sum(step.kind == "what if" for step in steps)
    assert summary.depth == max((step.depth for step in steps), default=0)
    deep = "hard" if summary.depth >= 2 else "medium" if summary.what_ifs else "easy"
    expected = "expert" if summary.guesses else deep
    assert summary.grade == expected
    assert all((step.depth > 0) == (step.kind == "what if") for step in steps)


def test_cli_json_step_has_the_documented_fields_and_its_play_extends_to_the_solution():
    path = PUZZLES / "gen_10x10_01.txt"
    puzzle, solution = stored(path)
    done = cpflow("hint", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert set(record) >= {"status", "rule", "colour", "cells", "because", "reason", "play"}
    assert record["status"] == "step" and record["rule"] in STEP_KINDS
    colour_of = {cell_of(node): c for node, c in solution.colour_of().items()}
    assert all(colour_of[tuple(cell)] == record["colour"] for cell in record["cells"])
    assert record["play"][record["cells"][0][0]][record["cells"][0][1]] == record["colour"]


def test_cli_all_prints_one_object_a_line_then_the_summary(tmp_path):
    path = PUZZLES / "gen_10x10_03.txt"
    done = cpflow("hint", str(path), "--all", "-f", "json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    summary = lines[-1]
    assert summary["status"] == "summary" and lines[-2]["status"] == "solved"
    assert sum(summary["steps"].values()) == len(lines) - 2
    assert summary["steps"] == {kind: sum(line.get("rule") == kind for line in lines) for kind in STEP_KINDS}
    assert summary["what_if"] == summary["steps"]["what if"] and summary["guesses"] == summary["steps"]["guess"]
    assert summary["grade"] in ("easy", "medium", "hard", "expert")
    assert summary["depth"] == max((line.get("depth", 0) for line in lines), default=0)


def test_cli_reads_the_play_from_stdin_and_says_a_mistake_with_exit_1():
    path = PUZZLES / "gen_10x10_01.txt"
    puzzle, solution = stored(path)
    rows = [list(row) for row in path.read_text().split()]
    colour_of = solution.colour_of()
    cell = next(node for node in puzzle.nodes if node not in puzzle.endpoint_colour())
    rows[cell[0]][cell[1]] = next(c for c in puzzle.colours if c != colour_of[cell])
    done = cpflow("hint", str(path), "--play", "-", "-f", "json", stdin="\n".join("".join(r) for r in rows) + "\n")
    assert done.returncode == 1, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "mistake" and record["cells"] == [list(cell)]


def test_cli_text_names_the_step_and_draws_the_play():
    path = PUZZLES / "gen_10x10_01.txt"
    done = cpflow("hint", str(path), "--format", "text")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith("step (")
    puzzle = load(path)[0]
    assert len([line for line in lines if len(line) == puzzle.width and " " not in line]) == puzzle.height


def test_cli_bad_play_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "play.txt"
    bad.write_text("Z" * 10 + "\n" + ("." * 10 + "\n") * 9)
    done = cpflow("hint", str(PUZZLES / "gen_10x10_01.txt"), "--play", str(bad))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and str(bad) in done.stderr


@pytest.fixture(scope="module")
def hard_puzzle():
    """A puzzle whose chain needs a what if of depth 2 (made to order, so none is stored)."""
    from cpflow.workflows.generate.order import Order, plain
    from cpflow.workflows.generate.pack import generate_many

    (made,) = generate_many(Order(plain(12, 12), (7, 9), grade="hard"), 1, seed=3)
    return made.puzzle, made.solution


def test_a_what_if_of_depth_2_is_sound_every_alternative_it_rules_out_has_no_solution(hard_puzzle):
    from cpflow.engines.pipeline import solve

    puzzle, solution = hard_puzzle
    found = assert_chain_reaches(puzzle, solution)
    deep = [h for h in found if h.step and h.step.depth == 2]
    assert deep, "the puzzle made to grade hard needs a what if of depth 2"
    for step_hint in deep:
        index = found.index(step_hint)
        play, step = found[index - 1].play if index else puzzle, step_hint.step
        assert "what ifs inside it" in step_hint.reason
        for assumption in step.assumptions:
            if step.origin is None:  # a cell's other colour, assumed
                tried = replace(play, drawn={**play.drawn, step.cells[0]: assumption.colour})
                assert solve(tried).status is Status.UNSOLVABLE


def test_cli_grade_prints_a_line_per_puzzle_and_json_records(tmp_path, hard_puzzle):
    from cpflow.board.formats import picture

    hard = tmp_path / "hard.txt"
    hard.write_text(picture(hard_puzzle[0]))
    done = cpflow("grade", str(PUZZLES / "gen_5x5_01.txt"), str(hard))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"{hard}: hard (") and "depth 2" in lines[1]
    records = [json.loads(line) for line in cpflow("grade", "-f", "json", str(hard)).stdout.splitlines()]
    assert records[0]["grade"] == "hard" and records[0]["depth"] == 2 and records[0]["what_if"] >= 1
    unsolvable = cpflow("grade", "-q", str(PUZZLES / "unsolvable_6x6.txt"))
    assert unsolvable.returncode == 1 and unsolvable.stdout.split()[1] == "unsolvable"
    assert cpflow("grade", str(tmp_path / "missing.txt")).returncode == 2


def test_the_command_line_the_api_and_the_page_offer_the_grades_hints_give():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from cpflow.cli.options import GradeName
    from cpflow.web.app import GenerateAsk, create_app

    assert [grade.value for grade in GradeName] == list(GRADES)
    assert GenerateAsk.model_json_schema()["properties"]["grade"]["anyOf"][0]["enum"] == list(GRADES)
    page = TestClient(create_app(), base_url="http://127.0.0.1:8000").get("/").text
    assert f'"grades": {json.dumps(list(GRADES))}' in page


TWO_SOLUTIONS = PUZZLES / "designs" / "two_solutions_4x4.txt"


def test_a_puzzle_of_two_solutions_is_said_to_have_several_where_a_guess_would_be(tmp_path):
    from cpflow.board.grid import differ
    from cpflow.board.verify import violations
    from cpflow.workflows.hints import NOT_UNIQUE

    puzzle = load(TWO_SOLUTIONS)[0]
    said = hint(puzzle)
    assert said.status == NOT_UNIQUE and said.step is None
    assert "more than one solution" in said.reason and "r1c2" in said.reason
    first, second = said.solutions
    assert not violations(puzzle, first) and not violations(puzzle, second)
    assert set(said.differ) == set(differ(first, second)) and said.differ
    assert grade([said]).grade is None and grade([said]).end == NOT_UNIQUE


def test_cli_hint_and_grade_say_several_solutions_and_exit_1():
    done = cpflow("hint", str(TWO_SOLUTIONS))
    assert done.returncode == 1 and "not-unique: this puzzle has more than one solution" in done.stdout
    record = json.loads(cpflow("hint", "-f", "json", str(TWO_SOLUTIONS)).stdout)
    assert record["status"] == "not-unique" and len(record["solutions"]) == 2 and [0, 1] in record["cells"]
    graded = cpflow("grade", str(TWO_SOLUTIONS), str(PUZZLES / "gen_5x5_01.txt"))
    assert graded.returncode == 1
    assert graded.stdout.splitlines()[0].startswith(f"{TWO_SOLUTIONS}: not-unique")
    assert "expert" not in graded.stdout


def what_ifs_of(path):
    """Each what if of depth 1 in the chain of a puzzle of puzzles/, with every what if that works at its
    rules (the simpler rules first, as the step is chosen)."""
    import functools

    from cpflow.deduce import whatifs
    from cpflow.deduce.rulebook import ALL
    from cpflow.deduce.rules import Graph
    from cpflow.deduce.settle import settle

    puzzle, solution = stored(path)
    before = puzzle
    for found in chain(puzzle, known=solution):
        step = found.step
        if step and step.kind == "what if" and step.depth == 1:
            settled = whatifs.kept(Graph(before).start(), ALL)
            settle(settled)
            assume = functools.partial(whatifs._assume, depth=1)
            every = next(
                f for allow in (0, ALL) if (f := list(whatifs.every_what_if(settled, solution, allow, assume)))
            )
            yield whatifs.WhatIf(step.colour, step.cells, step.origin, step.assumptions), every
        before = found.play


def test_the_what_if_given_has_the_shortest_chain_of_those_that_work():
    seen = 0
    for given, every in what_ifs_of(PUZZLES / "gen_10x10_09.txt"):
        assert given.rank == min(w.rank for w in every)  # the length, a chain cut sooner after the rest
        seen += len({w.rank for w in every}) > 1
    assert seen, "some step had what ifs of different lengths to choose from"


def test_a_what_if_chain_names_only_what_its_contradiction_needs_and_every_link_follows_from_a_rule():
    for given, _ in what_ifs_of(PUZZLES / "gen_10x10_01.txt"):
        for a in given.assumptions:
            assert a.chain[0].rule == "assumed" and len(a.chain) <= a.coloured
            assert all(link.rule != "assumed" for link in a.followed)
            assert all(link.rule in {"degree", "colour", "chamber", "reach", "corner", "touch"} for link in a.followed)


REASONED = [p for p in SMALL + sorted(PUZZLES.glob("holes_*.txt")) + sorted(PUZZLES.glob("hex_*.txt"))]


def test_what_if_reasons_are_at_most_200_characters_on_the_projects_puzzles():
    """The issue's measure (bench/whatifs.py on the game's levels): 95% of what-if reasons within 200."""
    lengths = [
        len(h.reason)
        for path in REASONED
        if not path.name.endswith(".solution.txt")
        for h in assert_chain_reaches(*stored(path))
        if h.step and h.step.kind == "what if"
    ]
    assert len(lengths) >= 20
    assert sum(n <= 200 for n in lengths) >= 0.95 * len(lengths), sorted(lengths)[-10:]


def test_cli_explain_prints_a_what_if_chain_step_by_step_and_json_carries_it():
    path = str(PUZZLES / "gen_10x10_01.txt")
    lines = cpflow("hint", path, "--all", "--explain", "-f", "text").stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "step (what if)" in line)
    shown = lines[start : next(i for i in range(start, len(lines)) if lines[i].startswith("    So "))]
    assert any(line.startswith("    If ") and line.endswith(":") for line in shown)
    assert any(line.startswith("      1. r") and " is " in line for line in shown)
    assert any(line.startswith("      then ") for line in shown)
    records = [json.loads(line) for line in cpflow("hint", path, "--all", "-f", "json").stdout.splitlines()]
    what_if = next(r for r in records if r.get("rule") == "what if")
    for assumed in what_if["assumptions"]:
        assert assumed["chain"][0]["rule"] == "assumed"
        for link in assumed["chain"]:
            assert set(link) == {"cell", "colour", "rule", "says"} and 0 <= min(link["cell"]) <= max(link["cell"]) < 10
        assert assumed["contradiction"]["says"] and assumed["contradiction"]["cells"]
    plain = cpflow("hint", path, "--all", "-f", "text").stdout
    assert "      1. r" not in plain


def test_cli_a_painted_over_endpoint_is_a_mistake_the_hint_names_as_verify_does(tmp_path):
    path = PUZZLES / "gen_5x5_01.txt"  # G's endpoint at r3c5, Y's cells beside it
    rows = [list(row) for row in path.read_text().split()]
    rows[2][4] = "Y"
    play = tmp_path / "play.txt"
    play.write_text("\n".join("".join(row) for row in rows) + "\n")
    done = cpflow("hint", str(path), "--play", str(play))
    assert done.returncode == 1, done.stderr  # a mistake, as docs/commands.md says (bad input would be 2)
    assert done.stdout.startswith("mistake: r3c5") and "G's endpoint r3c5 is painted Y" in done.stdout
    verified = cpflow("verify", str(path), str(play))
    assert verified.returncode == 1 and "r3c5: G's endpoint, painted Y" in verified.stdout
    record = json.loads(cpflow("hint", str(path), "--play", str(play), "-f", "json").stdout)
    assert record["status"] == "mistake" and record["cells"] == [[2, 4]]


def test_a_painted_over_endpoint_and_a_wrong_cell_are_both_taken_back():
    puzzle, solution = stored(PUZZLES / "gen_10x10_01.txt")
    colour_of = solution.colour_of()
    (end, owner) = next(iter(puzzle.endpoint_colour().items()))
    cell = next(node for node in sorted(colour_of) if node not in puzzle.endpoint_colour())
    drawn = {
        end: next(c for c in puzzle.colours if c != owner),
        cell: next(c for c in puzzle.colours if c != colour_of[cell]),
    }
    found = hint(replace(puzzle, drawn=drawn))
    assert found.status == MISTAKE and found.wrong == (end, cell)
    assert f"{owner}'s endpoint" in found.reason and "Take back" in found.reason


def test_cli_text_of_a_not_unique_puzzle_shows_two_solutions_and_where_they_differ():
    from cpflow.board.grid import cell_of, differ

    done = cpflow("hint", str(TWO_SOLUTIONS), "-f", "text")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("not-unique: this puzzle has more than one solution")
    assert "solution 1:" in lines and "solution 2:" in lines and "differences:" in lines
    puzzle = load(TWO_SOLUTIONS)[0]
    grid = lines[lines.index("differences:") + 1 :][: puzzle.height]
    marked = {(r, c) for r, row in enumerate(grid) for c, mark in enumerate(row) if mark == "*"}
    first, second = (lines[lines.index(f"solution {n}:") + 1 :][: puzzle.height] for n in (1, 2))
    assert marked == {(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if first[r][c] != second[r][c]}
    said = hint(puzzle)
    assert marked == {cell_of(node) for node in said.differ} == set(differ(*said.solutions))


def test_a_what_if_too_long_to_say_chain_by_chain_says_where_each_contradiction_is_met():
    from cpflow.deduce.sentences import step_sentence
    from cpflow.deduce.whatifs import Assumption, Conflict, Link

    puzzle = load(PUZZLES / "gen_14x14_08.txt")[0]
    cell, colours = (11, 7), ["R", "P", "W", "g", "B", "Y"]
    assumptions = tuple(
        Assumption(
            colour,
            (Link(cell, colour, "assumed"), *(Link((r, n), colour, "degree", ((r, n),)) for r in range(n + 2))),
            Conflict("touch", ((n, 12), (n, 13)), colour),
        )
        for n, colour in enumerate(colours)
    )
    reason = step_sentence(puzzle, Step("what if", "touch", "C", (cell,), (), None, assumptions))
    assert len(reason) <= 200, reason
    assert reason.startswith("If r12c8 were any other colour") and reason.endswith("So r12c8 is C.")
    assert all(f"r{n + 1}c13" in reason for n in range(len(colours)))

"""The JSON records of answers, the same for every face: `cpflow ... --format json` and the web API.

Cells are `[row, column]` lists; a bridge cell stands in both paths that cross it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpflow.board.formats import drawn_paths, picture, rows
from cpflow.board.grid import Cell, Colour, Node, Puzzle, Solution, cell_of

if TYPE_CHECKING:  # answers' types: a record is made of an answer already there (start-up time)
    from cpflow.board.verify import Problem
    from cpflow.engines.why import Why
    from cpflow.results import SolveResult
    from cpflow.workflows.hints import Grade, Hint
    from cpflow.workflows.repair import Fixed
    from cpflow.workflows.unique import Count, Uniqueness
    from cpflow.workflows.unsolvable import Reason


def solved(source: str, index: int, puzzle: Puzzle, result: SolveResult) -> dict:
    """One solve: where from, size, status, time, paths and grid."""
    return {
        **_where(source, index, puzzle),
        "status": result.status.value,
        "seconds": round(result.seconds, 6),
        **(solution(puzzle, result.solution) if result.solution else {"paths": {}, "grid": rows(puzzle)}),
    }


def uniqueness(source: str, index: int, puzzle: Puzzle, found: Uniqueness) -> dict:
    """A uniqueness check: verdict, time, every solution found, where they differ."""
    return {
        **_where(source, index, puzzle),
        "verdict": found.verdict.value,
        "seconds": round(found.seconds, 6),
        "solutions": [solution(puzzle, one) for one in found.solutions],
        "differences": [list(cell) for cell in found.differences()],
        "different_steps": [[list(cell_of(a)), list(cell_of(b))] for a, b in found.different_steps()],
    }


def counted(source: str, index: int, found: Count) -> dict:
    """A count: how many solutions, whether that is all of them, and the time taken."""
    seconds = round(found.seconds, 6)
    return {"file": source, "index": index, "count": found.number, "exact": found.exact, "seconds": seconds}


def generated(puzzle: Puzzle, found: Solution, seed: int, seconds: float) -> dict:
    """A generated puzzle: its size and colours, the seed that makes it again, the time, its solution."""
    size = {"width": puzzle.width, "height": puzzle.height, "colours": len(puzzle.colours)}
    return {**size, "seed": seed, "seconds": round(seconds, 6), **solution(puzzle, found)}


def solution(puzzle: Puzzle, found: Solution) -> dict:
    """A solution's paths, cell by cell, and the board's rows coloured by it."""
    return {
        "paths": {colour: [list(cell_of(node)) for node in path] for colour, path in found.paths.items()},
        "grid": rows(puzzle, found),
    }


def verified(source: str, index: int, puzzle: Puzzle, broken: Sequence[Problem]) -> dict:
    """A solution checked: `valid`, and its mistakes, the one that explains the most first, each with
    its cell (`[row, column]`, or null for the whole board) and the line `cpflow verify` prints."""
    said = [{"cell": None if p.node is None else list(cell_of(p.node)), "line": p.located()} for p in broken]
    return _where(source, index, puzzle) | {"valid": not broken, "mistakes": said}


def imported(
    source: str, puzzle: Puzzle, drawn: dict[Node, Colour], unsure: Sequence[Cell], sure: dict[Cell, float]
) -> dict:
    """A screenshot read: where from, size, the puzzle as text, the play (`[row, column, colour]` per cell
    a pipe is drawn through, `[row, column, lane, colour]` per lane of a bridge), the cells whose pipe the
    reading left out (`unsure`), and how sure it was of each cell (`confidence`: `[row, column, value]`,
    0 to 1, one a cell of the lattice read, in reading order; `least_confidence`, the lowest)."""
    return {
        **_where(source, 1, puzzle),
        "text": picture(puzzle),
        "play": [[*node, colour] for node, colour in sorted(drawn.items())],
        "unsure": [list(cell) for cell in unsure],
        "confidence": [[*cell, value] for cell, value in sorted(sure.items())],
        "least_confidence": min(sure.values(), default=1.0),
    }


def _where(source: str, index: int, puzzle: Puzzle) -> dict:
    """What every record starts with: where the puzzle is from, and its size."""
    return {"file": source, "index": index, "width": puzzle.width, "height": puzzle.height}


def hinted(found: Hint) -> dict:
    """A hint: its status, and for a step the rule, colour, cells, the cells that force it and
    why (for a what if, its chains to play cell by cell: `assumed`); for a mistake
    the cells to take back; for a puzzle of several solutions, two and the cells where they differ;
    for an unsolvable one its `why`, as solve's record has it; the play's rows (after the step)."""
    record: dict = {"status": found.status}
    if found.step:
        step = found.step
        record |= {
            "rule": step.kind,
            "colour": step.colour,
            "cells": _cells(step.cells),
            "because": _cells(step.because),
        }
        if step.by is not None:
            record["by"] = step.by
        if step.assumptions:
            record |= {"depth": step.depth, "assumptions": assumed(found)}
    if found.wrong or found.differ:
        record["cells"] = _cells(found.wrong or found.differ)
    if found.solutions:
        record["solutions"] = [solution(found.play, one) for one in found.solutions]
    record |= why(found.why)
    return record | {"reason": found.reason, "play": play_rows(found.play)}


def assumed(found: Hint) -> list[dict]:
    """A what if's alternatives, each with its chain to play cell by cell: each cell the rules colour,
    its colour, the rule and what it says (a path piece joined between two empty cells: its cell `to` the
    other, colour null), then the contradiction they meet and what it says."""
    from cpflow.deduce.sentences import contradiction, link_words

    assert found.step is not None  # a what if's hint

    return [
        {
            **({"toward": list(cell_of(a.toward))} if a.toward else {"colour": a.colour}),
            "chain": [
                {"cell": list(cell_of(link.node)), "colour": link.colour or None, "rule": link.rule}
                | ({"to": list(cell_of(link.to))} if link.to is not None else {})
                | {"says": link_words(link, a.chain[:number])}
                for number, link in enumerate(a.chain)
            ],
            "contradiction": {
                "rule": a.conflict.rule,
                "cells": _cells(a.conflict.nodes),
                "says": contradiction(a.conflict),
            },
        }
        for a in found.step.assumptions
    ]


def graded(found: Grade) -> dict:
    """A chain's summary: steps of each kind (by the rule a hint names), what ifs, guesses, the
    deepest what if, and the grade."""
    return {
        "status": "summary" if found.grade else found.end,
        "steps": found.kinds,
        "what_if": found.what_ifs,
        "guesses": found.guesses,
        "depth": found.depth,
        "grade": found.grade,
    }


def puzzle_graded(source: str, index: int, puzzle: Puzzle, found: Grade) -> dict:
    """`cpflow grade`'s record: where the puzzle is from, its chain's summary, and the seconds taken."""
    return {**_where(source, index, puzzle), **graded(found), "seconds": round(found.seconds, 6)}


def fixed(source: str, index: int, puzzle: Puzzle, found: Fixed) -> dict:
    """`cpflow fix`'s record: the verdict, the edit (or null), the puzzle after it as text, its
    solution when it has exactly one, the proofs tried and the seconds taken."""
    from cpflow.board.formats import picture

    edit: dict | None = None
    if found.edit:
        kind, cells = found.edit.kind, [list(cell) for cell in found.edit.cells]
        edit = {"kind": kind, "colour": found.edit.colour or None, "cells": cells, "words": found.edit.words()}
        if found.edit.new_colour:
            old_end = list(found.edit.old_end) if found.edit.old_end else None
            edit |= {"new_colour": found.edit.new_colour, "old_end": old_end}
    record = {**_where(source, index, puzzle), "status": found.verdict, "edit": edit, "puzzle": picture(found.puzzle)}
    if found.solution:
        record |= solution(found.puzzle, found.solution)
    return record | {"tried": found.tried, "seconds": round(found.seconds, 6)}


def play_rows(play: Puzzle) -> list[str]:
    """A play's rows as text: the board's, its coloured cells shown."""
    return rows(play, drawn_paths(play))


def _cells(nodes) -> list[list[int]]:
    return [list(cell) for cell in dict.fromkeys(cell_of(node) for node in nodes)]


def why(reason: Reason | None) -> dict:
    """What a record of an unsolvable puzzle adds: `why`, when an explanation was looked for: the set
    and its witnesses (`explained`), its sentence, its shape (`kind`, "" for none) and the cells to
    draw (`cells`: those to cover and the ends of the colours to connect), `found` true; or, when none
    was found in time, `found` false and the sentence that says so."""
    if reason is None:
        return {}
    if reason.why is None:
        return {"why": {"found": False, "sentence": reason.sentence, "minimal": False}}
    cells = [list(cell) for cell in reason.cells]
    said = {"sentence": reason.sentence, "kind": reason.kind, "cells": cells, "found": True}
    return {"why": explained(reason.why) | said}


def explained(found: Why) -> dict:
    """Why a puzzle has no solution: the requirements that cannot hold together, and a witness for
    each (a solution of the others, which shows the set is minimal)."""
    from cpflow.deduce.sentences import why_sentence

    return {
        "connect": list(found.connect),
        "cover": _cells(found.cover),
        "sentence": why_sentence(found.connect, found.cover),
        "witnesses": [
            {
                "drop": {kind: what if isinstance(what, str) else list(cell_of(what))},
                "paths": {c: [list(cell_of(n)) for n in path] for c, path in witness.paths.items()},
            }
            for (kind, what), witness in found.witnesses.items()
        ],
        "minimal": found.minimal,
    }

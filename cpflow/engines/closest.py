"""The solution closest to a play: the fewest of the player's cells changed (for `cpflow hint`).

A play that no solution extends is a mistake; the cells to take back are those this
solution colours otherwise. The label model (models/label.md) of the bare puzzle,
built without the play, is asked to maximise the play's cells that keep their colour. Without
OR-Tools (in the browser) it is the default engine's solution, not proven the closest (`optimal`
False): on a puzzle with one solution, the same.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from cpflow.board.grid import Colour, Node, Puzzle, Solution
from cpflow.clock import Deadline, OutOfTime
from cpflow.results import Status


@dataclass(frozen=True)
class Closest:
    """A solution and the play's cells it colours otherwise; `optimal` when proven fewest.
    No solution (`status` unsolvable or unknown) when the bare puzzle has none or time ran out."""

    status: Status
    solution: Solution | None
    changed: tuple[Node, ...]
    optimal: bool


def closest(puzzle: Puzzle, play: Mapping[Node, Colour], time_limit: float | None = None) -> Closest:
    """The solution of `puzzle` (its own drawn cells ignored) that changes the fewest cells of `play`."""
    from cpflow.engines.catalog import ENGINES

    if not ENGINES["cpsat"].available():
        return _any_solution(replace(puzzle, drawn={}), play, time_limit)
    from cpflow.engines import label
    from cpflow.engines.cp_model import cp_model
    from cpflow.engines.cpsat_solver import PARAMS, run

    began = time.perf_counter()
    deadline = Deadline(time_limit, began)
    bare = replace(puzzle, drawn={})
    try:
        model, v = label.build(bare, deadline)
    except OutOfTime:
        return Closest(Status.UNKNOWN, None, (), False)
    if v.reason:
        return Closest(Status.UNSOLVABLE, None, (), True)
    kept = []
    for node, colour in play.items():
        same = model.new_bool_var(f"keeps_{node}")
        model.add(v.label[node] == v.number[colour]).only_enforce_if(same)
        kept.append(same)
    model.maximize(sum(kept))
    params = {**PARAMS["label"], "search_branching": cp_model.AUTOMATIC_SEARCH}
    solver, native = run(model, deadline, params)
    if native not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = Status.UNSOLVABLE if native == cp_model.INFEASIBLE else Status.UNKNOWN
        return Closest(status, None, (), native == cp_model.INFEASIBLE)
    solution = v.extract(solver)
    colour_of = solution.colour_of()
    changed = tuple(node for node, colour in play.items() if colour_of.get(node) != colour)
    return Closest(Status.SOLVED, solution, changed, native == cp_model.OPTIMAL)


def _any_solution(bare: Puzzle, play: Mapping[Node, Colour], time_limit: float | None) -> Closest:
    """The default engine's solution of the bare puzzle and the play's cells it colours otherwise."""
    from cpflow.engines.pipeline import solve

    found = solve(bare, time_limit=time_limit)
    if found.solution is None:
        return Closest(found.status, None, (), found.status is Status.UNSOLVABLE)
    colour_of = found.solution.colour_of()
    changed = tuple(node for node, colour in play.items() if colour_of.get(node) != colour)
    return Closest(Status.SOLVED, found.solution, changed, False)

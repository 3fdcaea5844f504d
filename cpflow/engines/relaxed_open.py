"""The relaxed model of why on an open window: a proof for the whole board from a part of it.

The requirements are cpflow.engines.relaxed's (models/why.md). The window is a set of nodes; paths
may leave it at its border and come back as often as they like. The label formulation
(cpflow.engines.relaxed_label) over the window's nodes alone, with one node for all the board
outside (the depot of CP-SAT's `add_multiple_circuit`: every route starts and ends there):
- `visited[u]` for the window's nodes; an endpoint's is `connect[k]` of its colour (a colour with
  an endpoint inside has one), `cover[u] => visited[u]`;
- arcs between neighbours inside (none out of an end, none into a start), from the outside into
  any border node and out of any border node, and for a colour that connects, the outside into its
  start and out of its end; a node off the paths loops on itself;
- `label[u]` (any colour that may reach u on the board) copied along the arcs inside, an
  endpoint's its colour's; neighbours inside joined by no step differ when both are visited (no
  touching), degrees counting the steps outside, the short rings inside.
Every solution of the board restricted to the window is a solution of this model (a path leaving
and coming back is two routes through the outside; a colour with both endpoints outside is its
own label), so requirements that cannot hold here cannot hold on the board: a proof, with a core
of requirements alone. Its solutions are no witnesses (not given). It grows with the window, not
the board: a window of a few hundred nodes builds and solves in milliseconds on a 50x50 board.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from cpflow.board.grid import Node, Puzzle, Rules, rings, tag
from cpflow.clock import NEVER, Deadline
from cpflow.engines.cp_model import cp_model
from cpflow.engines.prune import domains
from cpflow.engines.relaxed import Requirement


class RelaxedOpen:
    """The label model of an open window, the requirements inside it as assumption literals."""

    opened = True  # its solutions are not the board's: no witnesses

    def __init__(self, puzzle: Puzzle, window: Collection[Node], deadline: Deadline = NEVER, reach=None):
        """The model over `window` (`reach`: the board's colour domains, computed if not given);
        OutOfTime when the deadline passes while it is built."""
        self.puzzle, self.window = puzzle, frozenset(window)
        inside = self.window
        if reach is None:
            board = replace(puzzle, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
            reach = domains(board, deadline)
        model = self.model = cp_model.CpModel()
        owner = puzzle.endpoint_colour()
        number = {c: i for i, c in enumerate(puzzle.colours)}
        nodes = [n for n in puzzle.nodes if n in inside]
        border = {n for n in nodes if any(w not in inside for w in puzzle.neighbours[n])}
        here = {c for c, pair in puzzle.endpoints.items() if pair[0] in inside or pair[1] in inside}
        self.connect = {c: model.new_bool_var(f"connect_{c}") for c in puzzle.colours if c in here}
        self.cover = {}
        visited, label = {}, {}
        for n in nodes:
            deadline.check()
            if n in owner:
                visited[n], values = self.connect[owner[n]], [number[owner[n]]]
            else:
                visited[n] = model.new_bool_var(f"visited_{tag(n)}")
                values = sorted(number[c] for c, may in reach.items() if n in may) or [-1]
                if not puzzle.rules.blanks:
                    self.cover[n] = model.new_bool_var(f"cover_{tag(n)}")
                    model.add_implication(self.cover[n], visited[n])
                if values == [-1]:
                    model.add(visited[n] == 0)
            label[n] = model.new_int_var_from_domain(cp_model.Domain.from_values(values), f"label_{tag(n)}")
        starts = {pair[0] for pair in puzzle.endpoints.values()}
        ends = {pair[1] for pair in puzzle.endpoints.values()}
        index = {n: i + 1 for i, n in enumerate(nodes)}  # 0: the board outside the window
        arcs: list[cp_model.ArcT] = []
        joined: dict[tuple[Node, Node], list] = {}
        degree: dict[Node, list] = {n: [] for n in nodes}
        for u in nodes:
            deadline.check()
            for w in puzzle.neighbours[u]:
                if w in inside and u not in ends and w not in starts:
                    arc = model.new_bool_var(f"arc_{tag(u)}_{tag(w)}")
                    arcs.append((index[u], index[w], arc))
                    model.add(label[u] == label[w]).only_enforce_if(arc)
                    joined.setdefault((u, w) if u < w else (w, u), []).append(arc)
            if u in border:  # a path leaving the window, or coming in
                if u not in ends:
                    leave = model.new_bool_var(f"leave_{tag(u)}")
                    arcs.append((index[u], 0, leave))
                    degree[u].append(leave)
                if u not in starts:
                    enter = model.new_bool_var(f"enter_{tag(u)}")
                    arcs.append((0, index[u], enter))
                    degree[u].append(enter)
            if u in starts and u in owner:
                arcs.append((0, index[u], self.connect[owner[u]]))  # a path begins: not a step
            if u in ends and u in owner:
                arcs.append((index[u], 0, self.connect[owner[u]]))
            arcs.append((index[u], index[u], ~visited[u]))
        spare = len(nodes) + 1  # a node that may go round the outside alone: the outside always has arcs
        round_trip = model.new_bool_var("round_trip")
        arcs += [(0, spare, round_trip), (spare, 0, round_trip), (spare, spare, ~round_trip)]
        model.add_multiple_circuit(arcs)
        for (u, w), steps in joined.items():
            deadline.check()
            step = model.new_bool_var(f"joined_{tag(u)}_{tag(w)}")
            model.add(sum(steps) == step)
            degree[u].append(step)
            degree[w].append(step)
            joined[u, w] = [step]
            if not puzzle.rules.touch:
                model.add(label[u] != label[w]).only_enforce_if(~step, visited[u], visited[w])
        for u in nodes:
            for w in puzzle.neighbours[u]:
                if u < w and w in inside and (u, w) not in joined and not puzzle.rules.touch:
                    model.add(label[u] != label[w]).only_enforce_if(visited[u], visited[w])
            model.add(sum(degree[u]) == (visited[u] if u in owner else 2 * visited[u]))
        sides_left = 1 if puzzle.rules.touch else 2
        part = replace(puzzle, neighbours={n: tuple(w for w in puzzle.neighbours[n] if w in inside) for n in nodes})
        for ring in rings(part):  # the short rings inside
            deadline.check()
            sides = [(a, b) if a < b else (b, a) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
            if all(n in inside for n in ring):
                model.add(sum(joined[s][0] for s in sides if s in joined) <= len(ring) - sides_left)

    def literal(self, requirement: Requirement):
        """The requirement's literal, None when the window has none (a cell outside, a colour with no
        endpoint inside)."""
        _, what = requirement
        return self.connect.get(what) if isinstance(what, str) else self.cover.get(what)

    def solve(self, wanted: list[Requirement], deadline: Deadline) -> tuple[str, None, list[Requirement]]:
        """('infeasible', None, core) when the requirements `wanted` inside the window cannot hold
        (nor on the board); ('solvable', None, []) when they can here, else 'unknown'."""
        from cpflow.engines.cpsat_solver import TUNED, run

        kept = [(r, lit) for r in wanted if (lit := self.literal(r)) is not None]
        self.model.clear_assumptions()
        self.model.add_assumptions([lit for _, lit in kept])
        solver, native = run(self.model, deadline, {**TUNED, "search_branching": cp_model.AUTOMATIC_SEARCH})
        if native == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return "infeasible", None, [r for r, lit in kept if lit.index in core]
        if native in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "solvable", None, []
        return "unknown", None, []

"""The relaxed model of why a puzzle has no solution (models/why.md), over the whole board or a part.

The requirements are: each colour connects its endpoints (`connect`), and each cell that
is no endpoint is covered (`cover`). Relaxed, a colour draws no path (its endpoints stay
where they are, and no other path may enter them) and a cell may stay empty; the other
rules hold as ever (paths never share a node, never loop, never touch themselves).

`Relaxed(puzzle)` is the per-colour circuit model of the whole board with one assumption literal
per requirement. Over a part of the board (`region`) it is one of two:
- closed: paths stay inside the part, and only the colours with both endpoints in it may draw
  one. A solution is a solution of the whole board (every other cell empty): a witness.
- open: paths may leave the part at its border and come back, as often as the border allows
  (virtual nodes, each an excursion outside), a colour with one endpoint outside
  ends outside, and the colours with no endpoint inside pass through as one wildcard colour
  (which may touch itself). Every solution of the whole board is one of this part's too, so
  requirements that cannot hold here cannot hold on the whole board: a proof. Its solutions
  are not witnesses.
"""

from __future__ import annotations

from collections.abc import Collection

from cpflow.board.grid import Colour, Node, Puzzle, Solution, tag
from cpflow.board.paths import walk
from cpflow.clock import NEVER, Deadline

Requirement = tuple[str, Colour | Node]  # ("connect", colour) or ("cover", node)
WILDCARD = "*"  # the colours that pass through an open part from outside


def size(puzzle: Puzzle, region: Collection[Node] | None = None) -> int:
    """Nodes x colours of the model of a part (every colour with an endpoint in it), or of the board."""
    if region is None:
        return len(puzzle.nodes) * len(puzzle.colours)
    inside = sum(1 for pair in puzzle.endpoints.values() if pair[0] in region or pair[1] in region)
    return len(region) * (inside + 1)


class Relaxed:
    """The circuit model with its requirements as assumption literals, over the board or a part of it."""

    def __init__(
        self,
        puzzle: Puzzle,
        region: Collection[Node] | None = None,
        opened: bool = False,
        deadline: Deadline = NEVER,
        only: Collection[Colour] | None = None,
    ):
        """The model; OutOfTime when the deadline passes while it is built. With `only` some colours
        may draw and no cell need be covered: exact for requirements that only connect them."""
        from cpflow.engines.cp_model import cp_model

        self.puzzle, self.opened = puzzle, opened and region is not None
        inside = set(puzzle.nodes if region is None else region)
        nodes = [n for n in puzzle.nodes if n in inside]
        border = [n for n in nodes if any(w not in inside for w in puzzle.neighbours[n])] if self.opened else []
        owner = puzzle.endpoint_colour()
        model = self.model = cp_model.CpModel()
        drawn = {c: [e for e in pair if e in inside] for c, pair in puzzle.endpoints.items()}
        least = 1 if self.opened else 2
        self.connect = {
            c: model.new_bool_var(f"connect_{c}")
            for c, ends in drawn.items()
            if len(ends) >= least and (only is None or c in only)
        }
        coverable = () if puzzle.rules.blanks or only is not None else nodes  # cells that may stay empty: none to cover
        self.cover = {n: model.new_bool_var(f"cover_{tag(n)}") for n in coverable if n not in owner}
        self.arcs: dict[Colour, dict[tuple[Node, Node], cp_model.IntVar]] = {}
        on: dict[Colour, dict[Node, cp_model.IntVar]] = {}
        # an excursion leaves at a border node and comes back at one; a node can do both (a path's one
        # cell inside between two excursions) only with two neighbours outside
        excursions = sum(min(2, sum(w not in inside for w in puzzle.neighbours[n])) for n in border) // 2
        for colour in self.connect:
            deadline.check()
            start, *rest = drawn[colour]
            end = rest[0] if rest else ("end", colour)  # an endpoint outside: a virtual end beyond the border
            away = [("away", colour, k) for k in range(excursions)]
            members = [n for n in nodes if owner.get(n, colour) == colour]
            here: dict = {n: model.new_bool_var(f"on_{colour}_{tag(n)}") for n in members if n not in owner}
            on[colour] = here
            for lit in here.values():
                model.add_implication(lit, self.connect[colour])  # no loop of a colour without its path
            here[start] = self.connect[colour]
            if rest:
                here[end] = self.connect[colour]
            arcs = self.arcs[colour] = self._arcs(members, start, end, colour)
            out = [n for n in border if n in here]
            self._circuit(arcs, here, away, out, (start, end, self.connect[colour]))
            if not puzzle.rules.touch:  # no touching: neighbours of one colour are consecutive
                for u in members:
                    for w in puzzle.neighbours[u]:
                        if w in here and u < w:
                            steps = [arcs[k] for k in ((u, w), (w, u)) if k in arcs]
                            model.add_bool_or([~here[u], ~here[w], *steps])
        if excursions:  # the colours from outside, as one that may touch itself
            free = [n for n in nodes if n not in owner]
            here = on[WILDCARD] = {n: model.new_bool_var(f"on_wild_{tag(n)}") for n in free}
            arcs = self._arcs(free, None, None, WILDCARD)
            away = [("away", WILDCARD, k) for k in range(excursions)]
            self._circuit(arcs, here, away, [n for n in border if n in here], None)
        for node in nodes:
            users = [on[c][node] for c in on if node in on[c] and node not in owner]
            model.add_at_most_one(users)
            if node in self.cover:
                model.add_bool_or(users).only_enforce_if(self.cover[node])

    def _arcs(self, members: list[Node], start, end, colour: Colour) -> dict:
        """An arc literal for each step between neighbours inside: none out of the end, none into the start."""
        index = set(members)
        return {
            (u, w): self.model.new_bool_var(f"arc_{colour}_{tag(u)}_{tag(w)}")
            for u in members
            for w in self.puzzle.neighbours[u]
            if w in index and u != end and w != start
        }

    def _circuit(self, arcs: dict, here: dict, away: list, out: list[Node], ends) -> None:
        """One circuit of a colour: its arcs, an optional loop at each node it may skip, and when the
        part is open, excursions (`away`, used in order) from the border to the border and, for a
        colour with one endpoint outside, the last step from the border to its virtual end."""
        model = self.model
        outside = {k: model.new_bool_var(f"{k}") for k in away}
        for first, second in zip(away, away[1:], strict=False):
            model.add_implication(outside[second], outside[first])  # the excursions are alike: in order
        for k in away:
            for n in out:
                if ends is None or n != ends[1]:
                    arcs[(n, k)] = model.new_bool_var(f"to_{k}_{tag(n)}")
                if ends is None or n != ends[0]:
                    arcs[(k, n)] = model.new_bool_var(f"from_{k}_{tag(n)}")
        if ends is None and away:  # the wildcard draws no loop inside: what it draws passes outside
            for lit in here.values():
                model.add_implication(lit, outside[away[0]])
        nodes = list(here) + away
        if ends is not None:
            start, end, connect = ends
            if end not in here:
                nodes.append(end)
                for n in out:
                    arcs[(n, end)] = model.new_bool_var(f"out_{tag(n)}")
        index = {n: i for i, n in enumerate(nodes)}
        circuit = [(index[u], index[w], lit) for (u, w), lit in arcs.items()]
        loops = {**here, **outside}
        circuit += [(index[n], index[n], ~lit) for n, lit in loops.items() if ends is None or n not in ends[:2]]
        if ends is not None:
            circuit += [(index[end], index[start], connect)]
            circuit += [(index[n], index[n], ~connect) for n in (start, end)]
        model.add_circuit(circuit)

    def requirements(self) -> list[Requirement]:
        """Every requirement the model has a literal for: the colours it draws, the cells inside."""
        return [("connect", c) for c in self.connect] + [("cover", n) for n in self.cover]

    def literal(self, requirement: Requirement):
        """The requirement's literal, None when the model has none (a cell outside, a colour it cannot draw)."""
        _, what = requirement  # a colour (str) to connect, or a node (tuple) to cover
        return self.connect.get(what) if isinstance(what, str) else self.cover.get(what)

    def solve(self, wanted: list[Requirement], deadline: Deadline) -> tuple[str, Solution | None, list[Requirement]]:
        """(status, solution or None, core) for the requirements `wanted`; status one of
        'solvable', 'infeasible', 'unknown'. An open part's solutions are not given (None)."""
        from cpflow.engines.cp_model import cp_model
        from cpflow.engines.cpsat_solver import run

        self.model.clear_assumptions()
        literals = [self.literal(r) for r in wanted]
        self.model.add_assumptions(literals)
        solver, native = run(self.model, deadline, {"num_workers": 1})
        if native == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return "infeasible", None, [r for r, lit in zip(wanted, literals, strict=True) if lit.index in core]
        if native in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if self.opened:
                return "solvable", None, []
            steps = {
                u: (w,) for arcs in self.arcs.values() for (u, w), lit in arcs.items() if solver.boolean_value(lit)
            }
            connected = [c for c, lit in self.connect.items() if solver.boolean_value(lit)]
            paths = walk(self.puzzle, steps).paths
            return "solvable", Solution({c: paths[c] for c in connected}), []
        return "unknown", None, []

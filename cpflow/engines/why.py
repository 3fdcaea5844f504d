"""Why a puzzle has no solution: a smallest set of requirements that cannot hold together.

The requirements and their relaxed model are cpflow.engines.relaxed's (models/why.md). The set is
looked for first on the whole board in the label formulation (cpflow.engines.relaxed_label: any
size, and it proves what the front end's search refutes), for at most `FIRST` of the time. When
that proves nothing, the explanation starts where the front end's rules refuted the puzzle
(cpflow.deduce.refuted): on the part of the board within `RADII` steps of the cells the
contradiction involved, open at its border (every solution of the board is one of the part's, so
what cannot hold there cannot hold on the board), growing only while the part's requirements can
all hold; the whole board's per-colour model is the last. CP-SAT's core
(`sufficient_assumptions_for_infeasibility`) is a first set; it is not minimal, so it is shrunk:
its elements are dropped a chunk at a time (one first, twice as many after a drop that leaves the
set infeasible, half as many otherwise), and a set still infeasible without them replaces the set
(its own core), while a set that becomes solvable without one element keeps it, and a solution of
the others on the board is its witness (any solution found that fails one element alone is; on
parts: `Ladder`, parts around the set, open for proofs and closed for witnesses, grown up to the
whole board). Every drop is first tried on open windows `OPEN` steps around the set
(cpflow.engines.relaxed_open: a proof there is one for the board, in milliseconds). A single
element's witness is first drawn without a solver (cpflow.engines.routing, greedy paths, for sets of
at most `ROUTED`), then looked for in closed windows `WINDOWS` steps around the set (each a board of
its own, `closed`: far faster, and still the board's solutions), then repaired from a solution found
that fails a few elements (cpflow.engines.repair: kept outside a window, the inside solved again),
then on the whole board. A solve that takes more than its share (`SOLVE` seconds, doubled each
round) waits for the next round. At
the end every element has a witness: the set is minimal (no element can go). Each witness passes
the verifier on the board of the colours it connects (blanks allowed), and covers every cell the set
requires.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from cpflow.board.grid import Colour, Node, Puzzle, Rules, Solution, cell_name
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.engines.relaxed import Relaxed, Requirement, size
from cpflow.engines.repair import repaired
from cpflow.engines.routing import route
from cpflow.errors import InvalidSolution

if TYPE_CHECKING:  # its model is CP-SAT's, imported when one is built: `Why` is imported where there is no OR-Tools
    from cpflow.engines.relaxed_label import RelaxedLabel
    from cpflow.engines.relaxed_open import RelaxedOpen

LARGEST = 20_000  # nodes x colours of one model: a bigger part (or board) is not modelled, it would take long to build
WINDOWS = (6, 9, 12)  # steps around a set's cells of the windows its witnesses are looked for in first
RADII = (2, 4, 8, 16)  # steps from the refutation's cells to the border of the parts tried, before the whole board
FIRST = 0.5  # of the time left, the most the label model's first proof may take before the parts are tried
REPAIRED = 3  # the most elements of a set a solution may fail to be repaired, and the most solutions repaired
ROUTED = 100  # the largest set whose elements' witnesses are routed (cpflow.engines.routing) before any solve
OPEN = (4, 8)  # steps around a set's cells of the open windows its subsets are proven on first
LOCAL = 0.5  # the largest share of the board's nodes an open window holds
SHRUNK = 0.7  # an open window is built again when the set's window is less than this share of it
REPAIRS = (2, 4, 7)  # steps around the cells a solution fails of the windows it is repaired in (cpflow.engines.repair)
SOLVE = 0.25  # seconds a shrinking solve may take in its first round; each next round doubles it


@dataclass(frozen=True)
class Why:
    """A smallest set of requirements no solution meets, and for each one a witness: a solution
    of the others. `minimal` is False when the time limit stopped the shrinking first; `radius`
    says where it was proven."""

    connect: tuple[Colour, ...]
    cover: tuple[Node, ...]
    witnesses: Mapping[Requirement, Solution] = field(default_factory=dict)
    minimal: bool = True
    radius: int | None = None  # the part of the board it was proven on: steps around the rules' cells; None: all


def why(
    puzzle: Puzzle, time_limit: float | None = None, near: Collection[Node] | None = None, colours: Collection[str] = ()
) -> Why | None:
    """A smallest set of requirements of an unsolvable puzzle that no solution meets, each with its
    witness, looked for first on the whole board's label model, then around the cells `near` and for
    the `colours` alone (by default where the rules refute the puzzle, and the colours met there);
    None if the puzzle is solvable, or the time limit came before any set was found. The play's
    drawn cells are left out: this is about the puzzle."""
    from cpflow.engines.relaxed_cnf import proving  # python-sat's clauses, when it is installed
    from cpflow.engines.relaxed_label import RelaxedLabel

    deadline = Deadline(time_limit)
    puzzle = replace(puzzle, drawn={})
    try:
        board = RelaxedLabel(puzzle, deadline)
    except OutOfTime:
        return None
    left = deadline.left()
    status, _, core = board.solve(board.requirements(), deadline if left is None else deadline.within(left * FIRST))
    if status == "infeasible":  # the clauses' proofs first while shrinking a large core, with python-sat installed
        return _shrunk(puzzle, proving(puzzle, board, core, deadline), core, deadline, None)
    if status == "solvable":
        return None
    if near is None:
        near, colours = _refuted(puzzle, deadline)
    for radius, region, only in _proofs(puzzle, near, colours):
        try:
            proof = Relaxed(puzzle, region, opened=True, deadline=deadline, only=only)
        except OutOfTime:
            return None
        status, _, core = proof.solve(proof.requirements(), deadline)
        if status == "infeasible":
            return _shrunk(puzzle, Ladder(puzzle, core, radius, proof), core, deadline, radius)
        if status == "unknown":
            return None
    return None


def _proofs(puzzle: Puzzle, near: Collection[Node], colours: Collection[str]):
    """(radius, region, colours) of the models a set is looked for on, each small enough: the whole
    board for `colours` alone (connecting them, exactly), the open parts around `near`, the board."""
    if colours and len(puzzle.nodes) * len(colours) <= LARGEST:
        yield None, None, colours
    for radius, region in parts(puzzle, near):
        if region is not None and size(puzzle, region) <= LARGEST:
            yield radius, region, None
    if size(puzzle) <= LARGEST:
        yield None, None, None


def parts(puzzle: Puzzle, near: Collection[Node]) -> Iterator[tuple[int | None, set[Node] | None]]:
    """The parts an explanation is looked for on: the nodes within each of RADII steps of `near`
    while that is not the whole board, then the whole board (None)."""
    for radius in RADII if near else ():
        region = ball(puzzle, near, radius)
        if len(region) == len(puzzle.nodes):
            break
        yield radius, region
    yield None, None


def ball(puzzle: Puzzle, near: Collection[Node], radius: int) -> set[Node]:
    """The nodes within `radius` steps of `near`."""
    region, edge = set(near), set(near)
    for _ in range(radius):
        edge = {w for n in edge for w in puzzle.neighbours[n]} - region
        region |= edge
    return region


def _refuted(puzzle: Puzzle, deadline: Deadline) -> tuple[frozenset[Node], frozenset[str]]:
    """Where the rules' contradiction at the start was met and its colours, none when they find none in time."""
    from cpflow.deduce.refuted import refutation

    try:
        found = refutation(puzzle, deadline)
    except OutOfTime:
        return frozenset(), frozenset()
    return (found.at, found.between) if found else (frozenset(), frozenset())


def _shrunk(puzzle: Puzzle, models: Ladder | RelaxedLabel, core: list[Requirement], deadline: Deadline, radius) -> Why:
    """The set `core` that cannot hold, shrunk until each element has a witness. The elements without
    one are dropped a chunk at a time, one element first: a set still infeasible without the chunk
    replaces the set (its core) and the next chunk is twice as large; one that can hold (or is not
    settled) halves it, down to a single element, whose solution is its witness. Every solution found
    is kept, and is the witness of any element of the set it alone fails to meet. Each drop is tried on
    open windows around the set first, a single element's then on closed ones (`Windows`), then
    repaired (`_repaired`); a solve not settled within `budget` seconds leaves its element waiting for
    the next round, which gives each such solve twice as long."""
    witnesses: dict[Requirement, Solution] = {}
    found: list[tuple[Solution, dict]] = []  # every solution met so far and its cells: each may be a witness
    budget = SOLVE
    routed: set[tuple[Requirement, int]] = set()  # (element, size of the set) the routing tried
    mended: set[tuple[Requirement, int, int]] = set()  # (element, size of the set, solutions found) repairs tried
    windows = Windows(puzzle, getattr(models, "reach", None))
    while True:
        stuck, waiting, chunk = False, set(), 1
        while deadline.left() != 0:
            _witness(puzzle, core, found, witnesses)
            left = [r for r in core if r not in witnesses and r not in waiting]
            if not left:
                break
            dropped = left[: min(chunk, (len(left) + 1) // 2)]
            rest = [r for r in core if r not in dropped]
            if len(dropped) == 1 and (dropped[0], len(core)) not in routed and len(core) <= ROUTED:
                routed.add((dropped[0], len(core)))  # drawn without a solver, if the routing can
                colours = [c for _, c in rest if isinstance(c, str)]
                cells = [n for _, n in rest if isinstance(n, tuple)]
                solution = route(puzzle, colours, cells, deadline.within(budget), partial=True)
                if solution is not None:  # a witness, or what may be repaired into one
                    found.append((solution, solution.colour_of()))
                    if all(_met(*r, solution, found[-1][1]) for r in rest):
                        continue
            status, solution, smaller = "unknown", None, []
            if not isinstance(models, Ladder):  # a proof comes fastest on an open window around the set
                status, solution, smaller = windows.prove(core, rest, deadline.within(budget))
                if status == "unknown" and len(dropped) == 1:  # a witness in a closed window
                    status, solution, smaller = windows.witness(core, rest, deadline.within(budget))
                if status == "unknown" and len(dropped) == 1 and (dropped[0], len(core), len(found)) not in mended:
                    mended.add((dropped[0], len(core), len(found)))  # or repaired from a solution found
                    solution = _repaired(puzzle, rest, dropped, found, deadline.within(budget))
                    status = "solvable" if solution is not None else status
            if status == "unknown":
                status, solution, smaller = models.solve(rest, deadline.within(budget))
            if status == "infeasible":
                core, chunk = smaller, 2 * chunk
            elif status == "solvable" and solution is not None:
                found.append((solution, solution.colour_of()))
            elif len(dropped) == 1:
                stuck = True
                waiting.add(dropped[0])
            if status != "infeasible":
                chunk = max(1, len(dropped) // 2)
        if not stuck or deadline.left() == 0:
            break
        budget *= 2
    connect = tuple(c for _, c in core if isinstance(c, str))
    cover = tuple(n for _, n in core if not isinstance(n, str))
    kept = {r: w for r, w in witnesses.items() if r in core}
    where = models.radius if isinstance(models, Ladder) else radius
    return Why(connect, cover, kept, len(kept) == len(core), where)


def _witness(puzzle: Puzzle, core: list[Requirement], found: list[tuple[Solution, dict]], witnesses: dict) -> None:
    """Each solution found that fails to meet one element of `core` alone becomes that element's witness."""
    for solution, covered in found:
        unmet = [r for r in core if not _met(*r, solution, covered)]
        if len(unmet) == 1 and unmet[0] not in witnesses:
            witnesses[unmet[0]] = _checked(puzzle, solution, [r for r in core if r != unmet[0]])


def _repaired(puzzle: Puzzle, wanted: list[Requirement], dropped: list[Requirement], found: list, deadline: Deadline):
    """A solution meeting `wanted`: one found that fails a few of it (`REPAIRED` at most, the fewest and the
    latest first), solved again in windows `REPAIRS` steps around the cells of those it fails and of those
    `dropped` (what may go to make room); None if none is."""
    near = [(solution, [r for r in wanted if not _met(*r, solution, covered)]) for solution, covered in found[::-1]]
    tries = [
        (solution, ball(puzzle, _cells(puzzle, unmet + dropped), radius))
        for solution, unmet in sorted(near, key=lambda pair: len(pair[1]))[:REPAIRED]
        if 0 < len(unmet) <= REPAIRED
        for radius in REPAIRS
    ]
    for k, (solution, window) in enumerate(tries):  # each given a share of the time left as large as its window
        left = deadline.left()
        if left == 0:
            break
        share = len(window) / sum(len(later) for _, later in tries[k:])
        mended = repaired(puzzle, solution, window, wanted, deadline.within(left * share) if left else deadline)
        if mended is not None:
            return mended
    return None


def _cells(puzzle: Puzzle, requirements: Collection[Requirement]) -> list[Node]:
    """The cells of the requirements: a cell's own, a colour's endpoints."""
    return [n for _, what in requirements for n in (puzzle.endpoints[what] if isinstance(what, str) else (what,))]


class Windows:
    """Windows around a set, each model built once and kept while the set's window stays most of it:
    open ones (cpflow.engines.relaxed_open, `OPEN` steps around the set's cells), where a subset's
    proof is a proof for the board, and closed ones (`WINDOWS` steps: the label model of the window
    as a board of its own, only the colours with both endpoints inside), whose solutions are
    solutions of the board, so witnesses. Both found in milliseconds where the whole board's solve
    may take seconds."""

    def __init__(self, puzzle: Puzzle, reach):
        self.puzzle, self.reach = puzzle, reach
        self.models: dict[tuple[bool, int], tuple[frozenset[Node], RelaxedOpen | RelaxedLabel]] = {}

    def _model(self, core: list[Requirement], radius: int, opened: bool, deadline: Deadline):
        """The window `radius` steps around `core`'s cells; None when it is the board, or open and more than
        `LOCAL` of it."""
        from cpflow.engines.relaxed_label import RelaxedLabel
        from cpflow.engines.relaxed_open import RelaxedOpen

        window = ball(self.puzzle, _cells(self.puzzle, core), radius)
        if len(window) > (LOCAL if opened else 1) * len(self.puzzle.nodes) or len(window) == len(self.puzzle.nodes):
            return None  # the whole board, or an open window of most of it: the board's own model is as fast
        built, model = self.models.get((opened, radius), (frozenset(), None))
        if model is None or not window <= built or len(window) < SHRUNK * len(built):
            model = RelaxedOpen(self.puzzle, window, deadline, self.reach) if opened else None
            model = model or RelaxedLabel(closed(self.puzzle, window), deadline)
            self.models[opened, radius] = (frozenset(window), model)
        return model

    def _models(self, core: list[Requirement], opened: bool, deadline: Deadline) -> Iterator:
        """(k, the k-th window's model) around `core`, smallest first, until one is the whole board."""
        for k, radius in enumerate(OPEN if opened else WINDOWS):
            try:
                model = self._model(core, radius, opened, deadline)
            except OutOfTime:
                return
            if model is None:
                return
            yield k, model

    def prove(self, core: list[Requirement], wanted: list[Requirement], deadline: Deadline):
        """('infeasible', None, core) from the first open window that proves `wanted` cannot hold,
        else ('unknown', None, []): a window where it can proves nothing."""
        for _, model in self._models(core, True, deadline) if self.reach is not None else ():
            status, _, smaller = model.solve(wanted, deadline)
            if status == "infeasible":
                return status, None, smaller
        return "unknown", None, []

    def witness(self, core: list[Requirement], wanted: list[Requirement], deadline: Deadline):
        """('solvable', a witness, []) from the first closed window where `wanted` can hold, each given
        an equal share of the time left, else ('unknown', None, []): a closed window proves nothing."""
        for k, model in self._models(core, False, deadline):
            if any(model.literal(r) is None for r in wanted):
                continue  # a colour to connect with an endpoint outside
            left = deadline.left()
            status, solution, _ = model.solve(wanted, deadline.within(left / (len(WINDOWS) - k)) if left else deadline)
            if status == "solvable":
                return status, solution, []
        return "unknown", None, []


def closed(puzzle: Puzzle, window: Collection[Node]) -> Puzzle:
    """The board of the nodes of `window` alone and the colours with both endpoints inside it (the
    others' endpoints left out): its solutions, every other cell empty, are the board's."""
    inside = set(window)
    kept = {c: pair for c, pair in puzzle.endpoints.items() if pair[0] in inside and pair[1] in inside}
    inside -= {n for c, pair in puzzle.endpoints.items() if c not in kept for n in pair}
    return replace(
        puzzle, endpoints=kept, neighbours={n: tuple(w for w in puzzle.neighbours[n] if w in inside) for n in inside}
    )


class Ladder:
    """The models a set's subsets are tried on, smallest first, each built once when first needed: at
    each of RADII steps around the set's cells (`radius` and up), an open part (can the subset not
    hold?) and a closed one (a witness: a solution of the board that meets it), then the whole board.
    `radius` ends as the largest part a proof took (None: the whole board)."""

    def __init__(self, puzzle: Puzzle, core: list[Requirement], radius: int | None, proof: Relaxed | None):
        self.puzzle, self.radius, self.proof = puzzle, radius, proof
        cells = _cells(puzzle, core)
        steps = [r for r in RADII if radius is not None and r >= radius]
        regions = [ball(puzzle, cells, r) for r in steps]
        self.rungs = [(r, region) for r, region in zip(steps, regions, strict=True) if len(region) < len(puzzle.nodes)]
        self.models: dict[tuple[int | None, bool], Relaxed] = {}

    def _model(self, radius: int | None, region: set[Node] | None, opened: bool, deadline: Deadline) -> Relaxed:
        if (radius, opened) not in self.models:
            self.models[radius, opened] = Relaxed(self.puzzle, region, opened, deadline)
        return self.models[radius, opened]

    def solve(self, wanted: list[Requirement], deadline: Deadline):
        """('infeasible', core, ...) from the first part that proves `wanted` cannot hold, ('solvable',
        a witness, []) from the first closed part where it can; else 'unknown'."""
        if self.proof is not None:
            status, solution, core = self.proof.solve(wanted, deadline)  # first where the set was found
            if status == "infeasible" or solution is not None:
                return status, solution, core
        for radius, region in [*self.rungs, (None, None)]:
            if size(self.puzzle, region) > LARGEST or deadline.left() == 0:
                break
            for opened in (True, False) if region is not None else (False,):
                try:
                    model = self._model(radius, region, opened, deadline)
                except OutOfTime:
                    return "unknown", None, []
                if any(model.literal(r) is None for r in wanted):
                    continue  # a requirement outside this part: a colour to connect has an endpoint outside
                status, solution, core = model.solve(wanted, deadline)
                if status == "infeasible" and (opened or region is None):  # a closed part proves nothing
                    self.radius = None if radius is None or self.radius is None else max(self.radius, radius)
                    return status, None, core
                if status == "solvable" and solution is not None:
                    return status, solution, core
        return "unknown", None, []


def _checked(puzzle: Puzzle, solution: Solution, wanted: list[Requirement]) -> Solution:
    """A witness, passed by the verifier on the board of the colours it connects (blanks allowed),
    covering every cell wanted and connecting every colour wanted; else InvalidSolution."""
    drawn = {c: puzzle.endpoints[c] for c in solution.paths}
    board = replace(puzzle, endpoints=drawn, rules=Rules(touch=puzzle.rules.touch, blanks=True), drawn={})
    found = violations(board, solution)
    covered = solution.colour_of()
    others = {n for c, pair in puzzle.endpoints.items() if c not in drawn for n in pair}
    found += [f"{kind} {what} is not met" for kind, what in wanted if not _met(kind, what, solution, covered)]
    found += [f"a path enters the endpoint at {cell_name(node)}" for node in others if node in covered]
    if found:
        raise InvalidSolution("why (witness)", found)
    return solution


def _met(kind: str, what, solution: Solution, covered: dict) -> bool:
    return what in solution.paths if kind == "connect" else what in covered

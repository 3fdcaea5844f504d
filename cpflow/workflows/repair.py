"""Repairing a puzzle with more than one solution: one edit that leaves exactly one.

`fix` solves the puzzle twice (two distinct solutions, or a proof that it has one or none),
then tries one edit at a time where the two differ, and keeps the first proven to leave
exactly one solution:

1. a wall (on boards that have walls): across a step one solution takes and the other
   does not, which rules out the other and keeps the one;
2. a pair of endpoints added: a path of one of the solutions split in two between cells
   where the solutions differ (the generator's repair, cpflow.workflows.generate.cover.split),
   the cuts deepest inside the region where they differ first: that path's colour ends at
   the first new endpoint, and a new colour runs from the second to the path's old end,
   whose dot takes the new colour;
3. one endpoint moved: an endpoint of a colour whose paths differ, to a free cell at most
   MOVE_REACH steps away (nearest first). Moves come last: each takes two solves, and on the
   boards of bench/fix.py every move failed where the first pair then succeeded (docs/figures/fix.md).

Every proof is a solve of the pipeline (cpflow.engines.pipeline.solve): the front end's search
and CP-SAT side by side, the first to answer wins, and every answer passes the verifier. A
wall or a pair is made to keep one solution (verified on the edited puzzle), so one solve that
excludes it proves the edit: no other solution, unique. A move keeps none: it is solved twice.
Every solution seen is kept: an edit that one of them survives (carried over to the edited
puzzle and verified there) is passed over without a proof, and the solution a failed proof
finds joins them, carried back to the puzzle. `time_limit` is for the whole repair; up to
`TRIES` proofs. The library prints nothing: `progress`, when given, is told of each proof.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from cpflow.board.grid import Cell, Colour, Node, Puzzle, Solution, cell_of, differ
from cpflow.board.verify import violations
from cpflow.clock import Deadline
from cpflow.deduce.sentences import at
from cpflow.engines.catalog import DEFAULT
from cpflow.engines.pipeline import solve
from cpflow.results import SolveResult, Status
from cpflow.workflows.unique import SAME_EACH_RUN, Uniqueness, Verdict

TRIES = 400  # uniqueness proofs before giving up
UNDECIDED = "it was known whether the puzzle has more than one solution"  # what the first proof decides
MOVE_REACH = 2  # steps an endpoint may move
ENGINE = DEFAULT  # as `cpflow solve` runs it: CP-SAT, the front end's search beside it (without OR-Tools, the search)


@dataclass(frozen=True)
class Edit:
    """One change to a puzzle: `kind` wall, move or pair; the colour it concerns; the cells
    (a wall: the two it stands between; a move: from, to; a pair: the new end of `colour`,
    then the new colour's first end); for a pair, the new colour and the old end it takes."""

    kind: str
    colour: Colour
    cells: tuple[Cell, Cell]
    new_colour: Colour | None = None
    old_end: Cell | None = None

    def words(self) -> str:
        """The edit in a sentence, cells as r1c1."""
        first, second = (at(cell) for cell in self.cells)
        if self.kind == "wall":
            return f"add a wall between {first} and {second}"
        if self.kind == "move":
            return f"move {self.colour}'s endpoint from {first} to {second}"
        old = at(self.old_end) if self.old_end else "?"
        return (
            f"add a pair of endpoints: {self.colour} now ends at {first}, and a new colour {self.new_colour} "
            f"runs from {second} to {old} (that dot becomes {self.new_colour})"
        )


@dataclass(frozen=True)
class Fixed:
    """What `fix` found: `verdict` (unique: nothing to fix; fixed; not fixed; unsolvable; unknown:
    the time limit came first), the puzzle (after the edit, when fixed), its solution when it has
    exactly one, the edit, the uniqueness proofs tried, the seconds taken, the edits passed
    over without a proof (a solution already seen survives them) and, when unknown, what the time
    limit came before (`short_of`)."""

    verdict: str
    puzzle: Puzzle
    solution: Solution | None
    edit: Edit | None
    tried: int
    seconds: float
    passed: int = 0
    short_of: str = ""


@dataclass(frozen=True)
class Step:
    """Where a repair is, told to `progress` before each proof: proofs so far (this one counted),
    seconds, the edit being proven (None: the puzzle itself) and edits passed over without a proof."""

    tried: int
    seconds: float
    edit: Edit | None
    passed: int

    def words(self) -> str:
        """The step in a line, e.g. `fix: proof 12, 3.4 s (5 edits passed over): add a wall between r1c1 and r1c2`."""
        doing = self.edit.words() if self.edit else "solving the puzzle twice"
        passed = f" ({self.passed} edits passed over)" if self.passed else ""
        return f"fix: proof {self.tried}, {self.seconds:.1f} s{passed}: {doing}"


Progress = Callable[[Step], None]


@dataclass(frozen=True)
class Candidate:
    """An edit, the puzzle it makes, and the solution of that puzzle it was made to keep (None: a move)."""

    edit: Edit
    puzzle: Puzzle
    keeps: Solution | None


def fix(puzzle: Puzzle, time_limit: float | None = None, tries: int = TRIES, progress: Progress | None = None) -> Fixed:
    """The puzzle made unique by one edit found where two solutions differ, or why not (`time_limit`: seconds for the
    whole repair, after which the verdict is unknown; `progress`: told of each proof)."""
    began = time.perf_counter()
    deadline = Deadline(time_limit, began)

    def told(tried: int, edit: Edit | None, passed: int) -> None:
        if progress is not None:
            progress(Step(tried, time.perf_counter() - began, edit, passed))

    def answer(verdict: str, tried: int, passed: int, candidate: Candidate | None = None, solution=None) -> Fixed:
        edited, edit = (candidate.puzzle, candidate.edit) if candidate else (puzzle, None)
        short_of = "" if verdict != "unknown" else UNDECIDED if tried == 1 else "an edit was proven unique"
        return Fixed(verdict, edited, solution, edit, tried, time.perf_counter() - began, passed, short_of)

    told(1, None, 0)
    found = two(puzzle, deadline)
    if found.verdict is not Verdict.NOT_UNIQUE:
        verdict = {Verdict.UNIQUE: "unique", Verdict.UNSOLVABLE: "unsolvable"}.get(found.verdict, "unknown")
        return answer(verdict, 1, 0, solution=found.solutions[0] if found.verdict is Verdict.UNIQUE else None)
    seen, tried, passed = list(found.solutions), 1, 0
    for candidate in edits(puzzle, found):
        if tried >= tries:
            break
        if any(survives(candidate, puzzle, other) for other in seen):
            passed += 1
            continue
        tried += 1
        told(tried, candidate.edit, passed)
        after = proof(candidate, deadline)
        if after.verdict is Verdict.UNIQUE:
            return answer("fixed", tried, passed, candidate, after.solutions[0])
        if after.verdict is Verdict.UNKNOWN:
            return answer("unknown", tried, passed)
        seen.extend(back for back in (carried_back(candidate, puzzle, s) for s in after.solutions) if back)
    return answer("not fixed", tried, passed)


def two(puzzle: Puzzle, deadline: Deadline) -> Uniqueness:
    """The puzzle solved twice, by the deadline: two distinct solutions, one (unique), or none."""
    began = time.perf_counter()
    first = _solve(puzzle, (), deadline)
    if first.solution is None:
        verdict = Verdict.UNSOLVABLE if first.status is Status.UNSOLVABLE else Verdict.UNKNOWN
        return Uniqueness(verdict, (), time.perf_counter() - began)
    return _other(puzzle, first.solution, deadline, began)


def proof(candidate: Candidate, deadline: Deadline) -> Uniqueness:
    """Whether the edited puzzle is unique: one solve excluding the solution the edit keeps, or for
    a move, two solves."""
    if candidate.keeps is None:
        return two(candidate.puzzle, deadline)
    return _other(candidate.puzzle, candidate.keeps, deadline, time.perf_counter())


def _other(puzzle: Puzzle, one: Solution, deadline: Deadline, began: float) -> Uniqueness:
    """Unique when the puzzle has no solution but `one` (a verified one), else not, with another."""
    second = _solve(puzzle, (one,), deadline)
    verdict = {Status.SOLVED: Verdict.NOT_UNIQUE, Status.UNSOLVABLE: Verdict.UNIQUE}.get(second.status, Verdict.UNKNOWN)
    answers = (one,) if second.solution is None else (one, second.solution)
    return Uniqueness(verdict, answers, time.perf_counter() - began)


def _solve(puzzle: Puzzle, exclude: Sequence[Solution], deadline: Deadline) -> SolveResult:
    """The pipeline's solve (its race, its verifier) with what is left of the deadline."""
    left = deadline.left()
    if left is not None and left <= 0:
        return SolveResult(Status.UNKNOWN, None, 0.0, 0.0, ENGINE)
    return solve(puzzle, ENGINE, time_limit=left, exclude=list(exclude), workers=1, **SAME_EACH_RUN)


def survives(candidate: Candidate, puzzle: Puzzle, solution: Solution) -> bool:
    """Whether `solution` (of the puzzle), carried over to the edited puzzle, is a solution of it
    other than the one the edit keeps: then the edit leaves two, and needs no proof."""
    carried = carried_over(candidate, solution)
    if carried is None or (candidate.keeps is not None and not _different(carried, candidate.keeps)):
        return False
    return not violations(candidate.puzzle, carried)


def _different(first: Solution, second: Solution) -> bool:
    """Whether two solutions of one puzzle differ: in a cell's colour, or in a path's steps."""
    return bool(differ(first, second)) or any(_steps(first, c) != _steps(second, c) for c in first.paths)


def _steps(solution: Solution, colour: Colour) -> set[frozenset[Node]]:
    path = solution.paths[colour]
    return {frozenset(pair) for pair in zip(path, path[1:], strict=False)}


def carried_over(candidate: Candidate, solution: Solution) -> Solution | None:
    """A solution of the puzzle as the edited puzzle would have it, or None when it cannot: the same
    paths across a wall; for a pair, the path split where the edit splits it, when it steps there."""
    edit = candidate.edit
    if edit.kind == "wall":
        return solution
    if edit.kind != "pair" or edit.new_colour is None:
        return None
    a, b = edit.cells
    start = candidate.puzzle.endpoints[edit.colour][0]
    path = solution.paths[edit.colour]
    path = path if path[0] == start else path[::-1]
    cut = next((i for i in range(1, len(path)) if path[i - 1] == a and path[i] == b), None)
    if cut is None:
        return None
    return Solution({**solution.paths, edit.colour: path[:cut], edit.new_colour: path[cut:]})


def carried_back(candidate: Candidate, puzzle: Puzzle, solution: Solution) -> Solution | None:
    """A solution of the edited puzzle as a solution of the puzzle, when it is one (verified): the
    same paths without the wall; for a pair, the two halves joined again."""
    edit = candidate.edit
    if edit.kind == "wall":
        back = solution
    elif edit.kind == "pair" and edit.new_colour is not None:
        paths = dict(solution.paths)
        first, second = paths[edit.colour], paths.pop(edit.new_colour)
        first = first if first[-1] == edit.cells[0] else first[::-1]
        second = second if second[0] == edit.cells[1] else second[::-1]
        back = Solution({**paths, edit.colour: first + second})
    else:
        return None
    return None if violations(puzzle, back) else back


def edits(puzzle: Puzzle, found: Uniqueness) -> Iterator[Candidate]:
    """Each edit to try, with the puzzle it makes: walls, then pairs, then moves (module doc)."""
    first, second = found.solutions
    if puzzle.walls():
        yield from _walls(puzzle, found)
    yield from _pairs(puzzle, (first, second), set(found.differences()))
    yield from _moves(puzzle, first, second)


def _kept(edit: Edit, edited: Puzzle, solution: Solution) -> Candidate | None:
    """The candidate, when the solution it was made to keep is one of the edited puzzle (verified)."""
    return None if violations(edited, solution) else Candidate(edit, edited, solution)


def _walls(puzzle: Puzzle, found: Uniqueness) -> Iterator[Candidate]:
    """A wall across each step taken by one solution only, between two plain cells that touch; it
    keeps the solution that does not take the step."""
    taken = [{frozenset(pair) for c in s.paths for pair in _steps(s, c)} for s in found.solutions]
    for a, b in found.different_steps():
        if len(a) != 2 or len(b) != 2 or not puzzle.touches(a, b):
            continue
        neighbours = dict(puzzle.neighbours)
        neighbours[a] = tuple(n for n in neighbours[a] if n != b)
        neighbours[b] = tuple(n for n in neighbours[b] if n != a)
        if neighbours[a] and neighbours[b]:
            keeps = found.solutions[0] if frozenset((a, b)) in taken[1] else found.solutions[1]
            candidate = _kept(Edit("wall", "", (a, b)), replace(puzzle, neighbours=neighbours), keeps)
            if candidate:
                yield candidate


def _moves(puzzle: Puzzle, first: Solution, second: Solution) -> Iterator[Candidate]:
    """Each endpoint of a colour whose two paths differ, moved to each free plain cell within
    MOVE_REACH steps, the nearest first."""
    taken = set(puzzle.endpoint_colour())
    changed = [c for c in puzzle.colours if first.paths[c] != second.paths[c]]
    for colour in changed:
        for end in range(2):
            start = puzzle.endpoints[colour][end]
            for target in _near(puzzle, start, MOVE_REACH):
                if target in taken or len(target) != 2:
                    continue
                pair = list(puzzle.endpoints[colour])
                pair[end] = target
                endpoints = {**puzzle.endpoints, colour: (pair[0], pair[1])}
                edit = Edit("move", colour, (cell_of(start), cell_of(target)))
                yield Candidate(edit, replace(puzzle, endpoints=endpoints), None)


def _near(puzzle: Puzzle, start: Node, reach: int) -> list[Node]:
    """Nodes within `reach` steps of `start` (not it), nearest first, in reading order within a distance."""
    distance = _distances(puzzle, [start], reach)
    return sorted((n for n in distance if n != start), key=lambda n: (distance[n], n))


def _distances(puzzle: Puzzle, starts: Iterable[Node], reach: int) -> dict[Node, int]:
    """Steps from the nearest of `starts` to each node within `reach`."""
    distance = dict.fromkeys(starts, 0)
    queue = deque(distance)
    while queue:
        node = queue.popleft()
        if distance[node] < reach:
            for near in puzzle.neighbours[node]:
                if near not in distance:
                    distance[near] = distance[node] + 1
                    queue.append(near)
    return distance


def _pairs(puzzle: Puzzle, solutions: Sequence[Solution], differ_at: set[Cell]) -> Iterator[Candidate]:
    """Each path of either solution split between two cells, one of them where the solutions differ,
    into halves of SHORTEST cells or more; a new colour takes the second half. Cuts deepest inside
    the region where the solutions differ come first (a cut at its edge leaves the most room)."""
    from cpflow.workflows.generate.order import SHORTEST
    from cpflow.workflows.generate.prove import NAMES

    new = next((name for name in NAMES if name not in puzzle.endpoints), f"{len(puzzle.endpoints) + 1}")
    outside = [node for node in puzzle.nodes if cell_of(node) not in differ_at]
    depth = _distances(puzzle, outside, len(puzzle.nodes))
    cuts = []
    for which, solution in enumerate(solutions):
        for colour, path in solution.paths.items():
            start, end = puzzle.endpoints[colour]
            path = path if path[0] == start else path[::-1]
            for i in range(SHORTEST, len(path) - SHORTEST + 1):
                a, b = path[i - 1], path[i]
                if len(a) == 2 and len(b) == 2 and {cell_of(a), cell_of(b)} & differ_at:
                    cuts.append((-depth.get(a, 0) - depth.get(b, 0), which, colour, i))
    for _, which, colour, i in sorted(cuts, key=lambda cut: cut[0]):
        solution = solutions[which]
        start, end = puzzle.endpoints[colour]
        path = solution.paths[colour] if solution.paths[colour][0] == start else solution.paths[colour][::-1]
        a, b = path[i - 1], path[i]
        endpoints = {**puzzle.endpoints, colour: (start, a), new: (b, end)}
        edit = Edit("pair", colour, (cell_of(a), cell_of(b)), new, cell_of(end))
        keeps = Solution({**solution.paths, colour: path[:i], new: path[i:]})
        candidate = _kept(edit, replace(puzzle, endpoints=endpoints), keeps)
        if candidate:
            yield candidate

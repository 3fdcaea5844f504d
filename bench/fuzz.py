"""Fuzzes every engine against brute force on random tiny boards of every kind.

python bench/fuzz.py [--boards 10000] [--seed 1] [--engines cpsat,ilp-highs] [--jobs 2] [--limit 20]

Each board (square, holes, walls, warps, bridges or hex; at most 12 cells; Flow Free's
rules on two in five, the Numberlink readings `--allow-touch` and `--allow-blanks` on
the rest) has its solutions counted by tests/brute.py, which tries every simple path of
every colour and keeps what the verifier accepts, sharing nothing with the engines.
Then, for each engine: the solve status (solvable iff brute force finds a solution),
`pipeline.count` up to --limit and the `unique` verdict must agree with the brute
count, and every answer must pass the verifier. Three boards in five get the ends of a
random cover of the board by walks as endpoints (often solvable), the rest random ones
(often not). Board N of a seed is the same on every run.

Prints a table per engine and kind; exits 1 on any disagreement or invalid answer,
after printing each such board in the board format with its rules, so that
`cpflow count [--allow-touch] [--allow-blanks] --engine NAME FILE` reproduces it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from cpflow.board.grid import Cell, Colour, Node, Puzzle, Rules, Solution, lattice
from cpflow.board.verify import violations

TESTS = Path(__file__).resolve().parent.parent / "tests"  # brute.py lives with the tests
KINDS = ("square", "holes", "walls", "warps", "bridges", "hex")
COLOURS = "RGBYOCMP"
# Flow Free's rules on two boards in five; the Numberlink readings (touching, blanks) on the rest.
RULES = (Rules(), Rules(), Rules(touch=True), Rules(blanks=True), Rules(touch=True, blanks=True))
STOP = 0.2  # the chance a random walk stops at each step once it has two cells
TIME_LIMIT = 60.0  # seconds per engine call: tiny boards take milliseconds; a hang is a finding


@dataclass(frozen=True)
class Check:
    """What one engine did on one board: what disagreed with brute force, how many answers broke a rule."""

    problems: tuple[str, ...]
    invalid: int
    seconds: float


@dataclass(frozen=True)
class Board:
    """One fuzzed board: its number, kind, brute count, each engine's check, and its text when one failed."""

    index: int
    kind: str
    flags: str  # the rules as `cpflow` options, e.g. "--allow-touch"
    solutions: int
    brute_seconds: float
    checks: dict[str, Check]
    text: str = ""


# Random boards ------------------------------------------------------------------------


def random_board(index: int, seed: int) -> tuple[str, Puzzle]:
    """Board number `index` of the run with this seed (the same every time): its kind and puzzle."""
    rng = random.Random(f"{seed}:{index}")
    kind = KINDS[index % len(KINDS)]
    width, height = _size(kind, rng)
    features = _features(kind, width, height, rng)
    shape = "hex" if kind == "hex" else "square"
    empty = replace(Puzzle.build(width, height, {}, shape=shape, **features), rules=rng.choice(RULES))
    planted = _planted_endpoints(empty, rng) if rng.random() < 0.6 else {}
    endpoints = planted or _random_endpoints(empty, rng)
    puzzle = Puzzle.build(width, height, endpoints, shape=shape, name=f"fuzz #{index}", **features)
    return kind, replace(puzzle, rules=empty.rules)


def _size(kind: str, rng: random.Random) -> tuple[int, int]:
    """A width and height of at most 12 cells; 3x3 at least for bridges, which stand inside the board."""
    sizes = [(w, h) for w in range(2, 5) for h in range(2, 5) if w * h <= 12]
    if kind == "bridges":
        sizes = [(w, h) for w, h in sizes if min(w, h) >= 3]
    return rng.choice(sizes)


def _features(kind: str, width: int, height: int, rng: random.Random) -> dict[str, list]:
    """The holes, walls, warps and bridges a board of this kind gets (hex boards get holes and walls)."""
    shape = "hex" if kind == "hex" else "square"
    cells = [(r, c) for r in range(height) for c in range(width)]
    holes = rng.sample(cells, rng.randint(1, min(3, len(cells) - 3))) if kind in ("holes", "hex") else []
    on = [cell for cell in cells if cell not in holes]
    touching = sorted({tuple(sorted((a, b))) for a in on for b in lattice(shape, width, height, a) if b in on})
    walls = rng.sample(touching, min(len(touching), rng.randint(1, 3))) if kind in ("walls", "hex") else []
    if kind == "hex":
        walls = walls[: rng.randint(0, 1)]
    inner = [(r, c) for r, c in cells if 0 < r < height - 1 and 0 < c < width - 1]
    bridges = rng.sample(inner, rng.randint(1, min(2, len(inner)))) if kind == "bridges" else []
    return {"holes": holes, "walls": walls, "warps": _warps(kind, width, height, rng), "bridges": bridges}


def _warps(kind: str, width: int, height: int, rng: random.Random) -> list[tuple[Cell, Cell]]:
    """A warp board's passages: some of a torus's wrap-rounds, as on the game's boards, or now and
    then two cells anywhere that do not touch."""
    if kind != "warps":
        return []
    wraps = [((r, 0), (r, width - 1)) for r in range(height) if width > 2]
    wraps += [((0, c), (height - 1, c)) for c in range(width) if height > 2]
    cells = [(r, c) for r in range(height) for c in range(width)]
    anywhere = [(a, b) for a in cells for b in cells if a < b and b not in lattice("square", width, height, a)]
    pool = wraps if wraps and rng.random() < 0.7 else anywhere
    return rng.sample(pool, min(len(pool), rng.randint(1, 2)))


def _planted_endpoints(board: Puzzle, rng: random.Random, tries: int = 30) -> dict[Colour, tuple[Node, Node]]:
    """The ends of random walks that cover the board, each walk a colour, chosen so that the walks
    are a solution under the board's rules if one of `tries` covers is; {} if none gave a colour."""
    endpoints: dict[Colour, tuple[Node, Node]] = {}
    for _ in range(tries):
        walks = _walk_cover(board, rng)[: len(COLOURS)]
        endpoints = {COLOURS[i]: (walk[0], walk[-1]) for i, walk in enumerate(walks)}
        paths = Solution({COLOURS[i]: tuple(walk) for i, walk in enumerate(walks)})
        if walks and not violations(replace(board, endpoints=endpoints), paths):
            break
    return endpoints


def _walk_cover(board: Puzzle, rng: random.Random) -> list[list[Node]]:
    """Random walks from random cells through nodes no walk has used yet, each stopping at a dead end
    or by chance; walks of one cell are dropped (their cell is left empty)."""
    free, walks = set(board.nodes), []
    starts = [node for node in board.nodes if len(node) == 2]
    rng.shuffle(starts)
    for start in (node for node in starts if node in free):
        walk = [start]
        free.discard(start)
        while options := [node for node in board.neighbours[walk[-1]] if node in free]:
            if len(walk) > 1 and rng.random() < STOP:
                break
            walk.append(rng.choice(options))
            free.discard(walk[-1])
        while len(walk[-1]) == 3:  # a path never ends on a bridge: give its lanes back
            free.add(walk.pop())
        if len(walk) > 1:
            walks.append(walk)
    return walks


def _random_endpoints(board: Puzzle, rng: random.Random) -> dict[Colour, tuple[Node, Node]]:
    """One to three colours with their endpoints on random cells (never on a bridge)."""
    cells = [node for node in board.nodes if len(node) == 2]
    pairs = rng.randint(1, min(3, len(cells) // 2))
    chosen = rng.sample(cells, 2 * pairs)
    return {COLOURS[i]: (chosen[2 * i], chosen[2 * i + 1]) for i in range(pairs)}


# Checking one board -------------------------------------------------------------------


def check_board(task: tuple[int, int, tuple[str, ...], int]) -> Board:
    """Brute force, then every engine, on board number `index`."""
    from brute import brute_count

    from cpflow.board.formats import picture

    index, seed, engines, limit = task
    kind, puzzle = random_board(index, seed)
    began = time.perf_counter()
    expected = brute_count(puzzle)
    brute_seconds = time.perf_counter() - began
    checks = {engine: check_engine(puzzle, engine, expected, limit) for engine in engines}
    failed = any(check.problems or check.invalid for check in checks.values())
    text = picture(puzzle, fmt="board") if failed else ""
    return Board(index, kind, _flags(puzzle.rules), expected, brute_seconds, checks, text)


def _flags(rules: Rules) -> str:
    return " ".join(flag for flag, on in (("--allow-touch", rules.touch), ("--allow-blanks", rules.blanks)) if on)


def check_engine(puzzle: Puzzle, engine: str, expected: int, limit: int) -> Check:
    """Solve, count and uniqueness on one engine against the brute count; every answer verified."""
    from cpflow.engines.pipeline import count, solve
    from cpflow.errors import InvalidSolution
    from cpflow.workflows.unique import uniqueness

    began = time.perf_counter()
    try:
        solved = solve(puzzle, engine, time_limit=TIME_LIMIT)
        found, status = count(puzzle, limit, engine, time_limit=TIME_LIMIT)
        unique = uniqueness(puzzle, engine, time_limit=TIME_LIMIT)
    except InvalidSolution as error:  # the pipeline verifies every answer before returning it
        return Check((str(error),), 1, time.perf_counter() - began)
    except Exception as error:  # noqa: BLE001 - an engine that crashes on a board is a finding, not the end of the run
        return Check((f"crashed: {type(error).__name__}: {error}",), 0, time.perf_counter() - began)
    seconds = time.perf_counter() - began
    answers = [solution for solution in (solved.solution, *found, *unique.solutions) if solution is not None]
    return Check(_disagreements(expected, limit, solved, found, status, unique), _invalid(puzzle, answers), seconds)


def _disagreements(expected: int, limit: int, solved, found, status, unique) -> tuple[str, ...]:
    """Where the engine's solve status, count and uniqueness verdict differ from brute force's count."""
    from cpflow.results import Status
    from cpflow.workflows.unique import Verdict

    problems = []
    if solved.status is not (Status.SOLVED if expected else Status.UNSOLVABLE):
        problems.append(f"solve says {solved.status}, brute force counts {expected} solutions")
    wanted = (expected, Status.SOLVED) if expected < limit else (limit, Status.UNKNOWN)
    if (len(found), status) != wanted:
        problems.append(f"count gives {len(found)} ({status}), brute force {expected} (limit {limit})")
    if len({repr(sorted(solution.paths.items())) for solution in found}) != len(found):
        problems.append("count gives one solution twice")
    verdict = {0: Verdict.UNSOLVABLE, 1: Verdict.UNIQUE}.get(expected, Verdict.NOT_UNIQUE)
    if unique.verdict is not verdict:
        problems.append(f"unique says {unique.verdict}, brute force counts {expected} solutions")
    return tuple(problems)


def _invalid(puzzle: Puzzle, answers: list) -> int:
    """How many answers the verifier rejects (checked here too, not only in the pipeline)."""
    return sum(bool(violations(puzzle, answer)) for answer in answers)


# The run and its table ----------------------------------------------------------------


@dataclass
class Tally:
    """One row of the table: boards, agreements, disagreements, invalid answers, engine seconds."""

    boards: int = 0
    agree: int = 0
    disagree: int = 0
    invalid: int = 0
    seconds: float = 0.0

    def add(self, check: Check) -> None:
        self.boards += 1
        self.agree += not (check.problems or check.invalid)
        self.disagree += bool(check.problems)
        self.invalid += check.invalid
        self.seconds += check.seconds


def _start_worker(tests: str) -> None:
    sys.path.insert(0, tests)  # brute.py, for workers started afresh (spawn) as well as forked


def run(boards: int, seed: int, engines: tuple[str, ...], jobs: int, limit: int) -> list[Board]:
    """Every board checked, in order, `jobs` at a time; progress on stderr."""
    tasks = [(index, seed, engines, limit) for index in range(boards)]
    done = []
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(str(TESTS),)) as pool:
        for board in pool.map(check_board, tasks, chunksize=25):
            done.append(board)
            if len(done) % 500 == 0:
                print(f"  {len(done)} / {boards} boards", file=sys.stderr, flush=True)
    return done


def print_tables(done: list[Board], engines: tuple[str, ...], limit: int) -> None:
    """The boards by kind and by rules (as brute force counts them), then one row per engine and kind."""
    print("| boards | kind or rules | solvable | unique | 2 or more solutions | over the limit | brute s |")
    print("|---|---|---|---|---|---|---|")
    groups = [(kind, [b for b in done if b.kind == kind]) for kind in KINDS]
    ruleset = dict.fromkeys(_flags(rules) for rules in RULES)
    groups += [(flags or "flow", [b for b in done if b.flags == flags]) for flags in ruleset]
    for name, some in [*groups, ("all", done)]:
        counts = [b.solutions for b in some]
        row = [len(some), name, sum(n > 0 for n in counts), counts.count(1), sum(n > 1 for n in counts)]
        row += [sum(n >= limit for n in counts), f"{sum(b.brute_seconds for b in some):.1f}"]
        print("| " + " | ".join(map(str, row)) + " |")
    print("\n| engine | kind | boards | agree | disagree | invalid answers | engine s |")
    print("|---|---|---|---|---|---|---|")
    for engine in engines:
        for kind in (*KINDS, "all"):
            tally = Tally()
            for board in (b for b in done if kind in (b.kind, "all")):
                tally.add(board.checks[engine])
            row = [engine, kind, tally.boards, tally.agree, tally.disagree, tally.invalid, f"{tally.seconds:.1f}"]
            print("| " + " | ".join(map(str, row)) + " |")


def print_failures(done: list[Board], seed: int) -> int:
    """Each board some engine got wrong, in the board format, with what went wrong; how many there were."""
    failed = [b for b in done if b.text]
    for board in failed:
        rules = f", rules: {board.flags}" if board.flags else ""
        print(f"\nboard #{board.index} (--seed {seed}, {board.kind}{rules}), brute force: {board.solutions} solutions")
        for engine, check in board.checks.items():
            for problem in check.problems:
                print(f"  {engine}: {problem}")
            if check.invalid:
                print(f"  {engine}: {check.invalid} invalid answer(s)")
        print(board.text, end="")
    return len(failed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engines", help="comma-separated (default: every engine installed)")
    parser.add_argument("--jobs", type=int, default=2, help="boards checked at once, on separate processes")
    parser.add_argument("--limit", type=int, default=20, help="count solutions up to this many")
    args = parser.parse_args()
    from cpflow.engines.catalog import available, backend
    from cpflow.errors import EngineUnavailable

    engines = tuple(args.engines.split(",")) if args.engines else tuple(available())
    try:
        for name in engines:
            backend(name)  # an unknown or missing engine stops the run here, not in every worker
    except EngineUnavailable as error:
        sys.exit(f"fuzz: {error}")
    began = time.perf_counter()
    done = run(args.boards, args.seed, engines, args.jobs, args.limit)
    print_tables(done, engines, args.limit)
    failed = print_failures(done, args.seed)
    wall = time.perf_counter() - began
    print(f"\n{len(done)} boards, seed {args.seed}, limit {args.limit}, {args.jobs} jobs: {wall:.0f} s wall")
    print(f"{failed} board(s) with a disagreement or an invalid answer")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""The engines: one protocol, one table of entries, and the one place answers are verified.

An engine is a module that offers what `Backend` declares (solve, count, export,
available), run with fixed options under a name. Each entry of `ENGINES` declares, as
data, what commands and the web page need to know: its family and formulation, the
options it runs with, whether the front end's forced moves come first, the rule sets
and board kinds it supports, whether it counts in one search, the model files it
writes, and the optional package it needs (with the extra that installs it). A new
engine is one module and one entry. Workflows call `solve` and `count` here, never a
module directly, so every solution passes the verifier before anyone sees it, and a
puzzle an engine does not support is refused here in one line.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from cpflow import outputs
from cpflow.board.grid import Puzzle, Solution
from cpflow.board.verify import violations
from cpflow.clock import Deadline, OutOfTime
from cpflow.deduce.rules import Partial
from cpflow.engines import front
from cpflow.engines.race import Rival, beside
from cpflow.errors import CpflowError, EngineUnavailable, EngineUnsupported, InvalidSolution, ModelTooLarge
from cpflow.results import SolveResult, Status


class Backend(Protocol):
    """What an engine module offers; `options` are the registry entry's fixed ones (model, MIP solver)."""

    def available(self, **options) -> bool:
        """Whether what the engine needs is installed."""

    def solve(
        self,
        puzzle: Puzzle,
        *,
        root: Partial | None = None,
        time_limit: float | None = None,
        workers: int | None = None,
        exclude: Sequence[Solution] = (),
        **options,
    ) -> SolveResult:
        """One solution that is none of `exclude`, or why there is none; not yet verified. The model
        starts from `root`, what the front end settled, when given."""

    def count(
        self, puzzle: Puzzle, limit: int, *, root: Partial | None = None, time_limit: float | None = None, **options
    ) -> tuple[list[Solution], Status]:
        """Optional: up to `limit` distinct solutions in one search; SOLVED when that is all of them,
        else UNKNOWN. Without it, the registry counts by solving again and again with exclusions."""

    def export(self, puzzle: Puzzle, path: str | Path, **options) -> None:
        """Write the puzzle's model for another solver, in the format the suffix names, at `path` (a part
        that `export` lands on the target: cpflow.outputs)."""


RULE_SETS = ("flow", "touch", "blanks")  # Flow Free's rules; paths may touch themselves; cells may stay empty
KINDS = ("holes", "walls", "warps", "bridges", "hexagons")  # what a board may have beyond a plain rectangle


@dataclass(frozen=True)
class Engine:
    """A registry entry: an engine module run with fixed options, and what it can do."""

    name: str
    family: str  # the kind of solver: "CP-SAT", "MIP", "SAT"
    module: str
    formulation: str  # the model it builds, as named in models/ (e.g. "label" for models/label.md)
    needs: str  # the package it cannot run without
    summary: str
    options: dict = field(default_factory=dict)
    by_rules: dict = field(default_factory=dict)  # rule set -> options that replace these for its puzzles
    extra: str | None = None  # the cpflow extra that installs `needs`, when cpflow's own install does not
    front: bool = False  # the front end's forced moves (and short search) first; the model starts from what it settled
    races: bool = False  # the front end's search goes on beside the engine's solve (it stops within moments)
    rule_sets: tuple[str, ...] = RULE_SETS
    kinds: tuple[str, ...] = KINDS
    counts: bool = False  # `count` in one search; else counted by solving again, excluding each answer
    workers: bool = False  # `workers` > 1 races copies of the search
    rounds: bool = False  # whether `solve` takes `on_round` (answers round by round, before the last)
    # Peak memory of building and solving, per node and per node and colour: measured on
    # 36x36 to 100x100 boards (models/memory.md) and rounded up, for the memory guard.
    bytes_per_node: int = 0
    bytes_per_node_colour: int = 0
    # and per turn (a pair of a node's neighbours: 6 a square cell, 32,385 a node of 255), where
    # the model has something for each (a clause, a ring, a variable): measured on cliques K_48, K_96
    bytes_per_turn: int = 0
    exports: tuple[str, ...] = ()  # the model file suffixes `export` writes
    loads: tuple[str, ...] = ()  # modules the engine imports only when it needs them (see `warm`)

    def backend(self) -> Backend:
        """The engine's module, imported (so that later timings leave the import out)."""
        if not self.available():
            how = f"; {self.install}" if self.extra else ""
            raise EngineUnavailable(f"engine {self.name!r} is not available{how}; installed: {', '.join(available())}")
        return importlib.import_module(self.module)

    def available(self) -> bool:
        """Whether the engine can run here (asked once a process: it may load a MIP solver to see)."""
        return _installed(self.name)

    @property
    def install(self) -> str:
        """How to install what the engine needs."""
        return f"pip install 'cpflow[{self.extra}]'" if self.extra else "pip install cpflow"

    def record(self) -> dict:
        """The entry as `cpflow engines --format json` prints it."""
        return {
            "name": self.name,
            "family": self.family,
            "formulation": self.formulation,
            "summary": self.summary,
            "front_end": self.front,
            "by_rule_set": self.by_rules,
            "rule_sets": list(self.rule_sets),
            "kinds": list(self.kinds),
            "counts": "one search" if self.counts else "by exclusion",
            "workers": self.workers,
            "exports": list(self.exports),
            "needs": self.needs,
            "installed": self.available(),
            "install": self.install,
        }

    def options_for(self, puzzle: Puzzle) -> dict:
        """The options the engine runs a puzzle with: its own, and its rule set's."""
        overrides = [self.by_rules.get(name, {}) for name in rule_sets_of(puzzle)]
        return {**self.options, **{k: v for override in overrides for k, v in override.items()}}

    def fronted(self, forced: bool | None = None) -> bool:
        """Whether the front end runs first: as the entry declares, unless `forced` says otherwise."""
        return self.front if forced is None else forced

    def check_supports(self, puzzle: Puzzle) -> None:
        """EngineUnsupported when the puzzle's rules or board kinds are not the engine's."""
        missing = [f"--allow-{name}" for name in rule_sets_of(puzzle) if name not in self.rule_sets]
        if len(self.kinds) < len(KINDS):  # asked only of an engine that lacks some: solving is a hot path
            missing += [kind for kind in kinds_of(puzzle) if kind not in self.kinds]
        if missing:
            raise EngineUnsupported(f"engine {self.name} does not support {' or '.join(missing)}")

    def model_bytes(self, puzzle: Puzzle) -> int:
        """About how much memory building and solving the puzzle's model takes, at its peak."""
        nodes = len(puzzle.nodes)
        turns = sum(d * (d - 1) // 2 for d in map(len, puzzle.neighbours.values()))
        per_node = nodes * self.bytes_per_node + nodes * len(puzzle.colours) * self.bytes_per_node_colour
        return per_node + turns * self.bytes_per_turn

    def check_fits(self, puzzle: Puzzle) -> None:
        """ModelTooLarge, before anything is built, when the model would not fit in free memory."""
        need, free = self.model_bytes(puzzle), free_memory()
        if free is not None and need > free:
            raise ModelTooLarge(
                f"{puzzle.name}: the {self.name} model of this {puzzle.width}x{puzzle.height} board "
                f"with {len(puzzle.colours)} colours needs about {need / 2**30:.1f} GiB, "
                f"and {free / 2**30:.1f} GiB is free"
            )


CP_SAT_FILES = (".pb.txt", ".pbtxt", ".pb")  # a CpModelProto, as text or binary
MIP_FILES = (".lp", ".mps")
SAT_FILES = (".cnf",)  # DIMACS
ENGINES = {
    engine.name: engine
    for engine in (
        Engine(
            "cpsat",
            "CP-SAT",
            "cpflow.engines.cpsat",
            "label",
            "ortools",
            "OR-Tools CP-SAT, label model (circuit model when paths may touch themselves), after forced moves",
            {"model": "label"},
            {"touch": {"model": "circuit"}},  # 15x15, 3 colours, inputs2: 36 s -> 2.6 s (models/forced.md)
            front=True,
            races=True,
            counts=True,
            workers=True,
            bytes_per_node=64_000,
            bytes_per_node_colour=160,  # the colour domains: a flood per colour, then a domain per label
            bytes_per_turn=800,  # a dead turn's clause, a triangle's ring (650 measured)
            exports=CP_SAT_FILES,
            loads=("cpflow.engines.cpsat_solver", "cpflow.engines.label"),
        ),
        Engine(
            "cpsat-circuit",
            "CP-SAT",
            "cpflow.engines.cpsat",
            "circuit",
            "ortools",
            "OR-Tools CP-SAT, per-colour circuit model, after forced moves",
            {"model": "circuit"},
            front=True,
            races=True,
            counts=True,
            workers=True,
            bytes_per_node_colour=32_000,
            exports=CP_SAT_FILES,
            loads=("cpflow.engines.cpsat_solver", "cpflow.engines.circuit"),
        ),
        Engine(
            "ilp-cbc",
            "MIP",
            "cpflow.engines.ilp",
            "ilp",
            "pulp",
            "0-1 program in PuLP, CBC, after forced moves",
            {"mip_solver": "cbc"},
            front=True,
            workers=True,
            rounds=True,
            bytes_per_node_colour=32_000,  # PuLP's model and the CBC process beside it
            exports=MIP_FILES,
        ),
        Engine(
            "ilp-highs",
            "MIP",
            "cpflow.engines.ilp",
            "ilp",
            "pulp",
            "0-1 program in PuLP, HiGHS, after forced moves",
            {"mip_solver": "highs"},
            front=True,
            workers=True,
            rounds=True,
            bytes_per_node_colour=16_000,
            exports=MIP_FILES,
        ),
        *(
            Engine(
                name,
                "SAT",
                "cpflow.engines.sat",
                "sat",
                "pysat",
                f"SAT in python-sat, {solver_name}, after forced moves",
                {"solver": solver},
                extra="sat",
                front=True,
                counts=True,
                bytes_per_node_colour=8_000,
                bytes_per_turn=1_600,  # a turn's variable and clauses (1,400 measured)
                exports=SAT_FILES,
                loads=("cpflow.engines.cnf", "pysat.solvers", "pysat.card"),
            )
            for name, solver, solver_name in (
                ("sat", "cadical195", "CaDiCaL 1.9.5"),
                ("sat-glucose", "glucose42", "Glucose 4.2"),
                ("sat-minisat", "minisat22", "MiniSat 2.2"),
            )
        ),
    )
}
DEFAULT = "cpsat"


def rule_sets_of(puzzle: Puzzle) -> list[str]:
    """The puzzle's rule sets (RULE_SETS): "flow" alone, or what it allows beyond Flow Free's rules."""
    return [name for name in ("touch", "blanks") if getattr(puzzle.rules, name)] or ["flow"]


def kinds_of(puzzle: Puzzle) -> list[str]:
    """The kinds (`KINDS`) the puzzle's board has."""
    found = {
        "holes": bool(puzzle.holes()),
        "walls": bool(puzzle.walls()),
        "warps": bool(puzzle.warps()),
        "bridges": bool(puzzle.bridges()),
        "hexagons": puzzle.shape == "hex",
    }
    return [kind for kind in KINDS if found[kind]]


@functools.cache
def _installed(name: str) -> bool:
    entry = ENGINES[name]
    if importlib.util.find_spec(entry.needs) is None:
        return False
    return importlib.import_module(entry.module).available(**entry.options)


def free_memory() -> int | None:
    """The bytes of memory free for a new model (Linux's MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def entry_of(name: str = DEFAULT) -> Engine:
    """The registry entry of a name; EngineUnavailable if there is none."""
    if name not in ENGINES:
        raise EngineUnavailable(f"engine {name!r} is not available; known: {', '.join(ENGINES)}")
    return ENGINES[name]


def available() -> list[str]:
    """The names of the engines installed here, in the registry's order."""
    return [name for name, entry in ENGINES.items() if entry.available()]


def backend(name: str = DEFAULT) -> Backend:
    """The named engine's module, imported; EngineUnavailable if it is unknown or not installed."""
    return entry_of(name).backend()


def warm(name: str = DEFAULT) -> Backend:
    """The engine's module, with what it would import on its first model (OR-Tools for the CP-SAT
    engines, which a board their front end answers never loads), so that timings leave it out."""
    module = backend(name)
    for other in entry_of(name).loads:
        importlib.import_module(other)
    return module


def solve(puzzle: Puzzle, engine: str = DEFAULT, *, forced: bool | None = None, **options) -> SolveResult:
    """Solve with the named engine: the front end first when the entry declares it (or `forced`
    says so), then the engine's `solve` with the other options (time_limit, workers, exclude, ...).

    The answer has passed the verifier: an invalid solution raises InvalidSolution. A model
    that would not fit in free memory raises ModelTooLarge before it is built.
    """
    entry = _ready(engine, puzzle, options)
    began = time.perf_counter()
    deadline = Deadline(options.pop("time_limit", None), began)
    try:
        settled = front.settle_first(puzzle, options.get("exclude", ()), deadline) if entry.fronted(forced) else None
    except OutOfTime:  # the front end is part of building
        settled = SolveResult(Status.UNKNOWN, None, 0.0, 0.0, engine, {"stopped": "building"})
    if isinstance(settled, SolveResult):
        result = settled
    else:
        root = settled.root if settled else None
        search = settled.search if settled and entry.races else None
        rival = Rival(search, options.get("exclude", ()), deadline) if search else None
        with beside(rival):
            result = entry.backend().solve(
                puzzle, root=root, time_limit=deadline.left(), **entry.options_for(puzzle), **options
            )
        if rival and rival.done.is_set() and result.status is Status.UNKNOWN:  # called off by the search's answer
            result = rival.result(began)
        elif settled:
            result = _after_front(result, time.perf_counter() - began - result.seconds)
    if result.solution is not None:
        _verified(puzzle, result.solution, engine)
    return replace(result, engine=engine)


def _after_front(result: SolveResult, front_seconds: float) -> SolveResult:
    """The engine's result with the front end's seconds counted in (as building)."""
    return replace(
        result,
        seconds=result.seconds + front_seconds,
        build_seconds=result.build_seconds + front_seconds,
        stats={**result.stats, "front_seconds": round(front_seconds, 4)},
    )


def count(
    puzzle: Puzzle,
    limit: int,
    engine: str = DEFAULT,
    *,
    time_limit: float | None = None,
    forced: bool | None = None,
    **options,
) -> tuple[list[Solution], Status]:
    """Up to `limit` distinct solutions, each verified, and SOLVED if that is all of them: by the
    front end when the entry declares it (or `forced` says so) and its search finishes, else by
    the engine on what it settled.

    An engine without a `count` of its own is asked again and again, excluding each answer.
    """
    entry = _ready(engine, puzzle, options)
    deadline = Deadline(time_limit)
    try:
        settled = front.count_first(puzzle, limit, deadline) if entry.fronted(forced) else None
    except OutOfTime:
        settled = [], Status.UNKNOWN
    if isinstance(settled, tuple):
        found, status = settled
    else:
        root = settled.root if settled else None
        if entry.counts:
            left = deadline.left()
            found, status = entry.backend().count(
                puzzle, limit, root=root, time_limit=left, **entry.options_for(puzzle), **options
            )
        else:
            found, status = _count_by_exclusion(entry, puzzle, limit, root, deadline, options)
    for solution in found:
        _verified(puzzle, solution, engine)
    return found, status


def _count_by_exclusion(
    entry: Engine, puzzle: Puzzle, limit: int, root: Partial | None, deadline: Deadline, options: dict
) -> tuple[list[Solution], Status]:
    """Solutions one solve at a time, each excluding those found before."""
    found: list[Solution] = []
    while len(found) < limit:
        left = deadline.left()
        result = entry.backend().solve(
            puzzle, root=root, time_limit=left, exclude=found, **entry.options_for(puzzle), **options
        )
        if result.solution is None:
            return found, Status.SOLVED if result.status is Status.UNSOLVABLE else Status.UNKNOWN
        found.append(result.solution)
    return found, Status.UNKNOWN


def export(puzzle: Puzzle, path: str | Path, engine: str = DEFAULT) -> None:
    """Write the puzzle's model, as the named engine builds it, for another solver, in the
    format the suffix names (one of the engine's `exports`, else CpflowError)."""
    entry = entry_of(engine)
    name = Path(path).name.lower()
    if not name.endswith(entry.exports):
        known = [(suffix, other) for other, e in ENGINES.items() for suffix in e.exports if name.endswith(suffix)]
        instead = f"; {known[0][0]} files come from engine {' or '.join(o for _, o in known)}" if known else ""
        raise CpflowError(f"engine {engine} writes {', '.join(entry.exports)} files{instead}")
    entry.check_fits(puzzle)
    with outputs.together() as group, outputs.said_of(path):  # whole or not at all; else OutputError
        entry.backend().export(puzzle, group.path(path), **entry.options_for(puzzle))


def _ready(engine: str, puzzle: Puzzle, options: dict) -> Engine:
    """The entry, once the engine is installed, supports the puzzle and the options, and its model fits."""
    entry = entry_of(engine)
    entry.backend()
    entry.check_supports(puzzle)
    if (options.get("workers") or 1) > 1 and not entry.workers:
        raise EngineUnsupported(f"engine {engine} runs one worker; leave out --workers")
    entry.check_fits(puzzle)
    return entry


def _verified(puzzle: Puzzle, solution: Solution, name: str) -> None:
    found = violations(puzzle, solution)
    if found:
        raise InvalidSolution(name, found)

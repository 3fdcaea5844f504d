"""The catalog of engines: one entry for each, with named fields, and the protocol its module meets.

An engine is a module that offers what `Backend` declares (its model, its search, and
perhaps counting and export), run with fixed options under a name. Each entry of
`ENGINES` declares, as data, what commands and the web page need to know: its family and
formulation, the options it runs with, whether the front end's forced moves come first,
the rule sets and board kinds it supports, its capabilities (counting in one search,
workers, answers round by round, the model files it writes: each declared here once,
and tests/test_catalog.py checks the module against it), its memory per node, and the
optional package it needs (with the extra that installs it). A new engine is one module
and one entry (`added` puts one in for a while, as tests/test_tiny_engine.py does).
Workflows run an engine through cpflow.engines.pipeline, which verifies every answer,
never through its module.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cpflow.board.grid import BOARD_KINDS, Puzzle, Solution
from cpflow.errors import EngineUnavailable, EngineUnsupported

if TYPE_CHECKING:  # the protocol's annotations alone: every command loads the catalog (start-up time)
    from cpflow.clock import Deadline
    from cpflow.deduce.rules import Partial
    from cpflow.engines.base import Answer
    from cpflow.results import Status


class Backend(Protocol):
    """What an engine module offers. `options` are its catalog entry's (model, MIP solver, SAT solver)
    and the caller's: those `build` names are the model's, the others the search's (cpflow.engines.base)."""

    def available(self, **options) -> bool:
        """Whether what the engine needs is installed."""

    def build(self, puzzle: Puzzle, deadline: Deadline, root: Partial | None = None, **options) -> Any:
        """The puzzle's model, on `root` (what the front end settled) when given; OutOfTime when the
        deadline passes first."""

    def search(
        self, model: Any, deadline: Deadline, *, exclude: Sequence[Solution] = (), workers: int | None = None, **options
    ) -> Answer:
        """The model searched by the deadline for a solution that is none of `exclude`, not yet verified."""

    def count(self, model: Any, limit: int, deadline: Deadline, **options) -> tuple[list[Solution], Status]:
        """Optional (`Engine.counts`): up to `limit` distinct solutions in one search; SOLVED when that
        is all of them, else UNKNOWN. Without it, the pipeline counts by searching again and again."""

    def export(self, puzzle: Puzzle, path: str | Path, **options) -> None:
        """Optional (`Engine.exports`): write the puzzle's model for another solver, in the format the
        suffix names, at `path` (a part that the pipeline lands on the target: cpflow.outputs)."""


RULE_SETS = ("flow", "touch", "blanks")  # Flow Free's rules; paths may touch themselves; cells may stay empty


@dataclass(frozen=True, kw_only=True)
class Engine:
    """A catalog entry: an engine module run with fixed options, and what it can do."""

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
    races: bool = False  # the front end's search goes on beside the engine's search (it stops within moments)
    rule_sets: tuple[str, ...] = RULE_SETS
    kinds: tuple[str, ...] = BOARD_KINDS
    # Capabilities, each declared here once (tests/test_catalog.py checks the module against them):
    counts: bool = False  # the module's `count`: in one search; else counted by searching again, excluding each answer
    workers: bool = False  # `workers` > 1 races copies of the search
    rounds: bool = False  # the module's `search` takes `on_round` (answers round by round, before the last)
    exports: tuple[str, ...] = ()  # the model file suffixes the module's `export` writes
    # Peak memory of building and solving, per node and per node and colour: measured on
    # 36x36 to 100x100 boards (models/memory.md) and rounded up, for the memory guard.
    bytes_per_node: int = 0
    bytes_per_node_colour: int = 0
    # and per turn (a pair of a node's neighbours: 6 a square cell, 32,385 a node of 255), where
    # the model has something for each (a clause, a ring, a variable): measured on cliques K_48, K_96
    bytes_per_turn: int = 0
    loads: tuple[str, ...] = ()  # modules the engine imports only when it needs them (see `warm`)

    def backend(self) -> Backend:
        """The engine's module, imported (so that later timings leave the import out)."""
        if not self.available():
            how = f"; {self.install}" if self.extra else ""
            raise EngineUnavailable(f"engine {self.name!r} is not available{how}; installed: {', '.join(available())}")
        return importlib.import_module(self.module)

    def available(self) -> bool:
        """Whether the engine can run here (asked once a process: it may load a MIP solver to see)."""
        return _installed(self.needs, self.module, tuple(self.options.items()))

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
        if len(self.kinds) < len(BOARD_KINDS):  # asked only of an engine that lacks some: solving is a hot path
            missing += [kind for kind in puzzle.kinds() if kind not in self.kinds]
        if missing:
            raise EngineUnsupported(f"engine {self.name} does not support {' or '.join(missing)}")

    def model_bytes(self, puzzle: Puzzle) -> int:
        """About how much memory building and solving the puzzle's model takes, at its peak."""
        nodes = len(puzzle.nodes)
        turns = sum(d * (d - 1) // 2 for d in map(len, puzzle.neighbours.values()))
        per_node = nodes * self.bytes_per_node + nodes * len(puzzle.colours) * self.bytes_per_node_colour
        return per_node + turns * self.bytes_per_turn


# What the engines of a family share, given once: each family a partial entry.
cp_sat = functools.partial(
    Engine,
    family="CP-SAT",
    module="cpflow.engines.cpsat",
    needs="ortools",
    front=True,
    races=True,
    counts=True,
    workers=True,
    exports=(".pb.txt", ".pbtxt", ".pb"),  # a CpModelProto, as text or binary
)
mip = functools.partial(
    Engine,
    family="MIP",
    module="cpflow.engines.ilp",
    formulation="ilp",
    needs="pulp",
    front=True,
    workers=True,
    rounds=True,
    exports=(".lp", ".mps"),
)
sat = functools.partial(
    Engine,
    family="SAT",
    module="cpflow.engines.sat",
    formulation="sat",
    needs="pysat",
    extra="sat",
    front=True,
    counts=True,
    bytes_per_node_colour=8_000,
    bytes_per_turn=1_600,  # a turn's variable and clauses (1,400 measured)
    exports=(".cnf",),  # DIMACS
    loads=("cpflow.engines.cnf", "pysat.solvers", "pysat.card"),
)
search = functools.partial(  # no solver library: the engine the browser runs (models/search.md)
    Engine,
    family="search",
    module="cpflow.engines.complete",
    formulation="search",
    needs="cpflow",
    rule_sets=("flow", "touch"),  # not blanks: the rules assume every node is covered
    counts=True,
)
ENGINES = {
    engine.name: engine
    for engine in (
        cp_sat(
            name="cpsat",
            formulation="label",
            summary="OR-Tools CP-SAT, label model (circuit model when paths may touch themselves), after forced moves",
            options={"model": "label"},
            by_rules={"touch": {"model": "circuit"}},  # 15x15, 3 colours, inputs2: 36 s -> 2.6 s (models/forced.md)
            bytes_per_node=64_000,
            bytes_per_node_colour=160,  # the colour domains: a flood per colour, then a domain per label
            bytes_per_turn=800,  # a dead turn's clause, a triangle's ring (650 measured)
            loads=("cpflow.engines.cpsat_solver", "cpflow.engines.label"),
        ),
        cp_sat(
            name="cpsat-circuit",
            formulation="circuit",
            summary="OR-Tools CP-SAT, per-colour circuit model, after forced moves",
            options={"model": "circuit"},
            bytes_per_node_colour=32_000,
            loads=("cpflow.engines.cpsat_solver", "cpflow.engines.circuit"),
        ),
        # bytes: PuLP's model and the CBC process beside it
        mip(
            name="ilp-cbc",
            summary="0-1 program in PuLP, CBC, after forced moves",
            options={"mip_solver": "cbc"},
            bytes_per_node_colour=32_000,
        ),
        mip(
            name="ilp-highs",
            summary="0-1 program in PuLP, HiGHS, after forced moves",
            options={"mip_solver": "highs"},
            bytes_per_node_colour=16_000,
        ),
        sat(
            name="sat", summary="SAT in python-sat, CaDiCaL 1.9.5, after forced moves", options={"solver": "cadical195"}
        ),
        sat(
            name="sat-glucose",
            summary="SAT in python-sat, Glucose 4.2, after forced moves",
            options={"solver": "glucose42"},
        ),
        sat(
            name="sat-minisat",
            summary="SAT in python-sat, MiniSat 2.2, after forced moves",
            options={"solver": "minisat22"},
        ),
        search(
            name="search",
            summary="the front end's search over forced moves, to its end; in C when built, else Python",
        ),
        search(
            name="search-python",
            summary="the same search in Python alone, as it runs in the browser (Pyodide)",
            options={"in_c": False},
        ),
    )
}
# CP-SAT where OR-Tools is installed; else the search, which needs nothing (the browser, under Pyodide)
DEFAULT = "cpsat" if importlib.util.find_spec("ortools") else "search"


def rule_sets_of(puzzle: Puzzle) -> list[str]:
    """The puzzle's rule sets (RULE_SETS): "flow" alone, or what it allows beyond Flow Free's rules."""
    return [name for name in ("touch", "blanks") if getattr(puzzle.rules, name)] or ["flow"]


@functools.cache
def _installed(needs: str, module: str, options: tuple) -> bool:
    if importlib.util.find_spec(needs) is None:
        return False
    return importlib.import_module(module).available(**dict(options))


def entry_of(name: str = DEFAULT) -> Engine:
    """The catalog entry of a name; EngineUnavailable if there is none."""
    if name not in ENGINES:
        raise EngineUnavailable(f"engine {name!r} is not available; known: {', '.join(ENGINES)}")
    return ENGINES[name]


def available() -> list[str]:
    """The names of the engines installed here, in the catalog's order."""
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


@contextmanager
def added(entry: Engine) -> Iterator[Engine]:
    """Within: the catalog holds `entry` too (or in place of the entry of its name), so that the pipeline
    runs it as any other; its module need not live in cpflow, only be importable (tests/tiny_engine.py)."""
    before = ENGINES.get(entry.name)
    ENGINES[entry.name] = entry
    try:
        yield entry
    finally:
        if before is None:
            del ENGINES[entry.name]
        else:
            ENGINES[entry.name] = before

"""The engine registry: each engine's name, the module that holds it, and whether it is installed."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from cpflow.errors import EngineUnavailable
from cpflow.grid import Puzzle
from cpflow.result import SolveResult

ENGINES = {"cpsat": ("cpflow.cpsat", "ortools"), "ilp": ("cpflow.ilp", "pulp")}  # name -> (module, package it needs)
DEFAULT = "cpsat"


def supported(name: str) -> bool:
    """True when the engine is known and the package it needs is installed."""
    return name in ENGINES and importlib.util.find_spec(ENGINES[name][1]) is not None


def module(engine: str = DEFAULT) -> ModuleType:
    """The engine's module, imported (so that later timings leave the import out)."""
    if not supported(engine):
        installed = ", ".join(filter(supported, ENGINES))
        raise EngineUnavailable(f"engine {engine!r} is not available; installed: {installed}")
    return importlib.import_module(ENGINES[engine][0])


def solve(puzzle: Puzzle, engine: str = DEFAULT, **options) -> SolveResult:
    """Solve with the named engine; options go to its `solve` (time_limit, workers, exclude, ...)."""
    return module(engine).solve(puzzle, **options)

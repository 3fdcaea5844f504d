"""OR-Tools' CP-SAT modelling module (`ortools.sat.python.cp_model`), imported without pandas.

cp_model imports pandas (0.15-0.19 s of its 0.3 s, models/forced.md "Start-up") for its
`*_series` methods, which cpflow never calls; its other uses of pandas are annotations,
evaluated as the module loads. So while cp_model loads, `pandas` is a stand-in whose
attributes are empty classes, good enough for annotations. Once loaded, cp_model's `pd`
turns into real pandas on its first use, and `import pandas` anywhere else gets real
pandas. Where pandas was imported before, or the stand-in does not do, cp_model is
imported as it is. The ortools version is pinned (pyproject.toml), and tests/test_cli.py
checks that a model is built and solved with no pandas loaded.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING


class _Pandas(types.ModuleType):
    """pandas as cp_model sees it: empty classes while it loads, then real pandas."""

    loading = True

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if self.loading:
            stand_in = type(name, (), {"__module__": "pandas"})
            setattr(self, name, stand_in)  # the same class on every use while loading
            return stand_in
        return getattr(importlib.import_module("pandas"), name)


def _load() -> types.ModuleType:
    if "pandas" in sys.modules or "ortools.sat.python.cp_model" in sys.modules:
        return importlib.import_module("ortools.sat.python.cp_model")
    stand_in = _Pandas("pandas")
    sys.modules["pandas"] = stand_in
    try:
        module = importlib.import_module("ortools.sat.python.cp_model")
    except Exception:
        sys.modules.pop("ortools.sat.python.cp_model", None)
        sys.modules.pop("pandas", None)
        return importlib.import_module("ortools.sat.python.cp_model")
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    for name in list(vars(stand_in)):
        if not name.startswith("__") and name != "loading":
            delattr(stand_in, name)  # from now on, real pandas' own
    stand_in.loading = False
    return module


if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:
    cp_model = _load()

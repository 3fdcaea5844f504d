"""The house's shape: parts import one way, no two modules import each other, no module is
long, and the package docstring names every module (docs/layout.md).

Imports are read from the source (every `import` and `from ... import`, a function's lazy
ones included), not from what a run happens to load.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cpflow"
LONGEST = 400  # lines a module may have

# Each part, with the parts below it that it may import; a part may always import itself.
GROUND = {"errors", "clock", "results", "outputs", "board"}
BELOW = {
    "errors": set(),
    "board": {"errors"},
    "clock": set(),
    "results": {"board"},
    "outputs": {"errors"},
    "deduce": {"board", "clock", "errors"},
    "engines": GROUND | {"deduce"},
    "pictures": GROUND,
    "workflows": GROUND | {"deduce", "engines", "pictures", "vision"},
    "vision": GROUND | {"pictures"},
    "web": GROUND | {"deduce", "engines", "workflows", "pictures", "vision"},
    "cli": GROUND | {"deduce", "engines", "workflows", "pictures", "vision", "web"},
    "__main__": {"cli"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str) -> set[str]:
    """The cpflow modules `name` imports anywhere in its source, as module names."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule, or a name in `base`
    return {owner(target) for target in found if target.startswith("cpflow")} - {name, "cpflow", ""}


def owner(target: str) -> str:
    """The module a dotted import lands in (`cpflow.board.grid.Puzzle` -> `cpflow.board.grid`)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target


IMPORTS = {name: imported(name) for name in MODULES}


def part(name: str) -> str:
    """The part a module belongs to: `cpflow.engines.cpsat` -> "engines", `cpflow.clock` -> "clock"."""
    return name.split(".")[1] if "." in name else ""


def test_every_part_is_placed():
    assert {part(name) for name in MODULES} - {""} == set(BELOW)


@pytest.mark.parametrize("name", sorted(name for name in MODULES if part(name)))
def test_a_module_imports_only_its_own_part_and_the_parts_below(name):
    wrong = sorted(target for target in IMPORTS[name] if part(target) not in BELOW[part(name)] | {part(name)})
    assert not wrong, f"{name} imports {wrong}, above or beside its part"


def test_no_two_modules_import_each_other():
    mutual = sorted((a, b) for a in IMPORTS for b in IMPORTS[a] if a < b and a in IMPORTS.get(b, ()))
    assert not mutual


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_long(name):
    lines = len(MODULES[name].read_text().splitlines())
    assert lines <= LONGEST, f"{name}: {lines} lines"


def test_the_package_docstring_names_every_module():
    import cpflow

    words = set(re.findall(r"\w+", cpflow.__doc__ or ""))
    missing = sorted(name for name in MODULES if "." in name and name.rpartition(".")[2] not in words | {"__init__"})
    assert not missing, f"cpflow's docstring does not name {missing}"


def test_the_checks_see_an_import_where_there_is_one():
    assert "cpflow.clock" in IMPORTS["cpflow.deduce.rules"]
    assert "cpflow.deduce.rules" in IMPORTS["cpflow.engines.cpsat"]

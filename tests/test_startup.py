"""Start-up (issue 40): `cpflow --version` imports no command line at all (not even typer), a global
option no command, and a piped `cpflow solve` its own command alone and no model. Times are
bench/startup.py's (side by side with another commit); no test here times anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import PUZZLES

ROOT = Path(__file__).resolve().parent.parent
SOLVERS = {"ortools", "rich", "pydantic", "numpy", "pulp", "highspy", "cv2", "fastapi"}


def command_modules(*arguments: str) -> tuple[set[str], str]:
    """The modules a `cpflow ARGUMENTS` process has imported when it ends, and what it printed."""
    code = (
        "import sys\nsys.argv = ['cpflow', *sys.argv[1:]]\nfrom cpflow.cli import main\ntry:\n    main()\n"
        "except SystemExit:\n    pass\nprint(' '.join(sys.modules), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, cwd=ROOT)
    return set(done.stderr.split()), done.stdout


def test_version_imports_no_command_line_and_says_what_typers_option_says():
    from importlib.metadata import version

    from typer.testing import CliRunner

    from cpflow.cli import app

    loaded, said = command_modules("--version")
    assert said == f"cpflow {version('cpflow')}\n" == CliRunner().invoke(app, ["--version"]).stdout
    assert not {m for m in loaded if m.startswith("cpflow.")} - {"cpflow.cli", "cpflow.cli.lines"}
    assert not {m.split(".")[0] for m in loaded} & (SOLVERS | {"typer", "click"})


def test_a_global_option_joins_no_command():
    loaded, said = command_modules("--show-completion", "bash")
    assert "_cpflow_completion" in said and "cpflow.cli.group" in loaded
    assert not {m for m in loaded if m.startswith(("cpflow.cli.", "cpflow.board", "cpflow.engines"))} - {
        "cpflow.cli.group",
        "cpflow.cli.lines",
    }


def test_a_piped_solve_imports_its_own_command_alone_and_no_model():
    loaded, said = command_modules("solve", str(PUZZLES / "starter_7x7.txt"), "-q")
    assert said.split()[1] == "solved"
    commands = {m for m in loaded if m.startswith("cpflow.cli.") and m.count(".") == 2}
    assert commands == {
        f"cpflow.cli.{m}" for m in ("batch", "group", "lines", "options", "progress", "reading", "writers")
    }
    assert not {m.split(".")[0] for m in loaded} & SOLVERS
    assert not loaded & {"cpflow.engines.why", "cpflow.deduce.sentences", "cpflow.deduce.steps"}


def test_a_command_ends_with_its_objects_frozen_out_of_the_collector():
    """Python's exit collects the objects of every module it tears down (0.03 s of CPU after numpy, OpenCV
    and typer, issue 37): `main` freezes them (gc.freeze) when the command ends, its exit code as it was."""
    code = (
        "import gc, sys\nsys.argv = ['cpflow', *sys.argv[1:]]\nfrom cpflow.cli import main\ntry:\n    main()\n"
        "except SystemExit as end:\n    print(end.code, gc.get_freeze_count() > 0, file=sys.stderr)"
    )
    arguments = ["solve", str(PUZZLES / "starter_7x7.txt"), "-q"]
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split()[1] == "solved" and done.stderr.split() == ["0", "True"]


def test_a_command_collects_young_objects_seldom():
    """A command's start-up (typer's imports, numpy's and OpenCV's for a screenshot) makes no garbage worth
    collecting, and collecting it every 700 allocations cost 0.015 s of `cpflow import` (issue 37): `main`
    collects the youngest objects every YOUNG allocations, the older generations' thresholds as they were."""
    code = (
        "import gc, sys\nsys.argv = ['cpflow', *sys.argv[1:]]\nbefore = gc.get_threshold()\n"
        "from cpflow.cli import main, YOUNG\ntry:\n    main()\nexcept SystemExit:\n"
        "    print(gc.get_threshold() == (YOUNG, *before[1:]), YOUNG > before[0], file=sys.stderr)"
    )
    arguments = ["solve", str(PUZZLES / "starter_7x7.txt"), "-q"]
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, cwd=ROOT)
    assert done.stderr.split() == ["True", "True"]

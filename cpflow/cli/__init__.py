"""The `cpflow` command: each subcommand is a signature, a docstring and one call into the library,
and what it prints lives beside it.

- group: the app, its one-line usage errors, `failures` (errors to exit codes), `main`;
- options: the options commands share; reading: the puzzles named, where a batch runs;
- writers: one writer per output format; progress: what a batch shows beside its answers;
- batch (solve, unique, count), play (hint, grade), checks (verify, render), engines (compare,
  export, engines), make (generate, fix), screenshot (import), serve (serve, site).

A command joins the app when its family's module is imported. `main` imports only the family
of the command named (`cpflow solve` pays for no other command's imports), and none for a global
option (`--version`, the completion scripts); the help, tab completion and a name that is no
command's get them all, and so does `cpflow.cli.app`.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys

FAMILIES = {  # command -> the module of cpflow.cli that defines it
    "solve": "batch",
    "unique": "batch",
    "count": "batch",
    "verify": "checks",
    "render": "checks",
    "compare": "engines",
    "export": "engines",
    "engines": "engines",
    "generate": "make",
    "fix": "make",
    "hint": "play",
    "grade": "play",
    "import": "screenshot",
    "serve": "serve",
    "site": "serve",
}
HELP = ("-h", "--help")
YOUNG = 100_000  # allocations between collections of the youngest objects in a `cpflow` process (Python's: 700)


def joined(command: str | None = None):
    """The app with the family of `command` joined: none for a global option (`--version`) other than
    the help, every family for None, the help or a name that is no command's."""
    every = sorted(set(FAMILIES.values()))
    if command is None or command in HELP:
        families = every
    else:
        families = [FAMILIES[command]] if command in FAMILIES else [] if command.startswith("-") else every
    for family in families:
        importlib.import_module(f"cpflow.cli.{family}")
    from cpflow.cli.group import app

    return app


def alone(app, command: str | None):
    """The app with only `command` (when it is one) to build: typer builds every command it holds
    before it runs one, and building one is reading its signature (start-up time). A copy: `app` keeps
    every command joined."""
    if command not in FAMILIES:
        return app
    import copy

    from typer.main import get_command_name

    single = copy.copy(app)
    single.registered_commands = [
        info for info in app.registered_commands if (info.name or get_command_name(info.callback.__name__)) == command
    ]
    return single


def main() -> None:
    """The `cpflow` command. `cpflow --version` alone is answered before typer is imported (typer and
    the modules it imports take most of the 0.05 s the issue allows it); the option is typer's too."""
    if sys.argv[1:] == ["--version"]:
        from cpflow.cli.lines import version

        print(version())
        return
    # Young objects collected every YOUNG allocations, not 700: a command's start-up (the imports of typer, of
    # numpy and OpenCV for a screenshot) makes no garbage worth collecting, and cost some 80 collections (0.015 s).
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
    from cpflow.cli import group

    named = sys.argv[1] if len(sys.argv) > 1 else None  # a command, or a global option (-h, --version)
    completing = any(key.endswith("_COMPLETE") for key in os.environ)
    try:
        group.main(joined() if completing else alone(joined(named), named))
    finally:
        # The process ends here: its objects left to the system, not to the collector, which Python's
        # exit runs over every module torn down (0.03 s of CPU after numpy, OpenCV and typer).
        gc.freeze()


def __getattr__(name: str):
    if name == "app":  # every command: what tests and the web's CLI calls drive
        return joined()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]

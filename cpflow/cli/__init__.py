"""The `cpflow` command: each subcommand is a signature, a docstring and one call into the library,
and what it prints lives beside it.

- group: the app, its one-line usage errors, `failures` (errors to exit codes), `main`;
- options: the options commands share; reading: the puzzles named, where a batch runs;
- writers: one writer per output format; progress: what a batch shows beside its answers;
- batch (solve, unique, count), play (hint, grade), checks (verify, render), engines (compare,
  export, engines), make (generate, fix), screenshot (import), serve (serve).

A command joins the app when its family's module is imported. `main` imports only the family
of the command named (`cpflow solve` pays for no other command's imports); the help, tab
completion and a name that is no command's get them all, and so does `cpflow.cli.app`.
"""

from __future__ import annotations

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
}


def joined(command: str | None = None):
    """The app with the family of `command` joined, or every family (None, or a name that is no command's)."""
    families = [FAMILIES[command]] if command in FAMILIES else sorted(set(FAMILIES.values()))
    for family in families:
        importlib.import_module(f"cpflow.cli.{family}")
    from cpflow.cli.group import app

    return app


def main() -> None:
    """The `cpflow` command."""
    from cpflow.cli import group

    named = sys.argv[1] if len(sys.argv) > 1 else None  # a global option first (-h, --version): every command
    completing = any(key.endswith("_COMPLETE") for key in os.environ)
    joined(None if completing else named)
    group.main()


def __getattr__(name: str):
    if name == "app":  # every command: what tests and the web's CLI calls drive
        return joined()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]

"""The `cpflow` command: each subcommand is a signature, a docstring and one call into the library,
and what it prints lives beside it.

- group: the app, its one-line usage errors, `failures` (errors to exit codes), `main`;
- options: the options commands share; reading: the puzzles named, where a batch runs;
- writers: one writer per output format; progress: what a batch shows beside its answers;
- batch (solve, unique, count), play (hint), checks (verify, render), engines (compare,
  export, engines), make (generate), screenshot (import), serve (serve).
"""

from cpflow.cli import batch, checks, engines, make, play, screenshot, serve  # noqa: F401  (they join the app)
from cpflow.cli.group import app, main

__all__ = ["app", "main"]

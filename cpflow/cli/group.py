"""The `cpflow` command group: the app the commands join, its one-line usage errors, the
global options, and `failures`, the one place errors become exit codes.

Errors carry their own exit code (cpflow.errors): 2 bad input or usage, 4 a bug, 1 a
generator that gave up; 130 an interrupt (Ctrl-C); 0, 1 and 3 are otherwise each
command's own verdict (docs/commands.md lists them per command).
"""

from __future__ import annotations

import enum
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from typer._click import exceptions as click  # typer 0.26 (pinned) carries its own click
from typer.completion import completion_init
from typer.core import TyperGroup

from cpflow.cli.lines import stderr, version
from cpflow.errors import CpflowError


class OneLineErrors(TyperGroup):
    """The command group, whose usage errors are one line on stderr, as bad input is
    (`cpflow solve: --time-limit: must be more than 0`), exit 2, instead of click's box."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.NoArgsIsHelpError as error:
            error.show()  # `cpflow` alone: the help
            sys.exit(2)
        except click.UsageError as error:
            stderr(usage_line(error))
            sys.exit(2)
        except click.ClickException as error:
            stderr(f"cpflow: {error.format_message()}")
            sys.exit(error.exit_code)
        except click.Abort:
            print("cpflow: interrupted", file=sys.stderr)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def usage_line(error: click.UsageError) -> str:
    """A usage error in one line: the command, the option or argument, what is wrong, where to read more."""
    names: list[str] = []
    ctx = error.ctx
    while ctx is not None:
        names.append((ctx.info_name or "") if ctx.parent is not None else "cpflow")
        ctx = ctx.parent
    command = " ".join(reversed(names)) or "cpflow"
    message = " ".join(error.format_message().split()).rstrip(".")
    if isinstance(error, click.BadParameter) and not isinstance(error, click.MissingParameter):
        if error.param is not None and (error.param.param_type_name == "option" or error.ctx is None):
            hint = error.param.opts[0]
        elif error.param is not None and error.ctx is not None:
            hint = error.param.make_metavar(error.ctx)
        else:
            hint = error.param_hint if isinstance(error.param_hint, str) else "/".join(error.param_hint or ())
        message = f"{hint}: {' '.join(error.message.split()).rstrip('.')}" if hint else message
    else:
        message = message[:1].lower() + message[1:]
    return f"{command}: {message} (see '{command} -h')"


app = typer.Typer(
    cls=OneLineErrors,
    rich_markup_mode="markdown",
    help="Solve Flow Free / Numberlink puzzles of every kind with OR-Tools CP-SAT.",
    no_args_is_help=True,
    add_completion=False,  # ours below: typer's guessed the shell from the parent process and ignored the one named
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(asked: bool) -> None:
    if asked:
        print(version())
        raise typer.Exit(0)


class ShellName(enum.StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"
    powershell = "powershell"
    pwsh = "pwsh"


COMPLETE_VAR = "_CPFLOW_COMPLETE"  # the variable the shell's completion script sets when it asks cpflow
completion_init()  # typer answers those questions (add_completion=False left it out)


def _show_completion(shell: ShellName | None) -> None:
    if shell is not None:
        from typer.completion import get_completion_script

        print(get_completion_script(prog_name="cpflow", complete_var=COMPLETE_VAR, shell=shell.value))
        raise typer.Exit(0)


def _install_completion(shell: ShellName | None) -> None:
    if shell is not None:
        from typer.completion import install

        _, path = install(shell=shell.value, prog_name="cpflow", complete_var=COMPLETE_VAR)
        print(f"{shell.value} completion installed in {path}; it works in shells started from now on")
        raise typer.Exit(0)


@app.callback()
def cpflow(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    show_completion: Annotated[
        ShellName | None,
        typer.Option(
            metavar="SHELL",
            callback=_show_completion,
            is_eager=True,
            help="Print the tab completion script for SHELL (bash, zsh, fish, powershell, pwsh) and exit.",
        ),
    ] = None,
    install_completion: Annotated[
        ShellName | None,
        typer.Option(
            metavar="SHELL",
            callback=_install_completion,
            is_eager=True,
            help="Install tab completion of commands and options for SHELL and exit.",
        ),
    ] = None,
) -> None:
    """Solve Flow Free / Numberlink puzzles of every kind with OR-Tools CP-SAT."""


@contextmanager
def failures() -> Iterator[None]:
    """The one place errors become exit codes: each kind's line on stderr and its exit code
    (cpflow.errors), no traceback."""
    try:
        yield
    except CpflowError as error:
        stderr(error.one_line())
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        print("cpflow: interrupted; what is shown above was finished", file=sys.stderr)
        raise typer.Exit(130) from None


def option(hint: str, read, *args):
    """What a library reader makes of an option's text; its ValueError becomes a usage error (exit 2)."""
    try:
        return read(*args)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=hint) from None


def main(commands: typer.Typer = app) -> None:
    """Run the command line: `commands`, the app or a copy of it holding the command named alone."""
    signal.signal(signal.SIGTERM, _as_interrupt)  # so that children and scratch folders are ended as on Ctrl-C
    commands()


def _as_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt

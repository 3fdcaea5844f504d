"""The errors cpflow raises on purpose: one base class, and a kind per way of going wrong.

Each kind owns how every face shows it (click's `ClickException.exit_code` is the model):
`exit_code` for the command line and batches, `http_status` for the web API, and `one_line()`,
the one line printed on stderr or answered as `{"error": ...}`. Each face maps errors in
one function: the CLI's `failures`, a batch's `guarded` (cpflow.workflows.items), the
web's `failure` (cpflow.web.tasks).

Exit codes: 2 bad input or usage (also a model too big for free memory, an engine or
extra not installed, an output that cannot be written), 1 the work's own "no" (a generator that gave up, a screenshot
with no board), 4 a bug (an invalid solution, a solver failing), 130 an interrupt.
"""

from __future__ import annotations


class CpflowError(Exception):
    """Base class of every error cpflow raises on purpose: bad input unless a kind says otherwise."""

    exit_code = 2
    http_status = 400

    def one_line(self) -> str:
        """The one line that says what went wrong, as the CLI prints it."""
        return f"cpflow: {self}"


class PuzzleFormatError(CpflowError):
    """A puzzle or solution file cannot be read; says where, as `source:line:col: message`.

    An error about the whole file (missing, empty, too large) has no line: `source: message`.
    """

    def __init__(self, source: str, line: int | None, col: int | None, message: str):
        where = f"{source}:{line}:{col}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.col, self.message = source, line, col, message

    def __reduce__(self):  # pickles across processes with its four arguments
        return type(self), (self.source, self.line, self.col, self.message)

    @classmethod
    def whole(cls, source: str, message: str) -> PuzzleFormatError:
        """An error about the file as a whole, not a place in it."""
        return cls(source, None, None, message)

    def one_line(self) -> str:
        return str(self)


class OutputError(CpflowError):
    """A file that cannot be written (a missing folder, a read-only or full file system) or must not
    be (an input of the command, a file --force was not given for): `path: what is wrong`.
    Nothing was written in its place (cpflow.outputs)."""

    http_status = 500

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message

    def __reduce__(self):  # pickles across processes with its two arguments
        return type(self), (self.path, self.message)

    def one_line(self) -> str:
        return str(self)


class InvalidSolution(CpflowError):
    """An engine returned a solution that breaks the rules: always a bug in that engine."""

    exit_code = 4
    http_status = 500

    def __init__(self, engine: str, violations: list[str]):
        super().__init__(engine, violations)  # the arguments, so that it pickles across processes
        self.engine, self.violations = engine, violations

    def __str__(self) -> str:
        return f"{self.engine} returned an invalid solution: " + "; ".join(self.violations)

    def one_line(self) -> str:
        return f"internal error: {self}"


class SolverFailed(CpflowError):
    """A solver answered in a way that cannot happen on a well-built model (a status it should never
    give, a child process that broke): a bug."""

    exit_code = 4
    http_status = 500

    def one_line(self) -> str:
        return f"internal error: {self}"


class EngineUnavailable(CpflowError):
    """The engine asked for is not installed or not known."""


class EngineUnsupported(EngineUnavailable):
    """The engine asked for does not support the puzzle's rules or board kinds, or an option given."""


class ExtraMissing(CpflowError):
    """A feature whose optional packages are not installed (`pip install 'cpflow[vision]'`, ...)."""

    http_status = 501


class GenerationFailed(CpflowError):
    """The generator found no unique puzzle of the size and colours asked for within its tries."""

    exit_code = 1
    http_status = 422


class ModelTooLarge(CpflowError):
    """The puzzle's model would need more memory than the machine has free."""

    http_status = 413


class OverLimit(CpflowError):
    """A board or a request over a server's caps."""

    http_status = 413


class ScreenshotUnreadable(CpflowError):
    """A screenshot in which no board could be read, or whose dots do not pair up by colour."""

    exit_code = 1
    http_status = 422

    def one_line(self) -> str:
        return str(self)  # worded `shot.png: ...` by whoever names the file


class NotAnImage(ScreenshotUnreadable):
    """The data given as a screenshot is not a picture OpenCV can decode (PNG, JPEG, ...)."""

    exit_code = 2
    http_status = 400


class ClusterUnavailable(CpflowError):
    """A Dask cluster (--cluster) that cannot be used: Dask not installed, no scheduler at the address,
    no workers, or workers running another cpflow version."""

    http_status = 503


class RulesUnsupported(CpflowError):
    """A command that needs Flow Free's rules was asked about a puzzle under other rules (hints
    reason with every cell covered and no path touching itself)."""

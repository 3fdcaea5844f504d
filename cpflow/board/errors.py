"""The exceptions cpflow raises: one base class and a few specific kinds."""

from __future__ import annotations


class CpflowError(Exception):
    """Base class of every error cpflow raises on purpose."""


class PuzzleFormatError(CpflowError):
    """A puzzle or solution file cannot be read; says where, as `source:line:col: message`.

    An error about the whole file (missing, empty, too large) has no line: `source: message`.
    """

    def __init__(self, source: str, line: int | None, col: int | None, message: str):
        where = f"{source}:{line}:{col}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.col, self.message = source, line, col, message

    @classmethod
    def whole(cls, source: str, message: str) -> PuzzleFormatError:
        """An error about the file as a whole, not a place in it."""
        return cls(source, None, None, message)


class InvalidSolution(CpflowError):
    """An engine returned a solution that breaks the rules: always a bug in that engine."""

    def __init__(self, engine: str, violations: list[str]):
        super().__init__(engine, violations)  # the arguments, so that it pickles across processes
        self.engine, self.violations = engine, violations

    def __str__(self) -> str:
        return f"{self.engine} returned an invalid solution: " + "; ".join(self.violations)


class EngineUnavailable(CpflowError):
    """The engine asked for is not installed or not known."""


class EngineUnsupported(EngineUnavailable):
    """The engine asked for does not support the puzzle's rules or board kinds, or an option given."""


class GenerationFailed(CpflowError):
    """The generator found no unique puzzle of the size and colours asked for within its tries."""


class ModelTooLarge(CpflowError):
    """The puzzle's model would need more memory than the machine has free."""


class ScreenshotUnreadable(CpflowError):
    """A screenshot in which no board could be read, or whose dots do not pair up by colour."""


class NotAnImage(ScreenshotUnreadable):
    """The data given as a screenshot is not a picture OpenCV can decode (PNG, JPEG, ...)."""


class ClusterUnavailable(CpflowError):
    """A Dask cluster (--cluster) that cannot be used: Dask not installed, no scheduler at the address,
    no workers, or workers running another cpflow version."""


class RulesUnsupported(CpflowError):
    """A command that needs Flow Free's rules was asked about a puzzle under other rules (hints
    reason with every cell covered and no path touching itself)."""

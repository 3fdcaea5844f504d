"""The exceptions cpflow raises: one base class and a few specific kinds."""

from __future__ import annotations


class CpflowError(Exception):
    """Base class of every error cpflow raises on purpose."""


class PuzzleFormatError(CpflowError):
    """A puzzle or solution file cannot be read; says where, as `source:line:col: message`."""

    def __init__(self, source: str, line: int, col: int, message: str):
        super().__init__(f"{source}:{line}:{col}: {message}")
        self.source, self.line, self.col, self.message = source, line, col, message


class InvalidSolution(CpflowError):
    """An engine returned a solution that breaks the rules: always a bug in that engine."""

    def __init__(self, engine: str, violations: list[str]):
        super().__init__(engine, violations)  # the arguments, so that it pickles across processes
        self.engine, self.violations = engine, violations

    def __str__(self) -> str:
        return f"{self.engine} returned an invalid solution: " + "; ".join(self.violations)


class EngineUnavailable(CpflowError):
    """The engine asked for is not installed or not known."""


class GenerationFailed(CpflowError):
    """The generator found no unique puzzle of the size and colours asked for within its tries."""

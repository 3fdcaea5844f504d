"""cpflow: a Flow Free / Numberlink solver built on OR-Tools CP-SAT.

Modules
- grid: the puzzle as a graph (Puzzle, Solution, Cell, Colour)
- formats: reading and writing puzzles and solutions as text
- verify: checks a solution against the rules; imports no solver
- prune: the cells each colour could use, before any model
- result: Status and SolveResult, shared by every engine
- cpsat: the CP-SAT engine: builds a formulation, solves, verifies
- label: the default formulation (one tour, an integer colour per cell)
- circuit: the reference formulation (one circuit per colour)
- ilp: the same rules as a 0-1 integer program in PuLP, solved by CBC or HiGHS
- engines: the engine registry
- unique: uniqueness proofs and solution counts, on any engine
- generate: puzzles with a proven unique solution
- compare: several engines over the same puzzles, for timings
- batch: many puzzles, in order, on one or several processes
- inputs: files, globs and directories to puzzles
- render: terminal, text and JSON output
- cli: the `cpflow` command
"""

from cpflow.errors import CpflowError, EngineUnavailable, GenerationFailed, InvalidSolution, PuzzleFormatError
from cpflow.formats import load, parse, parse_solution, picture
from cpflow.grid import Cell, Colour, Puzzle, Solution
from cpflow.result import SolveResult, Status
from cpflow.verify import is_solution, violations

__all__ = [
    "Cell",
    "Colour",
    "CpflowError",
    "EngineUnavailable",
    "GenerationFailed",
    "InvalidSolution",
    "Puzzle",
    "PuzzleFormatError",
    "Solution",
    "SolveResult",
    "Status",
    "is_solution",
    "load",
    "parse",
    "parse_solution",
    "picture",
    "violations",
    "solve",
]


def solve(puzzle: Puzzle, engine: str = "cpsat", **options) -> SolveResult:
    """Solve a puzzle with the named engine; the solution has passed the verifier."""
    from cpflow.engines import solve as run

    return run(puzzle, engine, **options)

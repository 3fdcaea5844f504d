"""What to make: an order for puzzles (the board, its colours, what is carved at random, the time
of a proof, the grade), read from the options that the command line and the web give alike
(`Order.parse`), and the colour range a board has by default."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass

from cpflow.board.grid import Puzzle
from cpflow.board.grids import MAX_CELLS, MAX_SIDE
from cpflow.errors import OverLimit

TRIES = 1000  # random covers per puzzle, and tries per cover or carving, before giving up
SHORTEST = 3  # cells in the shortest path made: the game never puts two endpoints side by side


class BadOption(ValueError):
    """An option an order cannot have: which one (`field`: size, colours, holes or bridges) and why."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Order:
    """What to make: puzzles on `board` with between colours[0] and colours[1] colours, `holes`
    cells and `walls` passages taken out at random, `warps` tunnels and `bridges` added at
    random (cpflow.workflows.generate.carve), each proven unique within `time_limit` seconds per
    proof; `touch_proof`: unique also when paths may touch themselves; `grade`: of that grade only."""

    board: Puzzle
    colours: tuple[int, int]
    _: KW_ONLY  # the rest by name
    holes: int = 0
    walls: int = 0
    touch_proof: bool = False
    time_limit: float = 60.0
    grade: str | None = None  # one of deduce.rulebook.GRADES: only puzzles whose hint chain grades so
    warps: int = 0
    bridges: int = 0

    def carves(self) -> bool:
        """Whether each board is carved at random (holes, walls, warps or bridges asked for)."""
        return bool(self.holes or self.walls or self.warps or self.bridges)

    @classmethod
    def parse(
        cls,
        size: str,
        colours: str | None = None,
        *,
        shape: str = "square",
        holes: int = 0,
        walls: int = 0,
        warps: int = 0,
        bridges: int = 0,
        touch_proof: bool = False,
        time_limit: float = 60.0,
        grade: str | None = None,
        caps: Callable[[int, int], str | None] | None = None,
    ) -> Order:
        """The order the options ask for: `size` as 'WxH', `colours` as 'K' or 'K-L' (default_colours
        when None), the rest as they are. BadOption names the first option that cannot be (size,
        holes, bridges, colours); `caps` says why a server refuses a width and height (OverLimit),
        asked before the board is built."""
        width, height = _read("size", size_of, size)
        if caps and (problem := caps(width, height)):
            raise OverLimit(problem)
        _read("holes", check_holes, width, height, holes)
        _read("bridges", check_bridges, shape, bridges)
        cells = width * height
        wanted = _read("colours", colour_range, colours, cells) if colours else default_colours(width, height, holes)
        return cls(
            plain(width, height, shape),
            wanted,
            holes=holes,
            walls=walls,
            touch_proof=touch_proof,
            time_limit=time_limit,
            grade=grade,
            warps=warps,
            bridges=bridges,
        )


def _read(field: str, read, *args):
    """What `read` makes of an option; its ValueError becomes BadOption naming the field."""
    try:
        return read(*args)
    except ValueError as error:
        raise BadOption(field, str(error)) from None


def size_of(text: str) -> tuple[int, int]:
    """(width, height) from text such as '7x7' or '12x8'; ValueError unless it is a board of two shortest
    paths' cells or more (`check_holes`) that the readers accept back (MAX_CELLS cells, MAX_SIDE a side)."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or int(match[1]) * int(match[2]) < 2 * SHORTEST:
        raise ValueError(f"{text!r} is not a size like 7x7 ({2 * SHORTEST} cells at least)")
    width, height = int(match[1]), int(match[2])
    if max(width, height) > MAX_SIDE or width * height > MAX_CELLS:
        raise ValueError(f"{text!r} is over the size limit ({MAX_CELLS} cells, {MAX_SIDE} a side)")
    return width, height


def colour_range(text: str, cells: int) -> tuple[int, int]:
    """(fewest, most) colours from 'K' or 'K-L'; ValueError unless 1 <= K <= L <= cells // SHORTEST."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    low, high = (int(match[1]), int(match[2] or match[1])) if match else (0, 0)
    if not 1 <= low <= high:
        raise ValueError(f"{text!r} is not a number of colours K or a range K-L")
    if high > cells // SHORTEST:
        raise ValueError(
            f"{high} colours need {SHORTEST * high} cells (paths of {SHORTEST} cells at least), "
            f"more than the board's {cells}"
        )
    return low, high


def check_holes(width: int, height: int, holes: int) -> int:
    """The holes asked for, when they leave a board: ValueError unless two colours' paths fit in what stays."""
    stay = 2 * SHORTEST
    most = width * height - stay
    if holes > most:
        raise ValueError(
            f"{holes} holes leave no board of {width}x{height}: at most {max(0, most)} ({stay} cells stay)"
        )
    return holes


def check_bridges(shape: str, bridges: int) -> int:
    """The bridges asked for, when the shape has them: ValueError on a hexagonal board."""
    if bridges and shape != "square":
        raise ValueError("bridges stand on square boards only")
    return bridges


def default_colours(width: int, height: int, holes: int = 0) -> tuple[int, int]:
    """A colour range like the game's: from about the square root of the cell count up.

    The upper end allows one colour per 11 cells on big boards: a cover by well-mixed
    paths that do not touch themselves has about that many (bench/generate.py made
    61-82 colours on 30x30), and asking for fewer straightens the paths into stripes.
    The range is worked out on the whole array, then kept within what the cells left after
    `holes` can hold (SHORTEST cells a colour).
    """
    cells = width * height
    root = cells**0.5
    fewest, most = max(2, round(0.8 * root)), max(3, round(1.2 * root), round(cells / 11))
    most = min(most, (cells - holes) // SHORTEST)
    return min(fewest, most), most


def plain(width: int, height: int, shape: str = "square") -> Puzzle:
    """The empty board a generator fills: every cell of the array, no endpoints yet."""
    return Puzzle.build(width, height, {}, shape=shape)

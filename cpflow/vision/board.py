"""Finding the board in a screenshot: its grid lines, hence its cells.

The grid lines are found in the ridge mask (cpflow.vision.ridges). Summing the mask down each column
gives a profile whose peaks are vertical lines; the board's lines are the longest run of strong
peaks an equal step apart (the lattice), and the step is the same across and down, since cells are
square.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from cpflow.board.grid import lattice
from cpflow.errors import ScreenshotUnreadable
from cpflow.vision.fits import line_fit, median
from cpflow.vision.ridges import RUN

SMALLEST_CELL = 11  # pixels, in the working image
FEWEST_CELLS = 5
STRONG = 0.35  # a lattice line's strength, at least, relative to the lattice's strongest
OFF = 2.0  # pixels: a line seen farther than this from the lattice's equal steps is put back on them
CARRIED = 0.4  # share of the lattice's lines that must run on through a row (column) for it to join


@dataclass(frozen=True)
class Lattice:
    """The board's grid lines, in pixels of the working image: `xs` left to right, `ys` top to bottom."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    shape = "square"

    # Worked out once (a lattice is frozen): a reading asks for them tens of thousands of times.
    @cached_property
    def width(self) -> int:
        return len(self.xs) - 1

    @cached_property
    def height(self) -> int:
        return len(self.ys) - 1

    @cached_property
    def step(self) -> float:
        return ((self.xs[-1] - self.xs[0]) / self.width + (self.ys[-1] - self.ys[0]) / self.height) / 2

    def centre(self, row: int, col: int) -> tuple[float, float]:
        """The centre of a cell, (x, y) in pixels."""
        return (self.xs[col] + self.xs[col + 1]) / 2, (self.ys[row] + self.ys[row + 1]) / 2

    def segments(self, along: tuple[float, ...], outer: bool = False) -> list[Segment]:
        """The stretches of grid line between two cells of the lattice, each with its points at the
        fractions `along` of its length (clear of a pipe crossing it in the middle, say); with
        `outer`, the lattice's edge too, between a cell and the cell beyond (off the lattice)."""
        found = []
        first = -1 if outer else 0
        for r in range(self.height):  # between cells side by side: part of a vertical line
            for c in range(first, self.width - 1 - first):
                points = tuple((self.xs[c + 1], self.ys[r] + t * (self.ys[r + 1] - self.ys[r])) for t in along)
                found.append(Segment(((r, c), (r, c + 1)), points, 1))
        for r in range(first, self.height - 1 - first):  # between cells one above the other: a horizontal line
            for c in range(self.width):
                points = tuple((self.xs[c] + t * (self.xs[c + 1] - self.xs[c]), self.ys[r + 1]) for t in along)
                found.append(Segment(((r, c), (r + 1, c)), points, 0))
        return found

    def inside(self, cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        """The cells beside `cell` on the lattice."""
        return lattice(self.shape, self.width, self.height, cell)

    def outline(self, row: int, col: int) -> list[tuple[float, float]]:
        """The cell's corners (x, y), clockwise from the top left."""
        left, right, top, bottom = self.xs[col], self.xs[col + 1], self.ys[row], self.ys[row + 1]
        return [(left, top), (right, top), (right, bottom), (left, bottom)]

    def bounds(self) -> tuple[float, float, float, float]:
        """The board's box: left, top, right, bottom."""
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    def grown(self, top: int, bottom: int, left: int, right: int) -> Lattice:
        """The lattice with that many more rows and columns at its edges, a step apart."""
        step = self.step
        xs = [self.xs[0] - k * step for k in range(left, 0, -1)] + list(self.xs)
        xs += [self.xs[-1] + k * step for k in range(1, right + 1)]
        ys = [self.ys[0] - k * step for k in range(top, 0, -1)] + list(self.ys)
        ys += [self.ys[-1] + k * step for k in range(1, bottom + 1)]
        return Lattice(tuple(xs), tuple(ys))

    def trimmed(self, top: int, bottom: int, left: int, right: int) -> Lattice:
        """The lattice less that many rows and columns at its edges."""
        return Lattice(self.xs[left : len(self.xs) - right], self.ys[top : len(self.ys) - bottom])

    def moved(self, dx: float, dy: float) -> Lattice:
        """The lattice shifted by (dx, dy) pixels (onto a picture with a margin added)."""
        return Lattice(tuple(x + dx for x in self.xs), tuple(y + dy for y in self.ys))


@dataclass(frozen=True)
class Segment:
    """A stretch of grid line between two cells: the cells, points on it (x, y), and whether the
    line runs down (`across` 1: read across it left to right) or along a row (0: top to bottom)."""

    cells: tuple[tuple[int, int], tuple[int, int]]
    points: tuple[tuple[float, float], ...]
    across: int


def profile(mask: np.ndarray, axis: int) -> np.ndarray:
    """How much line runs along each column (axis 0) or row (axis 1), smoothed over 3 pixels."""
    counts = mask.sum(axis=axis).astype(float)
    return np.convolve(counts, np.ones(3), mode="same")


def peaks(strength: np.ndarray) -> list[tuple[int, float]]:
    """Columns (rows) that stand out as lines: local maxima well above the typical column."""
    floor = max(3.0 * RUN, 4 * float(median(strength)), 0.08 * float(strength.max(initial=0)))
    highest = sliding_window_view(np.pad(strength.astype(float), 3, constant_values=-np.inf), 7).max(axis=1)
    found: list[tuple[int, float]] = []
    for i in np.flatnonzero((strength >= floor) & (strength >= highest)).tolist():
        if 0 < i < len(strength) - 1 and (not found or i - found[-1][0] > 3):
            found.append((i, float(strength[i])))
    return found


def chains(
    found: list[tuple[int, float]], longest_step: float, size: int
) -> list[tuple[float, list[tuple[int, float]]]]:
    """Runs of peaks an equal step apart (each with its step), at least FEWEST_CELLS + 1 long,
    in a profile `size` pixels long."""
    runs = []
    for i, (a, strength_a) in enumerate(found):
        for b, strength_b in found[i + 1 :]:
            step = b - a
            if step < SMALLEST_CELL:
                continue
            if step > longest_step:
                break
            if min(strength_a, strength_b) < STRONG * max(strength_a, strength_b):
                continue
            run = _extend(found, [(a, strength_a), (b, strength_b)], step, size)
            if len(run) > FEWEST_CELLS:
                first, last = run[0][0], run[-1][0]
                runs.append(((last - first) / (len(run) - 1), run))
    return runs


def _extend(
    found: list[tuple[int, float]], run: list[tuple[int, float]], step: float, size: int
) -> list[tuple[int, float]]:
    """The run grown both ways while a strong enough peak stands one step further.

    One or two lines may be missing between two found ones (a line between two cells tinted
    by pipes of other colours can vanish, and both lines beside a white path's cells, tinted the
    lines' grey), and the last line may be the picture's edge
    (a screenshot cut to the board: a line on the edge is no ridge), with one missing before
    it too where the run's other end is on the picture's edge; each is put in where it should
    be, strength 0.
    """
    at = [p for p, _ in found]
    tolerance = max(2.0, 0.06 * step)

    def strong(target: float, top: float) -> tuple[int, float] | None:
        near = found[bisect_left(at, target - tolerance) : bisect_right(at, target + tolerance)]
        near = [p for p in near if p[1] >= STRONG * top]
        return max(near, key=lambda p: p[1]) if near else None

    top = max(s for _, s in run)  # the run's strongest line, kept as it grows
    for direction in (1, -1, 1):  # forward again: a first pair has too few lines to take an edge
        while True:
            step = (run[-1][0] - run[0][0]) / (len(run) - 1)  # refined as the run grows
            end = run[-1][0] if direction == 1 else run[0][0]
            target = end + direction * step
            grown = [best] if (best := strong(target, top)) else []
            if not grown and len(run) >= 3 and (beyond := strong(end + 2 * direction * step, top)):
                grown = [(round(target), 0.0), beyond]
            if not grown and len(run) >= 3 and (third := strong(end + 3 * direction * step, top)):
                grown = [(round(target), 0.0), (round(end + 2 * direction * step), 0.0), third]
            if not grown and len(run) >= 3 and -2 * tolerance <= target <= size - 1 + 2 * tolerance:
                if target <= tolerance or target >= size - 1 - tolerance:  # at the picture's edge
                    grown = [(min(max(round(target), 0), size - 1), 0.0)]
            edge = target + direction * step  # a line missing, then the picture's edge (the other end on it too)
            other = run[0][0] if direction == 1 else run[-1][0]
            cut = other <= tolerance or other >= size - 1 - tolerance
            if not grown and len(run) >= 3 and cut and (edge <= tolerance or size - 1 - tolerance <= edge):
                if -2 * tolerance <= edge <= size - 1 + 2 * tolerance:
                    grown = [(round(target), 0.0), (min(max(round(edge), 0), size - 1), 0.0)]
            if not grown:
                break
            run = [*run, *grown] if direction == 1 else [*reversed(grown), *run]
            top = max(top, *(s for _, s in grown))
    return run


def _score(run: list[tuple[int, float]]) -> float:
    """How surely a run is the board's lines: their strength, less a typical line's for each
    line put in between two found ones (else a run at half the step, through the middle of
    every cell, would score as well as the board's own); a line put in at the picture's
    edge, at an end of the run, costs nothing."""
    seen = [s for _, s in run if s > 0]
    missing = sum(1 for _, s in run[1:-1] if s == 0)
    return sum(seen) - float(median(seen)) * missing


def find_lattice(vertical: np.ndarray, horizontal: np.ndarray) -> Lattice:
    """The board's grid lines, from the picture's `ridges` both ways; ScreenshotUnreadable when
    no grid of square cells stands out."""
    height, width = vertical.shape
    longest_step = min(height, width) / (FEWEST_CELLS - 1)
    across = chains(peaks(profile(vertical, 0)), longest_step, width)
    down = chains(peaks(profile(horizontal, 1)), longest_step, height)
    if not across or not down:
        raise ScreenshotUnreadable("no board found: no grid of lines in the picture")
    # Every pair of runs across and down at once: of those whose steps agree (square cells), the highest
    # score, on a tie the one with more lines (that takes the edges), on a tie still the first.
    steps_x, steps_y = np.array([step for step, _ in across]), np.array([step for step, _ in down])
    square = np.abs(steps_x[:, None] - steps_y) <= 0.05 * np.maximum(steps_x[:, None], steps_y)
    if not square.any():
        raise ScreenshotUnreadable("no board found: the grid lines found do not make square cells")
    scores = np.array([_score(xs) for _, xs in across])[:, None] + np.array([_score(ys) for _, ys in down])
    scores[~square] = -np.inf
    lines = np.array([len(xs) for _, xs in across])[:, None] + np.array([len(ys) for _, ys in down])
    lines[~(square & (scores == scores.max()))] = -1
    i, j = divmod(int(lines.argmax()), len(down))
    xs, ys = across[i][1], down[j][1]
    found = trim(Lattice(_even(xs, width), _even(ys, height)), vertical, horizontal)
    return to_edges(grow(found, vertical, horizontal), width, height)


def to_edges(lattice: Lattice, width: int, height: int) -> Lattice:
    """The lattice run on to the picture's edge it stops a whole number of cells short of, when it reaches
    the three others: a picture cut to the board (`cpflow render`'s, a hand-cut crop) whose last rows or
    columns show no lines (a white path's cells are tinted the lines' grey). Rows of page put in are
    holes, trimmed later (cpflow.vision.screenshot)."""
    step, lines = lattice.step, [list(lattice.xs), list(lattice.ys)]
    tolerance = max(2.0, 0.06 * step)
    sizes = (width, height)
    reached = [[at[0] <= tolerance, at[-1] >= size - 1 - tolerance] for at, size in zip(lines, sizes, strict=True)]
    if sum(map(sum, reached)) != 3:
        return lattice
    axis = 0 if not all(reached[0]) else 1
    at, size = lines[axis], sizes[axis]
    gap = at[0] if not reached[axis][0] else size - 1 - at[-1]
    cells = round(gap / step)
    if not cells or abs(gap - cells * step) > tolerance:
        return lattice
    more = [0, 0, 0, 0]  # top, bottom, left, right
    more[2 * (1 - axis) + (1 if reached[axis][0] else 0)] = cells
    return lattice.grown(*more)


def _even(run: list[tuple[int, float]], size: int) -> tuple[float, ...]:
    """The run's lines, a line seen more than OFF pixels from the equal steps fitted to those seen put
    back on them (within the picture, `size` pixels): the game's cells are all one size, and a long
    edge beside a line (a streak of the page's art) can pull its peak a few pixels off it, where its
    side would then be read beside the line."""
    seen = [(k, at) for k, (at, strength) in enumerate(run) if strength > 0]
    if len(seen) < 2:
        return tuple(float(at) for at, _ in run)
    ks, ats = (np.array(values, dtype=float) for values in zip(*seen, strict=True))
    first, step = line_fit(ks, ats)
    fitted = [min(max(first + k * step, 0), size - 1) for k in range(len(run))]
    return tuple(
        float(at if not strength or abs(at - fit) <= OFF else fit)
        for (at, strength), fit in zip(run, fitted, strict=True)
    )


def trim(lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray) -> Lattice:
    """The lattice less its end rows and columns that the lines across do not run through
    (a row of buttons under the board, in line with its rows by chance); none where the lattice runs
    from edge to edge of the picture (a picture cut to the board: a solved board's white path hides
    the lines across)."""
    xs, ys = list(lattice.xs), list(lattice.ys)
    for lines, across, mask, size in ((ys, xs, vertical, vertical.shape[0]), (xs, ys, horizontal, horizontal.shape[1])):
        if lines[0] <= 1 and lines[-1] >= size - 2:
            continue
        while len(lines) > FEWEST_CELLS + 1 and not _carried(mask, across, lines[-2], lines[-1], mask is vertical):
            lines.pop()
        while len(lines) > FEWEST_CELLS + 1 and not _carried(mask, across, lines[1], lines[0], mask is vertical):
            lines.pop(0)
    return Lattice(tuple(xs), tuple(ys))


def grow(lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray) -> Lattice:
    """The lattice grown by a row or column wherever its lines run on beyond it.

    An edge line can be faint (half drawn, or crossed by tinted cells of a played board)
    where the lines across it are not: a row is the board's if the lattice's vertical
    lines continue through it.
    """
    xs, ys = list(lattice.xs), list(lattice.ys)
    step = lattice.step
    for _ in range(2 * (len(xs) + len(ys))):
        grown = False
        for lines, across, mask in ((ys, xs, vertical), (xs, ys, horizontal)):
            for end, direction in ((-1, 1), (0, -1)):
                beyond = lines[end] + direction * step
                if _carried(mask, across, lines[end], beyond, mask is vertical):
                    lines.insert(len(lines) if end == -1 else 0, beyond)
                    grown = True
        if not grown:
            break
    return Lattice(tuple(xs), tuple(ys))


def _carried(mask: np.ndarray, lines: list[float], start: float, stop: float, vertical: bool) -> bool:
    """Whether the inner `lines` run on from `start` to `stop` (rows for vertical lines, else columns).

    Inner lines only: the board's edge lines may run on into a frame round the board.
    A line runs on if it is there over half the way; CARRIED of them must.
    """
    low, high = sorted((round(start), round(stop)))
    size = mask.shape[0] if vertical else mask.shape[1]
    if low < 0 or high >= size:
        return False
    running = 0
    for at in lines[1:-1]:
        near = slice(max(0, round(at) - 1), round(at) + 2)
        band = mask[low + 2 : high - 1, near] if vertical else mask[near, low + 2 : high - 1].T
        running += bool(band.size) and band.any(axis=1).mean() >= 0.5
    return running >= CARRIED * (len(lines) - 2)

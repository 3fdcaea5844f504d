"""Screenshots made to order, in the game's style, for tests and benchmarks: the answer is known.

A random puzzle (each colour's endpoints the ends of a random walk, so some paths can be
drawn in as if partly played) is drawn by `cpflow.pictures`, put on a phone screen with a
status bar, a header, a line of counters, buttons and an ad banner, in a dark or a light
theme, then scaled and JPEG-compressed as asked. Needs Pillow only (no OpenCV).
"""

from __future__ import annotations

import io
import random
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from cpflow.board.grid import Cell, Puzzle, Solution, lattice
from cpflow.pictures import raster
from cpflow.pictures.palette import blend, colours
from cpflow.pictures.scene import scene

LETTERS = "RGBYOCMmPAWgTbcp"  # the game's colours in its order
LIGHT_THEME_SKIPS = "W"  # a white dot on a light board cannot be seen (the game does not offer it)
DARK, LIGHT = (0, 0, 0), (242, 242, 242)
LIGHT_EDGE = (0, 0, 0)  # walls and the board's border on the light theme: black, as light ones would not show


@dataclass(frozen=True)
class Shot:
    """How to make one screenshot: the board, the screen, the look and the damage."""

    width: int = 7  # cells
    height: int = 7
    screen: tuple[int, int] = (1080, 2400)  # pixels, width x height
    light: bool = False
    played: float = 0.0  # share of the colours whose path is drawn in (some whole, some in part)
    quality: int | None = None  # JPEG quality, or None for PNG
    rescale: float = 1.0  # the finished screenshot scaled by this
    letters: bool = False  # the game's colour-blind mode: each dot shows its colour's letter
    shaped: bool = False  # holes cut in the board: corners and notches, as in the game's shaped packs
    finger: bool = False  # the game's highlight under the finger: a pale disc of a pipe's colour at its end
    seed: int = 0

    @property
    def kind(self) -> str:
        parts = [f"{self.width}x{self.height}", "light" if self.light else "dark"]
        parts += ["played"] * (self.played > 0) + [f"jpeg{self.quality}"] * (self.quality is not None)
        extras = ["scaled"] * (self.rescale != 1.0) + ["letters"] * self.letters + ["shaped"] * self.shaped
        extras += ["finger"] * (self.finger and self.played > 0)
        return " ".join(parts + extras)


def make(shot: Shot) -> tuple[bytes, Puzzle]:
    """The screenshot's bytes (PNG or JPEG) of a random puzzle, and the puzzle."""
    data, puzzle, _ = make_played(shot)
    return data, puzzle


def make_played(shot: Shot) -> tuple[bytes, Puzzle, Solution]:
    """The screenshot's bytes of a random puzzle, the puzzle, and the pipes drawn on it (each from a dot)."""
    rng = random.Random(shot.seed)
    holes = shape(shot.width, shot.height, rng) if shot.shaped else set()
    puzzle, walks = random_puzzle(shot.width, shot.height, rng, shot.light, holes)
    drawn = _played(walks, shot.played, rng)
    return draw(puzzle, shot, drawn, rng), puzzle, drawn


def draw(puzzle: Puzzle, shot: Shot, drawn: Solution | None = None, rng: random.Random | None = None) -> bytes:
    """A screenshot of `puzzle` (the shot's width and height aside), with `drawn`'s paths in."""
    rng = rng or random.Random(shot.seed)
    screen = _screen(shot, puzzle, drawn or Solution({}), rng)
    if shot.rescale != 1.0:
        size = (round(screen.width * shot.rescale), round(screen.height * shot.rescale))
        screen = screen.resize(size, Image.Resampling.BILINEAR)
    out = io.BytesIO()
    if shot.quality is None:
        screen.save(out, format="PNG", compress_level=1)
    else:
        screen.save(out, format="JPEG", quality=shot.quality)
    return out.getvalue()


def shape(width: int, height: int, rng: random.Random) -> set[Cell]:
    """Holes for a shaped board: a triangle cut from one or two corners, a notch in a side."""
    holes = set()
    for top, left in rng.sample([(True, True), (True, False), (False, True), (False, False)], rng.randint(1, 2)):
        size = rng.randint(1, max(1, min(width, height) // 3))
        for r in range(size):
            for c in range(size - r):
                holes.add((r if top else height - 1 - r, c if left else width - 1 - c))
    row, depth = rng.randrange(1, height - 2), rng.randint(1, max(1, width // 4))
    holes |= {(row + dr, c) for dr in (0, 1) for c in range(depth)}
    return holes


def random_puzzle(
    width: int, height: int, rng: random.Random, light: bool = False, holes: AbstractSet[Cell] = frozenset()
):
    """A puzzle whose endpoints are the ends of random walks (a colour per walk), and the walks."""
    letters = [k for k in LETTERS if not (light and k in LIGHT_THEME_SKIPS)]
    wanted = min(len(letters), max(3, round(rng.uniform(0.8, 1.3) * (width * height) ** 0.5)))
    free = {(r, c) for r in range(height) for c in range(width)} - holes
    walks: dict[str, list[Cell]] = {}
    for letter in letters:
        if len(walks) == wanted:
            break
        for _ in range(20):
            walk = _walk(free, width, height, rng, rng.randint(2, max(3, (width + height) // 2)))
            if walk:
                walks[letter] = walk
                free -= set(walk)
                break
    endpoints = {k: (walk[0], walk[-1]) for k, walk in walks.items()}
    return Puzzle.build(width, height, endpoints, holes=holes, name="synthetic"), walks


def _walk(free: set[Cell], width: int, height: int, rng: random.Random, length: int) -> list[Cell]:
    """A self-avoiding walk through free cells, 2 to `length` cells long, or [] if none started."""
    start = rng.choice(sorted(free))
    walk, seen = [start], {start}
    while len(walk) < length:
        steps = [c for c in lattice("square", width, height, walk[-1]) if c in free and c not in seen]
        if not steps:
            break
        walk.append(rng.choice(steps))
        seen.add(walk[-1])
    return walk if len(walk) >= 2 else []


def _played(walks: dict[str, list[Cell]], share: float, rng: random.Random) -> Solution:
    """The walks of some colours drawn in: whole, or from one end part of the way."""
    paths = {}
    for colour, walk in walks.items():
        if rng.random() < share:
            keep = len(walk) if rng.random() < 0.5 else rng.randint(1, len(walk))
            paths[colour] = tuple(walk[:keep])
    return Solution(paths)


def _screen(shot: Shot, puzzle: Puzzle, drawn: Solution, rng: random.Random) -> Image.Image:
    """The board on a phone screen with the game's bars, counters and buttons around it."""
    width, height = shot.screen
    screen = Image.new("RGB", (width, height), LIGHT if shot.light else DARK)
    pen = ImageDraw.Draw(screen)
    ink = (90, 90, 90) if shot.light else (200, 200, 200)
    _header(pen, shot, puzzle, ink, rng)
    board = _board(shot, puzzle, drawn, LIGHT if shot.light else DARK)
    top = round(rng.uniform(0.16, 0.24) * height)
    _text(pen, (0.02 * width, top - 0.03 * height), "flows: 0/7    moves: 0    best: 7    pipe: 0%", 24, ink)
    screen.paste(board, ((width - board.width) // 2, top))
    below = top + board.height + round(0.04 * height)
    for k in range(4):
        x = (0.2 + 0.2 * k) * width
        pen.rounded_rectangle((x - 50, below, x + 50, below + 80), radius=18, outline=ink, width=3)
    pen.rectangle((0, height - 0.08 * height, width, height), fill=(40, 90, 170))  # an ad banner
    _text(pen, (0.1 * width, height - 0.06 * height), "Play the best puzzle game! INSTALL", 30, (255, 255, 255))
    return screen


def _header(pen: ImageDraw.ImageDraw, shot: Shot, puzzle: Puzzle, ink, rng: random.Random) -> None:
    """The phone's status bar, then the game's level, board size and round buttons."""
    width, height = shot.screen
    bar = round(0.03 * height)
    pen.rectangle((0, 0, width, bar), fill=(210, 210, 210) if shot.light else (30, 30, 30))
    _text(pen, (0.04 * width, 0.2 * bar), "12:34", round(0.6 * bar), ink)
    pen.rectangle((0.85 * width, 0.3 * bar, 0.92 * width, 0.7 * bar), outline=ink, width=2)
    header = bar + round(0.02 * height)
    _text(pen, (0.15 * width, header), f"level {rng.randint(1, 150)}", round(0.035 * height), (60, 180, 60))
    _text(pen, (0.55 * width, header), f"{puzzle.width}x{puzzle.height}", round(0.03 * height), ink)
    for x in (0.07, 0.93):
        r = 0.04 * width
        pen.ellipse((x * width - r, header, x * width + r, header + 2 * r), outline=ink, width=3)


def _board(shot: Shot, puzzle: Puzzle, drawn: Solution, back: tuple[int, int, int]) -> Image.Image:
    """The board in the game's look, as wide as the screen allows (its height a limit too)."""
    width, height = shot.screen
    picture = scene(puzzle, drawn, labels=shot.letters)
    if shot.light:
        tint = {cell: colours(puzzle)[k] for k, path in drawn.paths.items() for cell in path}
        tint.update({cell: colours(puzzle)[k] for k, ends in puzzle.endpoints.items() for cell in ends})
        cells = dict(zip(puzzle.cells, picture.cells, strict=True))
        picture.cells = [
            (outline, blend(tint[cell], back, 0.25) if cell in tint else back) for cell, (outline, _) in cells.items()
        ]
        picture.background, picture.edge = back, LIGHT_EDGE
    scale = min(0.98 * width / puzzle.width, 0.62 * height / puzzle.height)
    board = raster.image(picture, scale)
    if shot.finger and drawn.paths:
        board = _finger(board, puzzle, drawn, scale)
    return board


def _finger(board: Image.Image, puzzle: Puzzle, drawn: Solution, scale: float) -> Image.Image:
    """The game's highlight where the finger is: a translucent disc of the pipe's colour, about
    two cells across, round the end of the last pipe drawn."""
    colour, path = list(drawn.paths.items())[-1]
    r, c = path[-1][:2]
    x, y, radius = (c + 0.5) * scale, (r + 0.5) * scale, 1.1 * scale
    overlay = Image.new("RGBA", board.size, (0, 0, 0, 0))
    disc = (x - radius, y - radius, x + radius, y + radius)
    ImageDraw.Draw(overlay).ellipse(disc, fill=(*colours(puzzle)[colour], 90))
    return Image.alpha_composite(board.convert("RGBA"), overlay).convert("RGB")


def _text(pen: ImageDraw.ImageDraw, at, text: str, size: int, fill) -> None:
    pen.text(at, text, fill=fill, font=ImageFont.load_default(size=max(8, size)))

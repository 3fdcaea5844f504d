"""A scene as a PNG picture or a GIF animation, with Pillow (a wheel on every platform, no system library).

PNGs are drawn at twice the size and scaled down, for smooth edges.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from cpflow.board.geometry import Point
from cpflow.pictures.palette import GRID, RGB, TILE, ink
from cpflow.pictures.scene import BORDER_WIDTH, DOT, GAP, PIPE, WALL_WIDTH, Scene
from cpflow.pictures.svg import chevron

SUPERSAMPLE = 2
BORDER_MOST = 8  # pixels: the border's width at most


def image(picture: Scene, scale: float, supersample: int = SUPERSAMPLE) -> Image.Image:
    """The scene drawn `scale` pixels per cell (at `supersample` times that, then scaled down)."""
    k = scale * supersample
    size = (max(1, round(picture.width * k)), max(1, round(picture.height * k)))
    canvas = Image.new("RGB", size, picture.background)
    draw = ImageDraw.Draw(canvas)
    grid = max(1, round(0.03 * k))
    for corners, fill in picture.cells:
        draw.polygon(_at(corners, k), fill=fill, outline=GRID, width=grid)
    border = min(BORDER_WIDTH * scale, BORDER_MOST) * supersample  # pixels: a thin line on a big board too
    for edge in picture.border:
        _line(draw, _at(edge.inside(border / k), k), picture.edge, border)
    for a, b in picture.walls:
        _line(draw, _at([a, b], k), picture.edge, WALL_WIDTH * k)
    for corners in picture.tiles:
        draw.rounded_rectangle(_box(_at(corners, k)), radius=0.08 * k, fill=TILE)
    for pipe in picture.pipes:
        _line(draw, _at(pipe.points, k), pipe.rgb, PIPE * k)
    for pipe in picture.overpasses:
        draw.line(_at(pipe.points, k), fill=picture.background, width=round(GAP * k))
        draw.line(_at(pipe.points, k), fill=pipe.rgb, width=round(PIPE * k))
    for at, direction, rgb in picture.warps:
        _line(draw, _at(chevron(at, direction), k), rgb, 0.1 * k)
    _dots(draw, picture, k)
    for corners in picture.marks:
        draw.polygon(_at(corners, k), outline=(255, 255, 255), width=max(1, round(0.06 * k)))
    if supersample == 1:
        return canvas
    return canvas.resize(
        (max(1, round(picture.width * scale)), max(1, round(picture.height * scale))), Image.Resampling.LANCZOS
    )


def png(picture: Scene, scale: float) -> bytes:
    out = io.BytesIO()
    image(picture, scale).save(out, format="PNG", optimize=False)
    return out.getvalue()


def gif(frames: Sequence[Scene], scale: float, seconds: float) -> bytes:
    """The scenes as an animated GIF, `seconds` in all, the last frame held as long again
    (drawn without smoothing: a GIF's 256 colours have no room for it)."""
    drawn = [image(frame, scale, supersample=1) for frame in frames]
    palette = _palette(drawn)
    pictures = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in drawn]
    each = max(20, round(1000 * seconds / max(1, len(pictures))))
    out = io.BytesIO()
    durations = [each] * (len(pictures) - 1) + [max(each, round(1000 * seconds / 2))]
    pictures[0].save(out, format="GIF", save_all=True, append_images=pictures[1:], duration=durations, loop=0)
    return out.getvalue()


def _palette(drawn: Sequence[Image.Image]) -> Image.Image:
    """The frames' own colours as a GIF palette, so that each keeps its exact colour (the background
    black, not the nearest of a median cut's 255); a median cut of them all when there are more."""
    used: set[RGB] = set()
    for frame in drawn:
        # (count, (r, g, b)) for each colour of an RGB frame; never None, as every pixel may be a colour
        counted = cast(list[tuple[int, RGB]], frame.getcolors(maxcolors=frame.width * frame.height))
        used |= {rgb for _, rgb in counted}
    if len(used) > 256:  # boards of some 80 colours or more
        tall = Image.new("RGB", (drawn[0].width, drawn[0].height * len(drawn)))
        for row, frame in enumerate(drawn):
            tall.paste(frame, (0, row * frame.height))
        return tall.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for rgb in sorted(used) for channel in rgb])
    return palette


def _dots(draw: ImageDraw.ImageDraw, picture: Scene, k: float) -> None:
    radius = DOT * k
    font = ImageFont.load_default(size=max(8, round(0.5 * k))) if any(d.label for d in picture.dots) else None
    for dot in picture.dots:
        x, y = dot.centre[0] * k, dot.centre[1] * k
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=dot.rgb)
        if dot.label:
            draw.text((x, y), dot.label, fill=ink(dot.rgb), font=font, anchor="mm")


def _line(draw: ImageDraw.ImageDraw, points: list[Point], rgb: RGB, width: float) -> None:
    """A thick polyline with round joins and caps."""
    draw.line(points, fill=rgb, width=max(1, round(width)), joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rgb)


def _box(points: list[Point]) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _at(points: Sequence[Point], k: float) -> list[Point]:
    return [(x * k, y * k) for x, y in points]

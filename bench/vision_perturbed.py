"""Screenshot import on real screenshots changed as a user's own would differ from them: each picture
with a truth file (bench/vision_real.py, tests/screenshots/) is read again as variants of it, and
each variant is judged as vision_real judges a picture (exact / refused in one line / wrong).

The variants (each made from the picture as stored, at its own size):
- scale 0.5, 0.75 (area), 1.5 (cubic): another phone's resolution, or a picture shrunk by a chat app;
- jpeg 40: re-encoded at JPEG quality 40;
- crop: cut to the board's box (as the reading of the picture itself found it), 2 pixels round it;
- cut: the same crop less a fifth of a cell at one side (left, top, right, bottom in turn by
  picture): the board's border and a sliver of its edge cells gone;
- status bar: a dark strip with white text over the top 4 % of the picture;
- banner: a light ad banner (text, a coloured button) over the top 9 % of the picture;
- dim (every pixel times 0.55), gamma (1.8: darker mid tones), night (blue light filter: blue
  times 0.6, green times 0.85);
- blur: a Gaussian blur of sigma 1/1000 of the picture's longer side (1.2 pixels on a phone of 1080
  x 2400, about 0.6 at the reading's working size);
- rounded: the picture's corners masked black, a radius of 8 % of its width (a phone's screen);
- frame: a dark grey frame of 5 % of its width round the picture (a screenshot of a screenshot).

The truth of every variant is the picture's own truth: the puzzle and the play it shows (a
picture cpflow must refuse is refused in every variant). No variant hides a whole cell of a board
(the cut takes a fifth of a cell; a strip over the top can cover a board only on a picture cut to
it, where it covers part of its top cells), so no smaller board is ever right: a variant whose
board cannot be read whole must be refused, and a reading of any other board, or any other play,
is wrong. Refused counts both a refusal in one line and pipe cells the reading was unsure of and
left out (as vision_real counts them). The crop and the cut need the board's box, so they are made
only from pictures whose own reading wrote a board.

    python bench/vision_perturbed.py ../shared/screenshots/real [--truth tests/screenshots]
        [--variants crop,cut] [--only SUBSTRING] [--save]

--save also writes the output to docs/figures/vision_perturbed.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import cv2
import numpy as np
from common import recorded, saving
from vision_real import TRUTH, Case, Verdict, cases, judge

Box = tuple[int, int, int, int]  # left, top, right, bottom, pixels of the picture as stored
SIDES = ("left", "top", "right", "bottom")


def board_box(case: Case) -> tuple[Box, float] | None:
    """The board's box in the picture as stored, and its cell's size in pixels, as the reading of the
    picture itself found it (None when it wrote no board)."""
    from cpflow.vision import screenshot
    from cpflow.workflows.shots import read_shot

    seen: dict = {}
    margined, read_play = screenshot._margined, screenshot.read_play

    def margined_(image, lattice):
        image_, lattice_, box = margined(image, lattice)
        seen["offset"] = box[:2] if box else (0, 0)
        return image_, lattice_, box

    def read_play_(lab, lattice, named, puzzle):
        seen["lattice"] = lattice
        return read_play(lab, lattice, named, puzzle)

    try:
        with mock.patch.object(screenshot, "_margined", margined_):
            with mock.patch.object(screenshot, "read_play", read_play_):
                read_shot(case.picture)
    except Exception:  # noqa: BLE001 (refused, or unsure: no box to crop to)
        return None
    if "lattice" not in seen:
        return None
    height, width = cv2.imread(str(case.picture)).shape[:2]
    scale = max(1.0, max(height, width) / screenshot.WORKING)
    dx, dy = seen["offset"]
    left, top, right, bottom = seen["lattice"].bounds()
    box = ((left - dx) * scale, (top - dy) * scale, (right - dx) * scale, (bottom - dy) * scale)
    return (round(box[0]), round(box[1]), round(box[2]), round(box[3])), seen["lattice"].step * scale


def _scaled(factor: float) -> Callable:
    def scale(image: np.ndarray, **_) -> np.ndarray:
        size = (max(1, round(image.shape[1] * factor)), max(1, round(image.shape[0] * factor)))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)

    return scale


def _crop(image: np.ndarray, box: Box, **_) -> np.ndarray:
    height, width = image.shape[:2]
    left, top, right, bottom = box
    return image[max(0, top - 2) : min(height, bottom + 3), max(0, left - 2) : min(width, right + 3)]


def _cut(image: np.ndarray, box: Box, step: float, index: int, **_) -> np.ndarray:
    left, top, right, bottom = box
    gone = round(0.2 * step)
    side = SIDES[index % 4]
    left, top = left + gone * (side == "left"), top + gone * (side == "top")
    right, bottom = right - gone * (side == "right"), bottom - gone * (side == "bottom")
    return _crop(image, (left + 2, top + 2, right - 2, bottom - 2))


def _strip(share: float, colour: tuple[int, int, int], ink: tuple[int, int, int], text: str, button: bool) -> Callable:
    def strip(image: np.ndarray, **_) -> np.ndarray:
        out = image.copy()
        height, width = out.shape[:2]
        tall = max(4, round(share * height))
        out[:tall] = colour
        size = tall / 60
        cv2.putText(out, text, (round(0.04 * width), round(0.7 * tall)), cv2.FONT_HERSHEY_SIMPLEX, size, ink, 2)
        if button:
            corner, far = (round(0.72 * width), tall // 5), (round(0.95 * width), tall * 4 // 5)
            cv2.rectangle(out, corner, far, (40, 120, 240), -1)
        return out

    return strip


def _tone(gain: tuple[float, float, float] = (1, 1, 1), gamma: float = 1.0) -> Callable:
    def tone(image: np.ndarray, **_) -> np.ndarray:
        out = (image.astype(np.float32) / 255) ** gamma * np.array(gain, dtype=np.float32)
        return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)

    return tone


def _blur(image: np.ndarray, **_) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), max(image.shape[:2]) / 1000)


def _rounded(image: np.ndarray, **_) -> np.ndarray:
    height, width = image.shape[:2]
    radius = round(0.08 * width)
    mask = np.zeros((height, width), np.uint8)
    cv2.rectangle(mask, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for x, y in ((radius, radius), (width - 1 - radius, radius), (radius, height - 1 - radius)):
        cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    cv2.circle(mask, (width - 1 - radius, height - 1 - radius), radius, 255, -1, cv2.LINE_AA)
    return (image.astype(np.float32) * (mask[..., None] / 255)).astype(np.uint8)


def _frame(image: np.ndarray, **_) -> np.ndarray:
    pad = round(0.05 * image.shape[1])
    return cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(28, 28, 28))


VARIANTS: dict[str, tuple[Callable, str]] = {  # name -> (the change, the format it is saved in)
    "scale 0.5": (_scaled(0.5), ".png"),
    "scale 0.75": (_scaled(0.75), ".png"),
    "scale 1.5": (_scaled(1.5), ".png"),
    "jpeg 40": (lambda image, **_: image, ".jpg"),
    "crop": (_crop, ".png"),
    "cut": (_cut, ".png"),
    "status bar": (_strip(0.04, (20, 20, 20), (255, 255, 255), "12:34  4G  87%", False), ".png"),
    "banner": (_strip(0.09, (235, 235, 235), (60, 60, 60), "Play now! Free", True), ".png"),
    "dim": (_tone(gain=(0.55, 0.55, 0.55)), ".png"),
    "gamma": (_tone(gamma=1.8), ".png"),
    "night": (_tone(gain=(0.6, 0.85, 1.0)), ".png"),
    "blur": (_blur, ".png"),
    "rounded": (_rounded, ".png"),
    "frame": (_frame, ".png"),
}
NEEDS_BOX = {"crop", "cut"}


def variant(case: Case, name: str, index: int, box: tuple[Box, float] | None, folder: Path) -> Case | None:
    """The case of `name`'s variant of the picture, written in `folder` (None when it needs a box and has none)."""
    if name in NEEDS_BOX and box is None:
        return None
    change, suffix = VARIANTS[name]
    image = cv2.imread(str(case.picture), cv2.IMREAD_COLOR)
    changed = change(image, box=box[0] if box else None, step=box[1] if box else 0.0, index=index)
    path = folder / f"{index}-{name.replace(' ', '_')}{suffix}"
    options = [cv2.IMWRITE_JPEG_QUALITY, 40] if suffix == ".jpg" else [cv2.IMWRITE_PNG_COMPRESSION, 1]
    cv2.imwrite(str(path), changed, options)
    return Case(case.name, path, case.puzzle, case.drawn, case.look, case.state)


def measure(found: list[Case], names: list[str]) -> None:
    """Every variant of every picture judged; the counts by variant, then every wrong reading."""
    from cpflow.vision import screenshot  # noqa: F401  (OpenCV's import is not any picture's time)

    results: dict[str, list[tuple[Case, Verdict]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="vision_perturbed-") as temporary:
        folder = Path(temporary)
        for index, case in enumerate(found):
            box = board_box(case) if NEEDS_BOX & set(names) else None
            for name in names:
                changed = variant(case, name, index, box, folder)
                if changed is not None:
                    results[name].append((case, judge(changed)))
                    changed.picture.unlink()
            print(f"  {index + 1}/{len(found)} {case.name}", file=sys.stderr, flush=True)
    print("| variant | pictures | exact | refused in one line | wrong |")
    print("|---|---|---|---|---|")
    total: Counter = Counter()
    for name in names:
        counts = Counter(verdict.outcome for _, verdict in results[name])
        total += counts
        print(f"| {name} | {counts.total()} | {counts['exact']} | {counts['refused']} | {counts['wrong']} |")
    print(f"| all | {total.total()} | {total['exact']} | {total['refused']} | {total['wrong']} |")
    wrong = [(name, case, v) for name in names for case, v in results[name] if v.outcome == "wrong"]
    print("\n| wrong: variant | picture | what differs |\n|---|---|---|")
    for name, case, verdict in wrong:
        print(f"| {name} | {case.name} | {verdict.detail.replace('|', '/')} |")
    if not wrong:
        print("| none | | |")
    print(
        f"\n{total.total()} variants of {len(found)} pictures: {total['exact']} exact "
        f"({100 * total['exact'] / max(1, total.total()):.0f} %), {total['refused']} refused in one line, "
        f"{total['wrong']} wrong"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", type=Path, metavar="DIR", help="the real screenshots (../shared/screenshots/real)")
    parser.add_argument("--truth", type=Path, default=TRUTH, help="the truth files (tests/screenshots)")
    parser.add_argument("--variants", help="a comma-separated subset of: " + ", ".join(VARIANTS))
    parser.add_argument("--only", help="only the pictures whose name holds this")
    saving(parser)
    args = parser.parse_args()
    names = args.variants.split(",") if args.variants else list(VARIANTS)
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)}")
    found = [case for case in cases(args.pictures, args.truth) if not args.only or args.only in case.name]
    note = f"variants {args.variants}" if args.variants else ""
    note += f"{'; ' if note else ''}pictures holding {args.only!r}" if args.only else ""
    with recorded("vision_perturbed", args.save, note):
        measure(found, names)


if __name__ == "__main__":
    main()

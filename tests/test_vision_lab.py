"""CIE Lab without OpenCV's tables (cpflow.vision.lab): bit for bit the values OpenCV's conversion gives,
so that a reading is the same whichever computes them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision.lab import Lab, lab_of  # noqa: E402
from cpflow.vision.synthetic import Shot  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def opencv(pixels: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(pixels.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def test_every_colour_of_a_lattice_through_the_cube_and_random_ones_convert_as_opencv_converts_them():
    """64 levels a channel (the ends, both sides of each grid plane, the rest between) and a million random
    colours; every one of the 16.7 million colours was compared once when this was written (none differs)."""
    levels = np.unique(np.r_[0, 1, 2, 254, 255, np.arange(0, 256, 8), np.arange(7, 256, 8)]).astype(np.uint8)
    lattice = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1).reshape(1, -1, 3)
    random = np.random.default_rng(37).integers(0, 256, (1000, 1000, 3), dtype=np.uint8)
    for pixels in (lattice, random):
        mine, theirs = lab_of(pixels), opencv(pixels)
        assert mine.dtype == np.float32 and mine.shape == theirs.shape
        assert np.array_equal(mine.view(np.uint32), theirs.view(np.uint32))  # bits: -0.0 is not 0.0


def test_a_picture_in_lab_is_indexed_as_the_picture_is():
    image = np.random.default_rng(3).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    lab, whole = Lab(image), opencv(image)
    ys, xs = np.array([0, 5, 39]), np.array([59, 0, 7])
    assert lab.shape == (40, 60, 3)
    assert np.array_equal(lab[ys, xs], whole[ys, xs])
    assert np.array_equal(lab[3:9, 10:20], whole[3:9, 10:20])
    assert np.array_equal(lab[7, 8], whole[7, 8])
    lab[2:12, 5:25][:] = -1.0  # each pixel is converted once and kept: what a reader does to its copy stays its own
    assert np.array_equal(lab[0:40, 0:60], whole) and np.array_equal(lab[ys, xs], whole[ys, xs])


def test_reading_a_picture_builds_no_opencv_lab_tables():
    """OpenCV's first conversion to Lab costs a process 0.2 s of CPU: a reading makes none (its results are
    OpenCV's all the same, above). Said by OpenCV's conversions being counted while a picture is read."""
    code = (
        "import cv2, sys\n"
        "from cpflow.vision.synthetic import Shot, make\n"
        "from cpflow.vision.screenshot import read\n"
        "data, puzzle = make(Shot(played=0.5, seed=1))\n"
        "calls = []\n"
        "convert = cv2.cvtColor\n"
        "cv2.cvtColor = lambda image, code, *rest: calls.append(code) or convert(image, code, *rest)\n"
        "ends = {c: set(ends) for c, ends in read(data).puzzle.endpoints.items()}\n"
        "assert ends == {c: set(ends) for c, ends in puzzle.endpoints.items()}\n"
        "print([c for c in calls if c in (cv2.COLOR_BGR2Lab, cv2.COLOR_RGB2Lab)])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


REAL = ROOT.parent / "shared" / "screenshots" / "real"
REFUSED_FIRST = REAL / "pkonkle213_FlowFreeSolver" / "SolvedBoards_2022-07-15_17.37.42.jpg"


@pytest.mark.skipif(not REFUSED_FIRST.is_file(), reason="../shared/screenshots/real is absent")
def test_a_reading_read_twice_with_a_guess_of_the_highlight_builds_no_opencv_lab_tables():
    """A solved phone screenshot whose board is refused on lines of every width and read on thin lines, with
    a guess of the finger's highlight: three pictures converted in one reading (it took 0.2 s more when
    the third built OpenCV's tables)."""
    code = (
        "import cv2\n"
        "from pathlib import Path\n"
        "from cpflow.vision import lab\n"
        "from cpflow.vision.screenshot import read\n"
        "calls = []\n"
        "convert = cv2.cvtColor\n"
        "cv2.cvtColor = lambda image, code, *rest: calls.append(code) or convert(image, code, *rest)\n"
        f"read(Path({str(REFUSED_FIRST)!r}).read_bytes())\n"
        "print(lab._converted[0] > 2, [c for c in calls if c in (cv2.COLOR_BGR2Lab, cv2.COLOR_RGB2Lab)])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True []"


@pytest.mark.parametrize("shot", [Shot(played=0.5, seed=1), Shot(width=9, height=9, shaped=True, seed=2)])
def test_reading_a_picture_imports_neither_numpy_ma_nor_numpy_polynomial(shot):
    """np.median, np.percentile and np.polynomial import numpy.ma or numpy.polynomial on their first call,
    about 20 ms of every `cpflow import`: the reading takes its medians and line fits from
    cpflow.vision.fits. Said by the modules a process holds after reading a picture (holes too: shaped)."""
    code = (
        "import sys\n"
        "from cpflow.vision.synthetic import Shot, make\n"
        "from cpflow.vision.screenshot import read\n"
        f"data, puzzle = make({shot!r})\n"
        "assert set(read(data).puzzle.nodes) == set(puzzle.nodes)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['numpy', 'ma'], ['numpy', 'polynomial'])))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_process_reading_many_pictures_converts_later_ones_whole_with_the_same_values(monkeypatch):
    """After `LAZY` pictures OpenCV's tables pay for themselves (a server): the conversion is then OpenCV's
    own, whole, and a reading gives the same board either way."""
    from cpflow.vision import lab
    from cpflow.vision.screenshot import read
    from cpflow.vision.synthetic import Shot, make

    monkeypatch.setattr(lab, "_converted", [0])  # as a fresh process
    data, puzzle = make(Shot(played=0.5, seed=2))
    readings = [read(data).puzzle for _ in range(lab.LAZY + 2)]
    assert lab._converted[0] == lab.LAZY
    assert isinstance(lab.picture(np.zeros((2, 2, 3), np.uint8)), np.ndarray)
    assert all(reading == readings[0] for reading in readings)
    assert {c: set(e) for c, e in readings[0].endpoints.items()} == {c: set(e) for c, e in puzzle.endpoints.items()}

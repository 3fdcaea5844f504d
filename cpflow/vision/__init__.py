"""Screenshot import: a picture of the game in, a puzzle out (needs the `vision` extra: OpenCV, numpy).

- `lab`: CIE Lab as OpenCV computes it, for the pixels read only (no tables to build);
- `fits`: the medians and line fits the reading takes, numpy's values without numpy.ma and numpy.polynomial;
- `dimensions`: a picture's size from its header bytes, refused before decoding when unknown or too large;
- `screenshot`: `read_screenshot(data, debug_dir)`, decoding and the steps below in order;
- `board`: the board's grid lines (the lattice), hence its size and cells;
- `dots`: which cells hold an endpoint dot, and its colour;
- `holes`: the cells a shaped board leaves out;
- `colours`: the dots paired by comparing them with each other, each pair named;
- `debug`: the intermediate images, for seeing why an import went wrong;
- `synthetic`: screenshots made from puzzles in the game's style, for tests and benchmarks.

Nothing here is imported by the rest of cpflow except on `cpflow import` (and the web
page's upload), so solving never pays for OpenCV.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from pathlib import Path

if "numpy" not in sys.modules and "OPENBLAS_NUM_THREADS" not in os.environ:
    # numpy's OpenBLAS starts a thread a core when it loads (0.1 s of CPU), for linear algebra the reading
    # hardly does (a line fit to a few dozen points): loaded here with one thread, the environment as it was.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        with suppress(ImportError):  # said where the reading needs numpy
            import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def read_screenshot(data: bytes, debug_dir: Path | None = None, name: str = "screenshot"):
    """The puzzle a screenshot shows: see `cpflow.vision.screenshot.read_screenshot`."""
    from cpflow.vision.screenshot import read_screenshot as read

    return read(data, debug_dir, name)

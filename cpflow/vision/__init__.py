"""Screenshot import: a picture of the game in, a puzzle out (needs the `vision` extra: OpenCV, numpy).

- `lab`: CIE Lab as OpenCV computes it, for the pixels read only (no tables to build);
- `fits`: the medians, distances and line fits the reading takes, numpy's values without numpy.ma,
  numpy.polynomial and the cost of numpy's general case;
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

HEAPED = 32 << 20  # bytes: a block up to this size is taken from malloc's heap, not mapped on its own (glibc's most)
KEPT = 64 << 20  # bytes: free memory at the heap's top kept for the next blocks rather than given back


def _keep_freed_memory() -> None:
    """glibc's malloc maps each block over 128 KB afresh and unmaps it when freed: the reading's picture-sized
    arrays (cv2's results, numpy's temporaries) would each take new pages from the kernel, each page a fault
    on first touch (7,500 in a reading of a phone screenshot, 4 µs each in a virtual machine), where a heap
    that keeps what is freed takes them once (3,500). Nothing is done elsewhere than with glibc."""
    if sys.platform != "linux" or not hasattr(os, "confstr"):
        return
    with suppress(OSError, ValueError):
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        mallopt(-3, HEAPED)  # M_MMAP_THRESHOLD, which also stops glibc moving the thresholds itself
        mallopt(-1, KEPT)  # M_TRIM_THRESHOLD


if "numpy" not in sys.modules and "OPENBLAS_NUM_THREADS" not in os.environ:
    _keep_freed_memory()
    # numpy's OpenBLAS starts a thread a core when it loads (0.1 s of CPU), for linear algebra the reading
    # hardly does (a line fit to a few dozen points), and so does the OpenBLAS OpenCV's wheel carries (its
    # thread spins through a reading: 0.08 s of CPU beside it): loaded here with one thread, the environment
    # as it was.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        with suppress(ImportError):  # said where the reading needs numpy
            import numpy  # noqa: F401
        with suppress(ImportError):  # and OpenCV
            import cv2  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def read_screenshot(data: bytes, debug_dir: Path | None = None, name: str = "screenshot"):
    """The puzzle a screenshot shows: see `cpflow.vision.screenshot.read_screenshot`."""
    from cpflow.vision.screenshot import read_screenshot as read

    return read(data, debug_dir, name)

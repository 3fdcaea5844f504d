"""The medians, distances and line fits the reading takes: numpy's own values (np.median,
np.linalg.norm of a difference, and np.polynomial.polynomial.polyfit of degree 1), without what numpy
imports on their first call (np.median and np.percentile import numpy.ma, and np.polynomial its package:
20 ms of every `cpflow import` between them) or what its general case costs on each.
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray | list) -> np.ndarray:
    """The median of `values` down its first axis, exactly as np.median(values, axis=0) gives it (of the
    same type), in a fifth of its time on the few points a cell's sample holds: read thousands of times."""
    ordered = np.sort(np.asarray(values), axis=0)
    if not len(ordered):
        return np.median(values, axis=0)  # nan, as np.median says it
    if ordered.dtype.kind in "biu":
        ordered = ordered.astype(np.float64)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def distance(a: np.ndarray | tuple, b: np.ndarray | tuple) -> float:
    """How far apart two points are (two colours in Lab, say), exactly as float(np.linalg.norm(a - b)) gives
    it (its own steps, in the same type), in half its time: read thousands of times a reading."""
    apart = np.subtract(a, b).ravel()
    if apart.dtype.kind not in "fc":
        apart = apart.astype(np.float64)
    return float(np.sqrt(apart.dot(apart)))


def lengths(values: np.ndarray) -> np.ndarray:
    """Each point's length down the last axis (its three channels: a difference of colours, say), exactly as
    np.linalg.norm(values, axis=-1) gives it (the squares added in its order), without numpy's sum down an
    axis of three, which takes most of its time."""
    values = np.asarray(values)
    if values.shape[-1] != 3 or values.dtype.kind not in "f":
        return np.linalg.norm(values, axis=-1)
    squares = values * values
    return np.sqrt((squares[..., 0] + squares[..., 1]) + squares[..., 2])


def line_fit(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The least-squares line through the points (x, y): its value at 0 and its slope, exactly as
    np.polynomial.polynomial.polyfit(xs, ys, 1) gives them (its columns scaled to unit length the same
    way)."""
    columns = np.array([xs * 0 + 1, xs + 0.0])
    scale = np.sqrt(np.square(columns).sum(1))
    scale[scale == 0] = 1
    return np.linalg.lstsq(columns.T / scale, ys + 0.0, len(xs) * np.finfo(columns.dtype).eps)[0] / scale

"""CIE Lab without OpenCV's tables: the very values `cv2.cvtColor(bgr / 255, COLOR_BGR2Lab)` gives, for
the pixels read only.

OpenCV's first conversion to Lab in a process builds every colour table it has (Lab and Luv, both
ways, in software floating point): 0.2 s of CPU, more than reading a board takes. Its float
conversion of a picture of 8-bit colours is a trilinear interpolation, in integers, of a 33x33x33
table of Lab values (`LAB_LUT_DIM`), made with softfloat arithmetic and its own cube root
(Turkowski's rational polynomial, truncated to a float). Here that one table is made the same way
in numpy float32 and float64 (a millisecond), and the interpolation done for the pixels asked for:
`tests/test_vision_lab.py` compares every one of the 16.7 million colours with OpenCV's, bit for bit.

`Lab(image)` stands in for the picture in Lab: indexed as the picture is (`lab[ys, xs]`, slices),
it gives those pixels' Lab (float32, L 0..100), converted when asked.
"""

from __future__ import annotations

from functools import cache
from typing import cast

import numpy as np

F32 = np.float32
SIDE = 33  # grid points a channel: OpenCV's LAB_LUT_DIM
BASE = 1 << 14  # a channel's fixed point (LAB_BASE), and the table's
WEIGHT = 16  # a cell's steps between grid points a channel (TRILINEAR_BASE)


def _raw(bits: int) -> float:
    """A double given by its bits, as OpenCV writes its constants."""
    return float(np.array(bits, dtype=np.uint64).view(np.float64))


# sRGB to XYZ (D65) and the white point, exactly as OpenCV holds them
SRGB_XYZ = [_raw(b) for b in (0x3FDA65A14488C60D, 0x3FD6E297396D0918, 0x3FC71819D2391D58)]
SRGB_XYZ += [_raw(b) for b in (0x3FCB38CDA6E75FF6, 0x3FE6E297396D0918, 0x3FB279AAE6C8F755)]
SRGB_XYZ += [_raw(b) for b in (0x3F93CC4AC6CDAF4B, 0x3FBE836EB4E98138, 0x3FEE68427418D691)]
WHITE = (_raw(0x3FEE6A22B3892EE8), 1.0, _raw(0x3FF16B8950763A19))
CUBE_ROOT = [_raw(b) for b in (0x4046A09E6653BA70, 0x406808F46C6116E0, 0x405DCA97439CAE14, 0x402ADD70D2827500)]
CUBE_ROOT += [_raw(b) for b in (0x3FC4F15F83F55D2D, 0x402D9E20660EDB21, 0x4062FF15C0285815, 0x406510D06A8112CE)]
CUBE_ROOT += [_raw(0x4040FECBC9E2C375)]


# Pictures a process converts pixel by pixel as read before it builds OpenCV's tables: one reading's at most,
# one a pass (two: on the lines of every width, then on thin lines) and one a guess of the finger's highlight
# a pass (cpflow.vision.highlight.GUESSES, 4).
LAZY = 10


def picture(image: np.ndarray) -> np.ndarray:
    """A BGR picture in Lab: the first `LAZY` of a process as `Lab` (no tables built: a command reads one
    screenshot, a picture a pass and a guess), the later ones whole by OpenCV, whose tables a process reading
    many (a server) then pays for once (a reading is 15% faster that way). The values are the same either way."""
    if _converted[0] < LAZY:
        _converted[0] += 1
        return cast(np.ndarray, Lab(image))  # typed as the array it stands in for: its readers index it
    import cv2

    return cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


_converted = [0]  # pictures converted by `Lab` in this process


class Lab:
    """A BGR picture (8 bits a channel) read in CIE Lab: `lab[key]` is the Lab of `image[key]`, each
    pixel converted once (a reading reads the same cells again: on a second pass, on a lattice trimmed)."""

    def __init__(self, image: np.ndarray):
        self.image = image
        self.shape = (*image.shape[:2], 3)
        self._values = np.empty(self.shape, F32)  # the pixels converted so far (pages touched only when written)
        self._known = np.zeros(self.shape[:2], dtype=bool)

    def __getitem__(self, key) -> np.ndarray:
        at = self._places(key)
        if at is not None:  # rows and columns: read through the flattened picture, as numpy's `take` reads
            if not self._known.reshape(-1).take(at).all():
                values = lab_of(self.image.reshape(-1, 3).take(at, axis=0))
                self._values.reshape(-1, 3)[at] = values
                self._known.reshape(-1)[at] = True
                return values
            return self._values.reshape(-1, 3).take(at, axis=0)
        if not self._known[key].all():
            values = lab_of(self.image[key])  # a new array: the reader's own
            self._values[key] = values
            self._known[key] = True
            return values
        values = self._values[key]
        return values.copy() if values.base is self._values else values  # a slice's view copied: the reader's own

    def _places(self, key) -> np.ndarray | None:
        """A key of two arrays of rows and columns (broadcast together) as places in the flattened picture, in
        a fraction of the time numpy takes to index by both each time; None for any other key, or one off it."""
        if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, np.ndarray) for k in key)):
            return None
        if key[0].dtype.kind not in "iu" or key[1].dtype.kind not in "iu" or not self.image.flags.c_contiguous:
            return None
        try:
            return np.asarray(np.ravel_multi_index(key, self.shape[:2]))
        except ValueError:  # off the picture: numpy's own indexing says how (an index from the end, or an error)
            return None


def lab_of(pixels: np.ndarray) -> np.ndarray:
    """The Lab (float32, L 0..100) of BGR pixels (uint8, channels last), as OpenCV converts them."""
    table, cells, weights = _tables()
    pixels = np.asarray(pixels, dtype=np.uint8)
    flat = pixels.reshape(-1, 3).astype(np.intp)
    blue, green, red = flat[:, 0], flat[:, 1], flat[:, 2]
    # `take`, not fancy indexing: a third of its time on rows of a table
    at = (cells[0].take(blue) + cells[1].take(green) + cells[2].take(red))[:, None] + CORNERS
    corners = table.take(at, axis=0)  # pixels x 8 x Lab
    weight = weights[0].take(blue, axis=0) * weights[1].take(green, axis=0) * weights[2].take(red, axis=0)  # to 16**3
    fixed = (np.matmul(weight[:, None, :], corners)[:, 0] + (1 << 11)) >> 12  # rounded as OpenCV's CV_DESCALE
    lab = fixed.astype(F32) / F32(64) - F32(128)  # a and b: 256 / BASE a step, from -128
    lab[:, 0] = fixed[:, 0].astype(F32) * F32(100 / BASE)
    return lab.reshape(pixels.shape)


UP = np.array([[(corner >> (2 - k)) & 1 for k in range(3)] for corner in range(8)])  # a cell's 8 corners: 0 or 1
STRIDES = ((SIDE + 1) ** 2, SIDE + 1, 1)  # the padded table's, flattened
CORNERS = UP @ np.array(STRIDES)


@cache
def _tables() -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """The grid's Lab in fixed point, flattened (a grid point a channel past the last: the last again, as
    OpenCV clamps), and for each channel and 8-bit value the place of its grid cell in the table and
    its weight toward each of the cell's corners (the steps of WEIGHT it is from the far side)."""
    fixed = np.rint(np.clip(np.arange(256, dtype=F32) / F32(255), 0, 1) * F32(BASE)).astype(np.int64)
    cell, step = fixed >> 9, (fixed >> 5) & (WEIGHT - 1)
    table = np.pad(_grid(), ((0, 1), (0, 1), (0, 1), (0, 0)), mode="edge").reshape(-1, 3).astype(np.int32)
    near = [np.where(UP[:, k], step[:, None], WEIGHT - step[:, None]).astype(np.int32) for k in range(3)]  # 256 x 8
    return table, [(cell * stride).astype(np.intp) for stride in STRIDES], near


def _grid() -> np.ndarray:
    """The Lab of each grid point (channels in the picture's order: blue, green, red), in fixed point."""
    white = (1 / WHITE[0], 1.0, 1 / WHITE[2])
    scaled = [[F32(SRGB_XYZ[row * 3 + 2 - k] * white[row]) for k in range(3)] for row in range(3)]
    level = (np.arange(SIDE, dtype=F32) / F32(SIDE - 1)).astype(np.float64)
    linear = np.where(level <= 809 / 20000, level / (323 / 25), ((level + 11 / 200) / (1 + 11 / 200)) ** (12 / 5))
    blue, green, red = np.meshgrid(*[linear.astype(F32)] * 3, indexing="ij")
    x, y, z = ((blue * row[0] + green * row[1]) + red * row[2] for row in scaled)
    threshold = F32(216) / F32(24389)
    fx, fy, fz = (_f(v, threshold) for v in (x, y, z))
    lightness = np.where(y > threshold, F32(116) * fy - F32(16), F32(24389) / F32(27) * y)
    a, b = F32(500) * (fx - fy), F32(200) * (fy - fz)
    scaled_lab = (F32(BASE) * lightness / F32(100), F32(BASE) * (a + F32(128)) / F32(256))
    return np.stack([*scaled_lab, F32(BASE) * (b + F32(128)) / F32(256)], axis=-1).round().astype(np.int64)


def _f(value: np.ndarray, threshold: F32) -> np.ndarray:
    """CIE Lab's f: the cube root above the threshold, a line below it (OpenCV's mulAdd)."""
    line = (value.astype(np.float64) * float(F32(841) / F32(108)) + float(F32(16) / F32(116))).astype(F32)
    return np.where(value > threshold, _cube_root(value), line)


def _cube_root(value: np.ndarray) -> np.ndarray:
    """OpenCV's softfloat cube root of positive floats: a rational polynomial in the mantissa scaled to
    [1/8, 1), in doubles, its result truncated to a float."""
    bits = value.astype(F32).view(np.uint32).astype(np.int64)
    exponent = ((bits >> 23) & 255) - 127
    shift = np.fmod(exponent, 3)
    shift = np.where(shift >= 0, shift - 3, shift)
    exponent = (exponent - shift) // 3 - 1
    m = (((shift + 1023) << 52) | ((bits & 0x7FFFFF) << 29)).astype(np.uint64).view(np.float64)
    a = CUBE_ROOT
    m = ((((a[0] * m + a[1]) * m + a[2]) * m + a[3]) * m + a[4]) / ((((a[5] * m + a[6]) * m + a[7]) * m + a[8]) * m + 1)
    mantissa = ((m.view(np.uint64) & np.uint64((1 << 52) - 1)) >> np.uint64(29)).astype(np.int64)
    root = (((exponent + 127) << 23) | mantissa).astype(np.uint32).view(F32)
    return np.where(bits & 0x7FFFFFFF, root, F32(0))

"""The grid lines' pixels and peaks, read for all points (columns) at once: the same as one by one."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision.board import peaks  # noqa: E402
from cpflow.vision.ridges import line_pixels  # noqa: E402


def one_line_pixel(picture: np.ndarray, x: float, y: float, across: int) -> np.ndarray:
    """A point's line pixel as the reading says it, one point alone (the picture's edge pixel beyond it)."""
    height, width = picture.shape[:2]
    col, row = min(width - 1, max(0, round(x))), min(height - 1, max(0, round(y)))

    def at(r: int, c: int) -> np.ndarray:
        return picture[min(height - 1, max(0, r)), min(width - 1, max(0, c))]

    if across:
        near, side = [at(row, col + d) for d in (-1, 0, 1)], (at(row, col - 3) + at(row, col + 3)) / 2
    else:
        near, side = [at(row + d, col) for d in (-1, 0, 1)], (at(row - 3, col) + at(row + 3, col)) / 2
    return max(near, key=lambda p: float(np.linalg.norm(p - side)))  # the first of equals


@pytest.mark.parametrize("seed", range(6))
def test_line_pixels_are_each_point_s_farthest_from_the_background_the_first_of_equals(seed):
    rng = np.random.default_rng(seed)
    height, width = rng.integers(4, 40, 2)
    picture = rng.integers(0, 256, (height, width, 3)).astype(np.float32)
    if seed % 2:
        picture = picture // 128 * 128  # few colours: many equals
    points = [(rng.uniform(-4, width + 3), rng.uniform(-4, height + 3), int(rng.integers(0, 2))) for _ in range(300)]
    assert np.array_equal(line_pixels(picture, points), [one_line_pixel(picture, *point) for point in points])
    assert line_pixels(picture, []).shape == (0, 3)


def test_peaks_are_the_local_maxima_above_the_floor_three_apart():
    strength = np.zeros(40)
    strength[[5, 7, 12, 20, 21, 39]] = [50.0, 60.0, 40.0, 55.0, 55.0, 90.0]
    # 5 is below 7 within three; 20 and 21 tie, the first stays; 39 is the last column (no line there)
    assert peaks(strength) == [(7, 60.0), (12, 40.0), (20, 55.0)]
    assert peaks(np.zeros(2)) == []


def _flat_of_32_bit_labels(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    from cpflow.vision.hexes import SHORTEST

    _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    widths, heights = stats[1:, cv2.CC_STAT_WIDTH].astype(float), stats[1:, cv2.CC_STAT_HEIGHT].astype(float)
    flat = (widths >= SHORTEST) & (heights <= np.maximum(3, widths / 4))
    return widths[flat], centres[1:][flat]


@pytest.mark.parametrize("density", [0.02, 0.2, 1.0])
def test_flat_pieces_are_those_of_32_bit_labels_even_past_what_16_bits_number(density):
    """hexes._flat labels the mask's pieces in 16 bits (three times as fast): the same widths and centres as with
    OpenCV's 32-bit labels, and a mask of more pieces than 16 bits number (a picture of noise) read as well."""
    from cpflow.vision.hexes import _flat

    rng = np.random.default_rng(int(density * 100))
    mask = (rng.random((600, 500)) < density).astype(np.uint8)
    mask[::7, 20:60] = 1  # flat pieces
    if density == 1.0:  # 150,000 pieces
        mask = np.zeros((1000, 600), np.uint8)
        mask[::2, ::2] = 1
        mask[500, 100:200] = 1
    found, expected = _flat(mask), _flat_of_32_bit_labels(mask)
    assert len(expected[0]) and np.array_equal(found[0], expected[0]) and np.array_equal(found[1], expected[1])

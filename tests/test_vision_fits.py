"""cpflow.vision.fits: numpy's own values, bit for bit (the reading's outcomes must not move when a
helper stands in for numpy's general case)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")

from cpflow.vision.fits import distance, lengths, median  # noqa: E402


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_distance_and_lengths_are_numpys_norms(dtype):
    rng = np.random.default_rng(37)
    values = (rng.standard_normal((50, 7, 3)) * 60).astype(dtype)
    others = (rng.standard_normal(3) * 60).astype(dtype)
    assert np.array_equal(lengths(values - others), np.linalg.norm(values - others, axis=-1))
    assert lengths(values).dtype == np.linalg.norm(values, axis=-1).dtype
    for point in values.reshape(-1, 3)[:200]:
        assert distance(point, others) == float(np.linalg.norm(point - others))


def test_distance_of_integers_and_tuples():
    assert distance((3, 4, 0), np.zeros(3, dtype=np.uint8)) == float(np.linalg.norm(np.subtract((3, 4, 0), 0)))
    assert distance((1.5, -2.0, 0.25), (0.0, 0.0, 0.0)) == float(np.linalg.norm([1.5, -2.0, 0.25]))


def test_median_is_numpys():
    rng = np.random.default_rng(7)
    for count in (1, 2, 5, 8):
        values = rng.standard_normal((count, 4, 3)).astype(np.float32)
        assert np.array_equal(median(values), np.median(values, axis=0))

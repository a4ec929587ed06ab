"""The centre net's peaks placed from the logs of their own neighbours only
(vision/centres.heat_peaks) are where the plain form (the log of the whole map, padded by its
edge) places them, at the map's borders too."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.centres import heat_peaks


def _plain(h: np.ndarray, least: float) -> tuple[np.ndarray, np.ndarray]:
    big = cv2.dilate(h, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((h >= big) & (h >= least))
    lg = np.log(np.maximum(np.pad(h, 1, mode="edge"), 1e-6))
    y1, x1 = ys + 1, xs + 1

    def shift(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        den = a - 2 * b + c
        return np.where(den < -1e-9, np.clip(0.5 * (a - c) / np.where(den < -1e-9, den, -1.0),
                                             -0.5, 0.5), 0.0)

    dx = shift(lg[y1, x1 - 1], lg[y1, x1], lg[y1, x1 + 1])
    dy = shift(lg[y1 - 1, x1], lg[y1, x1], lg[y1 + 1, x1])
    return np.column_stack([xs + dx, ys + dy]), h[ys, xs]


@pytest.mark.parametrize("seed", range(5))
def test_speed_heat_peaks_from_their_neighbours_are_the_plain_forms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h = cv2.GaussianBlur(rng.random((int(rng.integers(3, 60)), int(rng.integers(3, 70))))
                         .astype(np.float32), (3, 3), 0)
    h[rng.random(h.shape) < 0.05] = 0.0  # heat of nothing: the log's floor
    got, want = heat_peaks(h, 0.3), _plain(h, 0.3)
    assert len(want[0])
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])

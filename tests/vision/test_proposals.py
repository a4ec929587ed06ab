"""Proposals: what the stages left unexplained, looked at by the namer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.proposals import _peaks, _tile_angle_px


@pytest.mark.parametrize("angle_deg", [0.0, 12.5, 33.0, 47.0, 71.0, 89.0])
def test_tile_angle_comes_from_its_sides(angle_deg: float) -> None:
    shade = np.ones((200, 200), np.float32)
    box = cv2.boxPoints(((100.0, 100.0), (76.0, 76.0), angle_deg))
    cv2.fillConvexPoly(shade, np.round(box * 16).astype(np.int32), 1.4, cv2.LINE_AA, 4)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.0)
    got = _tile_angle_px(shade, np.array([100.0, 100.0]), 76.0)
    assert got is not None
    d = (got - angle_deg) % 90.0
    assert min(d, 90.0 - d) < 1.0


def test_flat_view_gives_no_tile_angle() -> None:
    assert _tile_angle_px(np.ones((100, 100), np.float32), np.array([50.0, 50.0]), 40.0) is None


def test_peaks_are_the_best_points_apart() -> None:
    pts = np.array([[0.0, 0.0], [3.0, 0.0], [30.0, 0.0], [33.0, 0.0], [60.0, 0.0]])
    score = np.array([0.9, 0.95, 0.7, 0.99, 0.5])
    assert _peaks(pts, score, 0.6, 10.0) == [3, 1]

"""Corners from fitted edges: no inward bias under blur, unlike the corner detector's."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.corners import refine_corners
from calibration.homography import detect_markers


def blurred_marker(sigma_px: float, angle_deg: float, seed: int = 0):
    """A 4x4 marker, 60 px a side, rotated, supersampled, blurred and noisy; with true corners."""
    s = 8
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
    bits = cv2.aruco.generateImageMarker(d, 7, 6, borderBits=1).astype(np.float32)
    side, size = 60.0, 200
    a = np.radians(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = (np.array([[0, 0], [side, 0], [side, side], [0, side]]) - side / 2) @ R.T \
        + [size / 2 + 0.37, size / 2 - 0.21]
    big = cv2.resize(bits, (6 * 64, 6 * 64), interpolation=cv2.INTER_NEAREST) * (200 / 255) + 30
    big = cv2.copyMakeBorder(big, 64, 64, 64, 64, cv2.BORDER_CONSTANT, value=230)  # quiet zone
    to_cells = np.array([[1 / 64, 0, 0.5 / 64 - 1], [0, 1 / 64, 0.5 / 64 - 1], [0, 0, 1]])
    to_px = np.eye(3)
    to_px[:2, :2] = R * side / 6
    to_px[:2, 2] = corners[0]
    to_hr = np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]])
    canvas = np.full((size * s, size * s), 230, np.float32)
    cv2.warpPerspective(big, to_hr @ to_px @ to_cells, canvas.shape[::-1], dst=canvas,
                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    img = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), sigma_px)
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), corners


@pytest.mark.parametrize("sigma, angle", [(0.8, 10.0), (1.2, 33.0), (1.6, -20.0)])
def test_edge_corners_are_unbiased_where_corner_refinement_is_pulled_inward(sigma, angle):
    img, truth = blurred_marker(sigma, angle)
    found = detect_markers(img, refine=False)
    assert found.ids.tolist() == [7]
    detector_err = np.linalg.norm(found.corners_px[0] - truth, axis=1)
    refined = refine_corners(img, found.corners_px)[0]
    edge_err = np.linalg.norm(refined - truth, axis=1)
    assert edge_err.max() < 0.12
    assert detector_err.mean() > 2 * edge_err.mean()


def test_markers_too_small_or_unfit_keep_their_corners():
    img = np.full((50, 50), 200, np.uint8)
    tiny = np.array([[[10, 10], [15, 10], [15, 15], [10, 15]]], float)
    assert np.array_equal(refine_corners(img, tiny), tiny)
    flat = np.array([[[10, 10], [40, 10], [40, 40], [10, 40]]], float)  # no edges there
    assert np.array_equal(refine_corners(img, flat), flat)
    assert refine_corners(img, np.zeros((0, 4, 2))).shape == (0, 4, 2)

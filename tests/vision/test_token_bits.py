"""A square ArUco found but could not name is read from the middles of its cells against its
black border and white margin: a blurred, tilted marker of a few pixels a cell is named, an
unsure cell or bits of no marker name nothing."""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.markers import ARUCO_DICTIONARY
from vision.tokens import read_bits


def _tilted_marker(marker_id: int, cell_px: float, angle_deg: float, blur: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A marker of 6 cells of ``cell_px`` inside a white margin, turned by ``angle_deg`` and
    blurred (sigma ``blur`` px) on a mid-grey table; its corners in the image."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    big = 20
    m = cv2.aruco.generateImageMarker(d, marker_id, 6 * big, borderBits=1)
    face = cv2.copyMakeBorder(m, big, big, big, big, cv2.BORDER_CONSTANT, value=255)
    n = face.shape[0]
    src = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    s = cell_px / big
    a = np.radians(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * s
    centre = np.array([60.0, 60.0])
    dst = (src - n / 2) @ R.T + centre
    H = cv2.getPerspectiveTransform(src, np.float32(dst))
    img = cv2.warpPerspective(face, H, (120, 120), flags=cv2.INTER_AREA, borderValue=110)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    inner = np.float32([[big, big], [7 * big, big], [7 * big, 7 * big], [big, 7 * big]])
    return img, (inner - n / 2) @ R.T + centre


def test_a_blurred_tilted_marker_of_few_pixels_a_cell_is_named() -> None:
    for marker_id in (50, 57, 63, 190):
        img, q = _tilted_marker(marker_id, 3.5, 40.0, 1.0)
        assert read_bits(img, q) == marker_id


def test_a_marker_seen_rotated_is_named_whichever_corner_comes_first() -> None:
    img, q = _tilted_marker(57, 4.0, 10.0, 0.8)
    assert read_bits(img, np.roll(q, 1, axis=0)) == 57


def test_an_unsure_cell_names_nothing() -> None:
    img, q = _tilted_marker(57, 8.0, 0.0, 0.5)
    centre = q.mean(axis=0)
    half = 4  # a cell's middle made halfway grey
    x, y = round(centre[0] + 12), round(centre[1] + 12)  # the middle of inner cell (2, 2)
    img[y - half:y + half, x - half:x + half] = (0 + 255) // 2
    assert read_bits(img, q) is None


def test_a_dark_square_with_no_light_margin_names_nothing() -> None:
    img = np.full((120, 120), 30, np.uint8)
    q = np.array([[30, 30], [90, 30], [90, 90], [30, 90]], float)
    assert read_bits(img, q) is None

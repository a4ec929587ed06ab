"""A marker's id is read softly from its cells' levels: one unsure cell is forgiven where the
dictionary leaves no doubt, a blurred marker (its cells mixed with their neighbours) is read
through a fitted blur; bits near no marker, or two markers alike, name nothing."""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.markers import ARUCO_DICTIONARY
from vision.token_bits import blur_read, soft_read


def _cells(marker_id: int, black: float = 30.0, white: float = 200.0) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    m = cv2.aruco.generateImageMarker(d, marker_id, 6, borderBits=1)
    return np.where(m > 127, white, black).astype(np.float64)


RING = np.full(28, 200.0)


def test_a_clean_marker_is_read_in_every_rotation() -> None:
    for k in (50, 57, 65, 190):
        for r in range(4):
            assert soft_read(np.rot90(_cells(k), r), RING) == k


def test_one_unsure_cell_is_forgiven_two_are_not() -> None:
    cells = _cells(61)
    inner = cells[1:5, 1:5]
    wrong = np.argwhere(inner > 100)[0] + 1
    cells[tuple(wrong)] = 112.0  # a white cell just under halfway
    assert soft_read(cells, RING) == 61
    cells[tuple(np.argwhere(cells[1:5, 1:5] < 100)[0] + 1)] = 160.0  # and a black one white
    assert soft_read(cells, RING) is None


def test_a_grey_border_names_nothing() -> None:
    cells = _cells(57)
    cells[0, 2] = 150.0
    assert soft_read(cells, RING) is None


def test_a_marker_blurred_along_a_diagonal_is_read_through_its_blur() -> None:
    for k in (50, 53, 60, 65):
        grid = np.full((8, 8), 200.0)
        grid[1:7, 1:7] = _cells(k)
        blurred = (0.5 * grid + 0.25 * np.roll(np.roll(grid, 1, 0), 1, 1)
                   + 0.25 * np.roll(np.roll(grid, -1, 0), -1, 1))[1:7, 1:7]
        noise = np.random.default_rng(k).normal(0.0, 4.0, blurred.shape)
        assert blur_read(blurred + noise) == k


def test_random_levels_name_nothing() -> None:
    rng = np.random.default_rng(3)
    named = sum(blur_read(rng.uniform(20, 220, (6, 6))) is not None for _ in range(200))
    named += sum(soft_read(rng.uniform(20, 220, (6, 6)), RING) is not None for _ in range(200))
    assert named == 0

"""No image or map side of 32,767 or more reaches ``cv2.remap`` (it asserts), nor an empty map.

The shared sampler lays any number of samples out in rows; the top view is never made wider
or taller than one remap can warp; an empty rectangle of it warps to nothing.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import calibration_of, pose
from vision.errors import ViewError
from vision.sampling import REMAP_MAX, bilinear, remap_layout
from vision.topview import TopView


def test_sampling_more_points_than_a_remap_row_gives_the_same_samples() -> None:
    rng = np.random.default_rng(3)
    img = rng.uniform(0, 255, (40, 50)).astype(np.float32)
    xy = rng.uniform(-2, 52, (7, 13, 2))
    whole = bilinear(img, xy)
    for cols in (1, 5, 64, 90):
        assert np.array_equal(bilinear(img, xy, max_cols=cols), whole)


def test_sampling_past_the_remap_limit_matches_the_samples_taken_in_parts() -> None:
    rng = np.random.default_rng(4)
    img = rng.integers(0, 256, (60, 80)).astype(np.uint8)
    xy = rng.uniform(0, 79, (2 * REMAP_MAX + 5, 2))
    whole = bilinear(img, xy)
    assert whole.shape == (len(xy),)
    parts = np.concatenate([bilinear(img, xy[i:i + 1000]) for i in range(0, len(xy), 1000)])
    assert np.allclose(whole, parts, atol=1e-4)


def test_an_image_too_wide_for_remap_is_still_sampled() -> None:
    img = np.tile(np.arange(REMAP_MAX + 10, dtype=np.float32), (3, 1))
    xy = np.array([[0.5, 1.0], [REMAP_MAX + 8.25, 0.0], [20.0, 2.0]])
    assert np.allclose(bilinear(img, xy), [0.5, REMAP_MAX + 8.25, 20.0], atol=1e-3)


@pytest.mark.parametrize(("n", "expected"), [
    (1, (1, 1)),
    (REMAP_MAX, (1, REMAP_MAX)),
    (REMAP_MAX + 1, (2, REMAP_MAX)),
    (0, ValueError),
])
def test_remap_layout_rows_never_reach_the_limit(n: int, expected) -> None:
    if expected is ValueError:
        with pytest.raises(ValueError):
            remap_layout(n)
        return
    rows, cols = remap_layout(n)
    assert (rows, cols) == expected
    assert cols < 32767 and rows * cols >= n
    cv2.remap(np.zeros((4, 4), np.float32), np.zeros((rows, cols, 2), np.float32), None,
              cv2.INTER_LINEAR)


@pytest.fixture(scope="module")
def calibration():
    return calibration_of(*pose(size=(640, 360)), (640, 360))


def test_a_long_play_area_gives_a_view_one_remap_can_warp(calibration) -> None:
    view = TopView(calibration, px_per_mm=2.0, area_mm=(0.0, 0.0, 20000.0, 10.0))
    assert max(view.size_wh) <= REMAP_MAX
    assert view.warp(np.zeros((360, 640, 3), np.uint8)).shape == (*view.size_wh[::-1], 3)


def test_an_empty_rectangle_or_no_rows_warp_to_nothing(calibration) -> None:
    view = TopView(calibration)
    frame = np.zeros((360, 640, 3), np.uint8)
    assert view.warp_rect(frame, 5, 5, 5, 9).shape == (4, 0, 3)
    assert view.warp_rows(frame, np.array([], int)).shape == (0, view.size_wh[0], 3)


def test_a_frame_too_big_to_warp_is_a_view_error() -> None:
    size = (REMAP_MAX + 2, 100)
    with pytest.raises(ViewError, match="too big to warp"):
        TopView(calibration_of(*pose(size=size), size))

"""The generic circle finder, on the real coin photos."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.circles import find_circles
from vision.errors import FrameError


@pytest.mark.realdata
@pytest.mark.parametrize("path", ["opencv_coins/coins.jpg", "skimage_coins/coins.png"])
def test_real_coin_photos_give_their_counted_coins(realdata, path: str) -> None:
    truth = json.loads((realdata / "ground_truth" / "circles_and_counts.json").read_text())
    img = cv2.imread(str(realdata / path))
    circles = find_circles(img)
    assert len(circles) == truth[path]["expected_coin_count"]
    # every circle lies inside the photo and has a coin-like size
    h, w = img.shape[:2]
    assert np.all((circles[:, 0] >= 0) & (circles[:, 0] < w) & (circles[:, 1] >= 0)
                  & (circles[:, 1] < h))
    assert np.all(circles[:, 2] > 8)


def test_touching_discs_are_split() -> None:
    img = np.full((100, 240), 220, np.uint8)  # dark discs on a pale surface
    for i in range(5):
        cv2.circle(img, (30 + 40 * i, 50), 20, 60, -1)
    c = find_circles(img)
    assert len(c) == 5
    np.testing.assert_allclose(np.sort(c[:, 0]), [30 + 40 * i for i in range(5)], atol=1.5)


def test_bad_input_is_a_frame_error() -> None:
    with pytest.raises(FrameError):
        find_circles(np.zeros((10, 10), np.float32))

"""The centre net's input written into a buffer kept from frame to frame
(vision/centres_input.input_of_top ``out``, vision/centres.CentreFinder.heat): the same
values as a fresh input, the buffer's padding left zero, a wrong buffer refused."""

from __future__ import annotations

import numpy as np
import pytest

from vision.centres_input import CHANNELS, input_of_top


def _view(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    top = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    valid = np.full((h, w), 255, np.uint8)
    valid[:, : w // 5] = 0  # a part the camera does not see
    return top, valid


def test_speed_centre_input_into_a_kept_buffer_is_the_fresh_input() -> None:
    rng = np.random.default_rng(3)
    buf = np.zeros((CHANNELS, 64, 88), np.float32)
    for level in (60.0, 140.0):  # frame after frame into the same buffer
        top, valid = _view(rng, 61, 83)
        fresh = input_of_top(top, valid, level)
        got = input_of_top(top, valid, level, out=buf)
        assert np.shares_memory(got, buf)
        assert np.array_equal(got, fresh)
        assert not buf[:, 61:].any() and not buf[:, :, 83:].any()  # the padding stays zero


def test_speed_centre_input_buffer_of_an_unseen_view_is_cleared() -> None:
    buf = np.ones((CHANNELS, 10, 10), np.float32)
    got = input_of_top(np.zeros((10, 10, 3), np.uint8), np.zeros((10, 10), np.uint8), 90.0,
                       out=buf)
    assert not got.any()


def test_speed_centre_input_refuses_a_buffer_too_small() -> None:
    with pytest.raises(ValueError, match="out"):
        input_of_top(np.zeros((10, 12, 3), np.uint8), np.full((10, 12), 255, np.uint8), 90.0,
                     out=np.zeros((CHANNELS, 10, 11), np.float32))

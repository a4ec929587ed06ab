"""The normalised window the tile fits and the angle polish read (vision/tile_fit.
normalised_channels: medians by one partition per channel, the division in long rows) is the
plain form's (numpy's median, the (C,) medians broadcast), value for value."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.tile_fit import channel_medians, normalised_channels


def _plain(top: np.ndarray, centre: np.ndarray, half: float, step: int) -> np.ndarray:
    h, w = top.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 2), min(h, int(centre[1] + half) + 2)
    win = top[y0:y1, x0:x1].astype(np.float32)
    if win.ndim == 2:
        win = win[..., None]
    med = np.median(win[::step, ::step].reshape(-1, win.shape[2]), axis=0)
    out = cv2.GaussianBlur(win / (med + 1.0)[None, None, :], (3, 3), 0)
    return out[..., None] if out.ndim == 2 else out


@pytest.mark.parametrize("seed", range(8))
def test_speed_normalised_window_is_the_plain_forms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(30, 90)), int(rng.integers(30, 90)))
    top = rng.integers(0, 256, (*shape, 3) if seed % 4 else shape, dtype=np.uint8)
    centre = rng.uniform(0, 1, 2) * np.array(shape[::-1])  # near a border too
    half = float(rng.uniform(5, 40))
    for step in (1, 3):
        got, _ = normalised_channels(top, centre, half, median_step=step)
        assert np.array_equal(got, _plain(top, centre, half, step))


@pytest.mark.parametrize("n", [1, 2, 7, 10, 101])
def test_speed_channel_medians_are_numpys(n: int) -> None:
    px = np.random.default_rng(n).normal(100, 30, (n, 3)).astype(np.float32)
    want = np.median(px, axis=0)
    got = channel_medians(px)
    assert got.dtype == want.dtype and np.array_equal(got, want)

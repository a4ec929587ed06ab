"""The centre net's input made by look-ups over all three channels at once and a fill colour
from histograms (vision/centres_input.input_of_top) is the plain form's, value for value: the
plain form (numpy's median, a boolean fill, one 65,536-entry table per channel) is kept here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.centres_input import _LOG2, CHANNELS, MEDIAN_MM, MM_PER_PX, input_of_top

_PLAIN_TABLE = np.clip(_LOG2[:, None] - np.maximum(_LOG2, 2.0)[None], -4.0, 2.0).astype(
    np.float32).ravel()


def _plain(top_bgr: np.ndarray, valid: np.ndarray, level: float) -> np.ndarray:
    top = np.array(top_bgr, np.uint8, copy=True)
    h, w = valid.shape
    out = np.zeros((CHANNELS, h, w), np.float32)
    some = valid[::4, ::4] > 0
    if not some.any():
        return out
    top[valid == 0] = np.median(top[::4, ::4][some], axis=0).astype(np.uint8)
    hc, wc = max(1, h // 4), max(1, w // 4)
    cells = cv2.resize(top, (wc, hc), interpolation=cv2.INTER_AREA)
    k = max(3, round(MEDIAN_MM / (MM_PER_PX * 4)) | 1)
    med = cv2.medianBlur(cells, k) if min(hc, wc) > 1 else cells
    med = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)
    over_level = np.clip(_LOG2 - float(np.log2(max(level, 4.0))), -4.0, 2.0).astype(np.float32)
    mask = (valid > 0).astype(np.float32)
    for c, (t, m) in enumerate(zip(cv2.split(top), cv2.split(med), strict=True)):
        idx = (t.astype(np.uint16) << 8) | m
        out[c] = np.take(_PLAIN_TABLE, idx) * mask
        out[3 + c] = cv2.LUT(t, over_level) * mask
    out[6] = mask
    return out


@pytest.mark.parametrize("seed", range(6))
def test_speed_centre_input_by_lookups_is_the_plain_forms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(9, 140)), int(rng.integers(9, 160))
    # a table lit from one side, noise, the odd clipped or black pixel
    xx = np.arange(w)[None, :]
    base = (60 + 120 * (xx / w))[..., None] * rng.uniform(0.5, 1.2, 3)[None, None]
    top = np.clip(base + rng.normal(0, 12, (h, w, 3)), 0, 255).astype(np.uint8)
    top[rng.random((h, w)) < 0.02] = 0
    top[rng.random((h, w)) < 0.02] = 255
    valid = np.full((h, w), 255, np.uint8)
    valid[: int(rng.integers(0, h // 3)), :] = 0
    valid[:, w - int(rng.integers(0, w // 3)):] = 0
    valid[rng.random((h, w)) < 0.05] = 0
    level = float(rng.uniform(2.0, 200.0))
    got = input_of_top(top, valid, level)
    assert np.array_equal(got, _plain(top, valid, level))


def test_speed_centre_input_fill_is_the_median_of_an_even_count() -> None:
    # two values per channel seen: numpy's median is their mean, rounded down by the cast
    top = np.zeros((8, 8, 3), np.uint8)
    top[:4] = (10, 21, 200)
    top[4:] = (13, 22, 255)
    valid = np.full((8, 8), 255, np.uint8)
    valid[:, 6:] = 0
    assert np.array_equal(input_of_top(top, valid, 90.0), _plain(top, valid, 90.0))

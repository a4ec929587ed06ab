"""A blind's bands' gain at the view's cells in three channels, made once for the bands
(vision/bands.Bands.at_cells3), is the plain form's value for value: the two-channel gain (or
1.0 over it) merged into three, as times_gain made it on every call; a table colour kept under
those bands (its cells, and the cells divided by the bands) is the same image as the plain
form's."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.bands import Bands, times_gain


def _bands() -> Bands:
    return Bands((math.cos(0.4), math.sin(0.4)), -20.0, 2.0,
                 (0.8 + 0.3 * np.sin(np.arange(120) / 4.0)).astype(np.float32))


def test_the_bands_gain_in_three_channels_is_the_plain_merge() -> None:
    bands = _bands()
    for factor, shape in ((2, (46, 70)), (4, (23, 35))):
        gain = bands.at_cells(factor, shape)
        assert np.array_equal(bands.at_cells3(factor, shape), cv2.merge([gain] * 3))
        inv = 1.0 / gain
        assert inv.dtype == np.float32
        assert np.array_equal(bands.at_cells3(factor, shape, inverse=True), cv2.merge([inv] * 3))
        assert bands.at_cells3(factor, shape) is bands.at_cells3(factor, shape)  # made once


def test_cells_times_the_gain_in_three_channels_are_the_plain_products() -> None:
    bands = _bands()
    rng = np.random.default_rng(5)
    cells = rng.integers(0, 256, (46, 70, 3), dtype=np.uint8)
    gain = bands.at_cells(2, (46, 70))
    assert np.array_equal(times_gain(cells, bands.at_cells3(2, (46, 70))), times_gain(cells, gain))
    assert np.array_equal(times_gain(cells, bands.at_cells3(2, (46, 70), inverse=True)),
                          times_gain(cells, 1.0 / gain))

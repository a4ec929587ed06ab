"""Worm Up! segments read with a blind's bands of light divided out of the view.

Under a blind the table is crossed by straight bands of shade 10-80 mm wide, as narrow as a
segment (:mod:`vision.bands` finds them on the table's cells, step 2). The segment stage reads
the view's own colours (its mask's table colour is a median over 120 mm, which a band's edge
splits; its outline search's edges are Canny's on the view): a band's edge across a dome cuts
its outline into two arcs of different brightness, and a dome in a band of shade is a dark blot
among lit ones. The bands' gain is known at every view pixel, so the segment stage is given the
view divided by it: the table as if the blind were up, its bands' edges gone from the table
round the segments and from their rims (a rim lies on the table plane, where the gain was
measured). A view without bands is passed on as it is (no cost on other tables).

>>> import numpy as np
>>> from vision.bands import Bands
>>> b = Bands((1.0, 0.0), -0.5, 1.0, np.array([1.0, 1.0, 0.5, 0.5], np.float32))
>>> top = np.full((1, 4, 3), 100, np.uint8)
>>> top[0, 2:] = 50  # the second band's half light
>>> lift(top, b)[0, :, 0].tolist()
[100, 100, 100, 100]
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.bands import Bands
from vision.prepare import Prepared


def lift(top: np.ndarray, bands: Bands) -> np.ndarray:
    """uint8 (H, W, 3): a view ``top`` divided by the bands' gain at each pixel (rounded,
    saturated)."""
    h, w = top.shape[:2]
    gain = bands.at_view((w, h), channels=3)
    return cv2.divide(top, gain, dtype=cv2.CV_8U)


def without_bands(prep: Prepared) -> Prepared:
    """``prep`` with its view ``top`` divided by the table's bands of light (the same object
    when the table has none)."""
    bands = prep.table.bands if prep.table is not None else None
    if bands is None:
        return prep
    return replace(prep, top=lift(prep.top, bands))

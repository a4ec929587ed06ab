"""A dome's highlight given back to its blob (``vision.segments.with_highlights``): a lamp
mirrored in a dome, or an overexposed camera, leaves its middle pale, of no colour."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.segments import discs_in_blob, with_highlights

R = 12.0


def test_a_dome_whose_highlight_reaches_its_rim_is_centred_on_the_dome() -> None:
    size = 70
    blob = np.zeros((size, size), np.uint8)
    for x in (22, 46):  # two touching domes
        cv2.circle(blob, (x, 35), round(R), 255, -1)
    value = np.full((size, size), 110, np.uint8)
    cv2.circle(value, (22, 42), 5, 250, -1)  # the first dome's highlight, at its lower rim
    blob[value == 250] = 0  # washed out: of no colour, so out of the mask
    off = discs_in_blob(blob, R)
    on = discs_in_blob(with_highlights(blob, value, R, 0.8), R)

    def error(found: list[np.ndarray]) -> float:
        return min((math.dist(c, (22, 35)) for c in found), default=math.inf)

    assert error(on) < 1.0
    assert error(on) < error(off)


def test_a_cloth_s_pale_check_beside_a_worm_is_not_its_highlight() -> None:
    blob = np.zeros((60, 60), np.uint8)
    cv2.circle(blob, (30, 30), round(R), 255, -1)
    value = np.full((60, 60), 90, np.uint8)
    value[blob > 0] = 100
    value[:, 40:] = 220  # a pale check of the cloth, beside the dome
    assert np.array_equal(with_highlights(blob, value, R, 0.8), blob)

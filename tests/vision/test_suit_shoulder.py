"""Black's drift in the camera's highlight shoulder: on a face whose brightest channel the
camera compresses near its top, a black symbol reads tinted along the light's tint, at about
half an ink's saturation; it stays black there, and an ink's full colour stays that ink."""

from __future__ import annotations

import numpy as np

from tabletop.pieceset import PieceSet
from vision.suits import classify_ink

INKS = {k: PieceSet().suit_rgb(k) for k in ("suns", "moons", "crowns", "arms")}
SHOULDER_BODY = np.array([248.0, 245.0, 239.0])  # a cream face in a warm lamp's pool, RGB
BELOW_SHOULDER = SHOULDER_BODY * 0.85
MOON_IN_SHOULDER = np.array([0.829, 0.812, 0.714])  # render 386028's moon, read as a sun


def test_black_in_the_highlight_shoulder_drifting_along_the_light_stays_black() -> None:
    assert classify_ink(MOON_IN_SHOULDER, INKS, light_rgb=SHOULDER_BODY)[0] == "moons"


def test_the_same_tint_below_the_shoulder_is_still_read_as_an_ink() -> None:
    assert classify_ink(MOON_IN_SHOULDER, INKS, light_rgb=BELOW_SHOULDER)[0] == "suns"


def test_a_sun_in_the_highlight_shoulder_stays_a_sun() -> None:
    absorb = 1.0 - np.array(INKS["suns"], float) / 255.0
    for share in (0.3, 0.6):  # blurred into the body, or nearly whole
        sun = 1.0 - share * absorb
        sun = 0.62 * sun + 0.38 * MOON_IN_SHOULDER  # and washed towards the shoulder's drift
        assert classify_ink(sun, INKS, light_rgb=SHOULDER_BODY)[0] == "suns", share


def test_a_blue_or_green_ink_in_the_shoulder_is_not_made_black() -> None:
    for suit in ("crowns", "arms"):
        ink = 1.0 - 0.3 * (1.0 - np.array(INKS[suit], float) / 255.0)
        assert classify_ink(ink, INKS, light_rgb=SHOULDER_BODY)[0] == suit

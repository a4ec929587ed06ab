"""A symbol's weak tint read against the light's: black drifts towards a warm lamp's colour,
a blue ink under that lamp does not."""

from __future__ import annotations

import numpy as np

from tabletop.pieceset import PieceSet
from vision.suits import brightest_colour_of, classify_ink

INKS = {k: PieceSet().suit_rgb(k) for k in ("suns", "moons", "crowns", "arms")}
WARM_BODY = np.array([140.0, 126.0, 106.0])  # a cream face under a dim 2700 K lamp, RGB


def test_black_drifting_towards_a_warm_lamp_stays_black() -> None:
    rel = np.array([0.50, 0.46, 0.42])  # warmer than grey, as the lamp is
    assert classify_ink(rel, INKS, light_rgb=WARM_BODY)[0] == "moons"
    assert classify_ink(rel, INKS)[0] == "moons"


def test_a_weak_blue_under_a_warm_lamp_is_an_ink_not_black() -> None:
    rel = np.array([0.37, 0.46, 0.52])  # a blue symbol, washed out by blur and a dim room
    assert classify_ink(rel, INKS)[0] == "moons"  # unknown light: read as black's drift
    assert classify_ink(rel, INKS, light_rgb=WARM_BODY)[0] == "arms"


def test_an_untinted_light_tells_nothing_of_drift() -> None:
    rel = np.array([0.37, 0.46, 0.52])
    grey = np.array([200.0, 200.0, 201.0])
    assert classify_ink(rel, INKS, light_rgb=grey) == classify_ink(rel, INKS)


def test_a_face_body_is_its_brightest_quarter_in_rgb() -> None:
    face = np.full((1, 40, 3), (100.0, 150.0, 200.0))  # BGR
    face[0, :10] = 20.0
    np.testing.assert_allclose(brightest_colour_of(face), [[200.0, 150.0, 100.0]])

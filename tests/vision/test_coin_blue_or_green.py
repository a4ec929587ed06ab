"""A clipped coin face under glare (renders 43000+): the symbol's green and blue deficits tell
the arms' blue from the crowns' green where the clipping camera's fit named arms crowns."""

from __future__ import annotations

import numpy as np

from vision.coin_faces import face_readings
from vision.coin_saturated import blue_green_pair, blue_or_green
from vision.suits import DEFAULT_SUIT_INKS

INKS = dict(DEFAULT_SUIT_INKS)


def _glared_face(symbol_rgb: tuple[float, float, float]) -> np.ndarray:
    """(1, 468, 3) BGR: a body clipped near white, a tenth of it the symbol (its level
    relative to the body, RGB, as measured on a render under glare)."""
    face = np.full((1, 468, 3), 245.0)
    face[0, :47] = (245.0 * np.array(symbol_rgb))[::-1]
    return face.astype(np.uint8)


def test_the_sets_blue_and_green_inks_are_the_arms_and_the_crowns() -> None:
    assert blue_green_pair(INKS) == ("arms", "crowns")
    assert blue_green_pair({"suns": (213, 94, 0), "moons": (0, 0, 0)}) is None


def test_a_clipped_arms_face_under_glare_is_read_as_arms() -> None:
    # seed 43254, an arms coin in a lamp's reflection: hue and clipped-camera fit read crowns
    read = face_readings(_glared_face((0.47, 0.82, 0.83)), INKS)
    assert read[0][0] == "arms"


def test_a_clipped_crowns_face_stays_crowns() -> None:
    read = face_readings(_glared_face((0.41, 0.90, 0.85)), INKS)  # seed 43206
    assert read[0][0] == "crowns"


def test_other_inks_and_faint_deficits_keep_the_fits_reading() -> None:
    px = np.r_[_glared_face((0.47, 0.82, 0.83)), _glared_face((0.60, 0.98, 0.99))]
    read = [("suns", 0.5), ("crowns", 0.2)]
    assert blue_or_green(px, read, INKS) == read

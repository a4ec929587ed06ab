"""A coin face the camera saturated: its suit read by the ink that explains it through a
clipping camera, only where the hue reading is unsure."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from vision.coin_saturated import saturated, saturated_suits, unsure_on_saturated
from vision.suits import darkest_colour_of, read_suits

INKS = {k: PieceSet().suit_rgb(k) for k in ("suns", "moons", "crowns", "arms")}
BODY_RGB = np.array([1.0, 0.97, 0.88])  # a cream body


def _face(suit: str, gain: float, share: float = 0.85) -> np.ndarray:
    """(1, 200, 3) BGR pixels of a face: a cream body lit ``gain`` times what the sensor
    holds, a symbol of ``suit``'s ink on a tenth of it (its core ``share`` ink), its edge
    blurred into the body, clipped at 255."""
    ink = np.array(INKS[suit], float) / 255.0
    a = np.zeros(200)
    a[:14] = share
    a[14:24] = np.linspace(share, 0.1, 10)
    rgb = 255.0 * gain * BODY_RGB[None] * (1.0 - a[:, None] * (1.0 - ink[None]))
    return np.minimum(255.0, rgb)[None, :, ::-1]


@pytest.mark.parametrize("suit", ["arms", "crowns", "suns", "moons"])
@pytest.mark.parametrize("gain", [1.5, 2.0])
def test_a_clipped_face_is_read_by_the_ink_that_explains_it(suit: str, gain: float) -> None:
    face = _face(suit, gain)
    assert saturated(face).all()
    assert saturated_suits(face, INKS)[0][0] == suit


def test_a_blue_ink_on_a_clipped_face_reads_unsurely_by_hue_and_rightly_by_the_fit() -> None:
    face = _face("arms", 2.0)
    read = read_suits(darkest_colour_of(face), INKS)
    assert unsure_on_saturated(face, read).all() or read[0][0] == "arms"
    assert saturated_suits(face, INKS)[0][0] == "arms"


def test_a_face_that_does_not_clip_keeps_its_hue_reading() -> None:
    face = _face("arms", 0.8)
    read = read_suits(darkest_colour_of(face), INKS)
    assert not saturated(face).any()
    assert not unsure_on_saturated(face, read).any()
    assert read[0][0] == "arms"


def test_no_faces_read_as_none() -> None:
    assert saturated_suits(np.zeros((0, 50, 3)), INKS) == []
    assert saturated(np.zeros((0, 50, 3))).shape == (0,)

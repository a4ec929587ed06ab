"""Reading a symbol's colour."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from vision.suits import classify_ink, symbol_colour

INKS = {k: PieceSet().suit_rgb(k) for k in ("suns", "moons", "crowns", "arms")}


def _mix(rgb: tuple[int, int, int], a: float, grey: float = 0.0) -> np.ndarray:
    """An ink mixed with the white body (share ``a``), plus a little grey shade."""
    c = np.array(rgb, float) / 255.0
    return (1 - a) + a * c - grey


@pytest.mark.parametrize(("suit", "share"), [
    (s, a) for s in INKS for a in (0.25, 0.5, 0.9)])
def test_blurred_inks_keep_their_suit(suit: str, share: float) -> None:
    name, conf = classify_ink(_mix(INKS[suit], share), INKS)
    assert name == suit
    assert conf > 0.3


@pytest.mark.parametrize("rel", [np.array([1.0, 1.0, 1.0]), np.array([np.nan, 1.0, 1.0])])
def test_no_ink_reads_as_no_suit(rel: np.ndarray) -> None:
    assert classify_ink(rel, INKS) == (None, 0.0)


def test_symbol_colour_is_relative_to_the_body() -> None:
    patch = np.full((20, 20, 3), (180, 200, 220), np.uint8)  # BGR, warm light
    patch[8:12, 8:12] = (90, 100, 110)  # a grey symbol under the same light
    rel, n = symbol_colour(patch, np.ones((20, 20), bool))
    assert n == 16
    np.testing.assert_allclose(rel, [0.5, 0.5, 0.5], atol=0.01)
    assert classify_ink(rel, INKS)[0] == "moons"


def test_many_symbols_read_at_once_read_as_each_alone() -> None:
    from vision.suits import symbol_colours

    rng = np.random.default_rng(3)
    img = rng.integers(120, 255, (60, 80, 3)).astype(np.uint8)
    img[20:26, 30:36] = (40, 40, 200)  # a red symbol
    yy, xx = np.mgrid[-8:9, -8:9]
    keep = xx * xx + yy * yy <= 64
    offsets = np.c_[xx[keep], yy[keep]]
    centres = np.array([[33, 23], [10, 10], [2, 50], [77, 3], [40, 40]])
    many = symbol_colours(img, centres, offsets)
    for (cx, cy), (rel, n) in zip(centres, many, strict=True):
        region = np.zeros(img.shape[:2], bool)
        px, py = offsets[:, 0] + cx, offsets[:, 1] + cy
        ok = (px >= 0) & (px < 80) & (py >= 0) & (py < 60)
        region[py[ok], px[ok]] = True
        rel1, n1 = symbol_colour(img, region)
        assert n == n1
        assert (rel is None) == (rel1 is None)
        if rel is not None:
            assert np.allclose(rel, rel1)

"""A pale tile under a narrow blind's bands is looked for in the view with the bands divided
out (:func:`vision.tile_candidates.fit_tiles`' ``fit_top``, :func:`vision.segment_light.lift`):
a band's edge across a side is a colour edge as strong as the side's own."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.bands import Bands
from vision.segment_light import lift
from vision.tile_candidates import fit_tiles
from vision.tile_fit import TileFitConfig
from vision.tile_pattern import square_corners

S = 4  # drawn at 4x, then shrunk
SIDE = 50.8  # px (1 px a mm)
SIZE = 200
CREAM = (214.0, 232.0, 240.0)  # BGR: a cream tile's paper, about the white table's grey


def _bands(period_px: float, turn_deg: float) -> Bands:
    """A blind's bands: light and shade in turn (gain 1.0 and 0.55), soft edges a pixel
    wide, across ``turn_deg`` (view degrees), one bin a pixel."""
    a = np.radians(turn_deg)
    n = 600
    phase = np.sin(2 * np.pi * np.arange(n) / period_px)
    gain = (0.775 + 0.225 * np.tanh(4.0 * phase)).astype(np.float32)
    return Bands((float(np.cos(a)), float(np.sin(a))), -300.0, 1.0, gain)


def _picture(c: np.ndarray, tile_deg: float, bands: Bands) -> np.ndarray:
    """A cream tile on a glossy white table, under ``bands``; noisy uint8 BGR."""
    big = np.full((SIZE * S, SIZE * S, 3), (236.0, 240.0, 242.0))
    corners = square_corners(c * S + S / 2 - 0.5, tile_deg, SIDE * S)
    cv2.fillConvexPoly(big, np.round(corners).astype(np.int32), CREAM)
    img = cv2.resize(big.astype(np.float32), (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    img = img * bands.at_view((SIZE, SIZE), channels=3)
    img += np.random.default_rng(3).normal(0, 1.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("period_px, turn_deg, tile_deg", [(22.0, 30.0, 12.0),
                                                           (18.0, 75.0, 40.0)])
def test_a_pale_tile_under_a_narrow_blind_is_fitted_with_the_bands_divided_out(
        period_px: float, turn_deg: float, tile_deg: float) -> None:
    c = np.array([101.3, 98.6])
    bands = _bands(period_px, turn_deg)
    img = _picture(c, tile_deg, bands)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shade = grey / float(np.median(grey))
    view = SimpleNamespace(px_per_mm=1.0, outward_px=lambda p: np.zeros((len(p), 2)))
    nothing = np.zeros(shade.shape, np.uint8)
    cfg = TileFitConfig(judge=None)  # (the judge is trained on renders, not on drawings)

    def tiles(fit_top: np.ndarray | None) -> np.ndarray:
        got = fit_tiles(view, shade, img, nothing, nothing, c[None] + (1.5, -1.0), SIDE, 1.0,
                        cfg, backs=None, pattern=None, fit_top=fit_top)
        return np.array([t.centre_px for t in got]).reshape(-1, 2)

    found = tiles(lift(img, bands))
    assert len(found) == 1 and np.hypot(*(found[0] - c)) < 0.5
    assert not len(tiles(None))  # in the view as it is the bands' edges spoil the sides

"""A tile placed from the centre net's peak by its sides' steepest edges
(:mod:`vision.tile_from_peak`): a pale tile on a pale table whose printed ink the colour fit
takes for its sides."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from vision.tile_candidates import fit_tiles
from vision.tile_fit import TileFitConfig, fit_square
from vision.tile_from_peak import square_at_peak

S = 4  # drawn at 4x, then shrunk: edges with sub-pixel detail
SIDE = 50.8  # px (1 px a mm)
TABLE = (238.0, 240.0, 242.0)  # BGR: glossy white
PAPER = (246.0, 247.0, 248.0)  # the tile's paper, a few levels above it
INK = (60.0, 140.0, 40.0)  # a green symbol


def _box(c: np.ndarray, w: float, h: float, ang: float) -> np.ndarray:
    return np.round(cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5),
                                   (w * S, h * S), ang))).astype(np.int32)


def _pale_tile(c: np.ndarray, ang: float, seed: int = 0) -> np.ndarray:
    """A pale face-up tile on a white table: its paper barely above the table, a wide band of
    ink across it whose edges lie near its sides' lines."""
    big = np.full((160 * S, 160 * S, 3), TABLE)
    cv2.fillConvexPoly(big, _box(c, SIDE, SIDE, ang), PAPER)
    cv2.fillConvexPoly(big, _box(c, 0.68 * SIDE, 0.3 * SIDE, ang), INK)
    img = cv2.resize(big.astype(np.float32), (160, 160), interpolation=cv2.INTER_AREA)
    img += np.random.default_rng(seed).normal(0, 0.7, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_pale_tile_whose_ink_the_colour_fit_takes_for_sides_is_placed_from_its_peak(
        ) -> None:
    c, ang = np.array([80.3, 79.6]), 12.0
    img = _pale_tile(c, ang)
    peak = c + np.array([1.6, -1.2])  # the net's peak, a pixel or two off
    assert fit_square(img, peak, SIDE, np.zeros(2), [ang + 1.0]) is None
    got = square_at_peak(img, peak, [ang + 1.0], SIDE, np.zeros(2))
    assert got is not None
    assert np.hypot(*(got[0] - c)) < 0.3
    assert abs(got[1] - ang) < 0.3


def test_no_square_is_measured_from_a_peak_on_the_bare_table() -> None:
    img = _pale_tile(np.array([500.0, 500.0]), 0.0)  # the tile drawn out of view
    assert square_at_peak(img, np.array([80.0, 80.0]), [0.0, 30.0], SIDE, np.zeros(2)) is None


def test_the_net_s_tiles_include_the_pale_tile_placed_from_its_peak() -> None:
    c, ang = np.array([80.3, 79.6]), 12.0
    img = _pale_tile(c, ang, seed=1)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shade = grey / float(np.median(grey))
    nothing = np.zeros(grey.shape, np.uint8)
    view = SimpleNamespace(px_per_mm=1.0, outward_px=lambda p: np.zeros((len(p), 2)))
    cfg = TileFitConfig(judge=None)  # (the judge is trained on renders, not on drawings)
    peak = (c + np.array([1.6, -1.2]))[None]

    def tiles(peak_polish: bool) -> list:
        return fit_tiles(view, shade, img, nothing, nothing, peak, SIDE, 1.0, cfg,
                         peak_polish=peak_polish)

    assert tiles(False) == []  # no fit places it
    got = tiles(True)
    assert len(got) == 1
    assert np.hypot(*(np.array(got[0].centre_px) - c)) < 0.3

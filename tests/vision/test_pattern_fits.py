"""The fits for tables whose own level varies: a coin's rim and a tile's sides are found to a
fraction of a pixel on a check and under stripes of shade, where a fit against the table's
mean level fails."""

from __future__ import annotations

import cv2
import numpy as np

from vision.rim_fit import rim_centres
from vision.square_fit import square_centre

S = 4  # drawn at 4x, then shrunk: edges with sub-pixel detail


def _checks(h: int, w: int, cell: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h * S, 0:w * S]
    return np.where(((yy // (cell * S)) + (xx // (cell * S))) % 2 == 0, 0.35, 1.3)


def _shrunk(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[0] // S, img.shape[1] // S
    return cv2.resize(img.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)


def test_coin_rim_is_found_on_a_check() -> None:
    big = _checks(120, 120, 11)
    c, r = np.array([60.3, 58.6]), 9.5
    cv2.circle(big, (round(c[0] * S + S / 2 - 0.5), round(c[1] * S + S / 2 - 0.5)),
               round(r * S), 1.6, -1)
    level = _shrunk(big)
    start = c + np.array([1.5, -1.0])
    away = np.array([[0.0, 0.0]])
    fit = rim_centres(level, start[None], away, r)[0]
    assert np.hypot(*(fit - c)) < 0.3


def test_bare_check_gives_no_coin() -> None:
    level = _shrunk(_checks(120, 120, 11))
    fit = rim_centres(level, np.array([[60.0, 60.0]]), np.zeros((1, 2)), 9.5)
    assert not np.isfinite(fit).any()


def test_tile_sides_are_found_under_stripes_of_shade() -> None:
    h = w = 160
    yy, xx = np.mgrid[0:h * S, 0:w * S]
    shade = np.where(((xx + yy) // (30 * S)) % 2 == 0, 0.6, 1.0)  # a blind's stripes
    big = shade.copy()
    c, side, ang = np.array([80.4, 79.2]), 50.8, 12.0
    box = cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5), (side * S, side * S),
                         ang))
    tile = np.zeros_like(big, np.uint8)
    cv2.fillConvexPoly(tile, np.round(box).astype(np.int32), 1)
    big = np.where(tile > 0, 1.4 * shade, big)
    level = _shrunk(big)
    fit = square_centre(level, c + np.array([1.2, -0.8]), ang + 1.5, side, np.zeros(2))
    assert fit is not None
    centre, angle = fit
    assert np.hypot(*(centre - c)) < 0.3
    assert abs(angle - ang) < 0.5

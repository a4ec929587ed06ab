"""A tile's top face from its strongest straight edges in colour (:mod:`vision.tile_fit`):
found where the grey shade has no contrast, placed to a fraction of a pixel, and never made
of a printed grid or a bare pattern."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.tile_fit import (
    TileFitConfig,
    colour_gradient,
    fit_square,
    normalised_channels,
    runs_past,
    vote_angle,
)

S = 4  # drawn at 4x, then shrunk: edges with sub-pixel detail
SIDE = 50.8  # px (1 px a mm)


def _shrunk(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[0] // S, img.shape[1] // S
    return cv2.resize(img.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)


def _square(big: np.ndarray, c: np.ndarray, side: float, ang: float, bgr: tuple[float, ...]
            ) -> np.ndarray:
    box = cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5), (side * S, side * S),
                         ang))
    mask = np.zeros(big.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    out = big.copy()
    out[mask > 0] = bgr
    return out


def _picture(big: np.ndarray, seed: int = 0, noise: float = 1.5) -> np.ndarray:
    img = _shrunk(big) + np.random.default_rng(seed).normal(0, noise, (big.shape[0] // S,
                                                                         big.shape[1] // S, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _white(h: int = 160, w: int = 160) -> np.ndarray:
    return np.full((h * S, w * S, 3), (238.0, 240.0, 242.0))


CREAM = (206.0, 232.0, 243.0)  # BGR: a cream tile, as bright as the white table in grey


def test_cream_tile_on_white_table_is_fitted_by_its_colour_edges() -> None:
    c, ang = np.array([80.4, 79.2]), 17.0
    img = _picture(_square(_white(), c, SIDE, ang, CREAM))
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(float)
    assert abs(grey[79, 80] - grey[10, 10]) < 8  # the grey shade barely shows it
    fit = fit_square(img, c + np.array([2.0, -1.5]), SIDE, np.zeros(2))
    assert fit is not None
    assert np.hypot(*(fit.centre_px - c)) < 0.3
    assert abs(fit.angle_px - ang) < 0.3
    assert fit.sides == 4


@pytest.mark.parametrize("ang", [10.0, 62.5])
def test_tile_angle_is_voted_from_its_sides_without_a_hint(ang: float) -> None:
    c = np.array([80.0, 80.0])
    img = _picture(_square(_white(), c, SIDE, ang, CREAM))
    win, (x0, y0) = normalised_channels(img, c, 0.95 * SIDE)
    gx, gy = colour_gradient(win)
    votes = vote_angle(gx, gy, c - (x0, y0), SIDE)
    assert votes and abs(votes[0] - ang % 90) < 1.5  # a start: the edge fit places it
    fit = fit_square(img, c, SIDE, np.zeros(2))
    assert fit is not None and abs(fit.angle_px - ang) < 0.3


def test_tile_under_blind_stripes_is_fitted() -> None:
    h = w = 160
    yy, xx = np.mgrid[0:h * S, 0:w * S]
    shade = np.where(((xx + 2 * yy) // (26 * S)) % 2 == 0, 0.55, 1.0)[..., None]
    table = np.full((h * S, w * S, 3), (90.0, 120.0, 150.0))
    c, ang = np.array([79.6, 81.3]), 33.0
    big = _square(table, c, SIDE, ang, (200.0, 225.0, 235.0)) * shade
    fit = fit_square(_picture(big, 1), c + np.array([-1.0, 2.0]), SIDE, np.zeros(2), [35.0])
    assert fit is not None
    assert np.hypot(*(fit.centre_px - c)) < 0.3
    assert abs(fit.angle_px - ang) < 0.3


def test_side_facing_the_camera_is_the_top_face_edge_not_the_wall() -> None:
    # the wall (darker, 4 px wide) shows beyond the side facing the camera (below)
    c, ang = np.array([80.0, 78.0]), 0.0
    big = _square(_white(), c + np.array([0.0, 2.0]), SIDE, ang, (120.0, 130.0, 140.0))
    big = _square(big, c + np.array([0.0, 0.0]), SIDE, ang, CREAM)
    fit = fit_square(_picture(big, 2), c + np.array([1.0, 1.0]), SIDE, np.array([0.0, -1.0]))
    assert fit is not None
    assert np.hypot(*(fit.centre_px - c)) < 0.4


@pytest.mark.parametrize("cell", [10.16, 12.7])
def test_printed_grid_is_not_a_tile(cell: float) -> None:
    # a page with a grid whose lines lie a tile's side apart: squares of the right size
    # everywhere, but their sides run on past every corner
    h = w = 200
    big = np.full((h * S, w * S, 3), 245.0)
    for v in np.arange(5, w, cell):
        x = round(v * S)
        big[:, x:x + S] = 60.0
        big[x:x + S, :] = 60.0
    img = _picture(big, 3)
    c = np.array([100.0, 100.0])
    fit = fit_square(img, c, SIDE, np.zeros(2), [0.0])
    assert fit is None or runs_past(img, fit.centre_px, fit.angle_px, SIDE) >= 3


def test_lone_tile_sides_stop_at_its_corners() -> None:
    c, ang = np.array([100.0, 100.0]), 8.0
    img = _picture(_square(_white(200, 200), c, SIDE, ang, CREAM))
    assert runs_past(img, c, ang, SIDE) == 0


def test_tile_in_a_row_of_tiles_has_two_sides_running_on() -> None:
    big = _white(200, 260)
    for dx in (-51.3, 0.0, 51.3):
        big = _square(big, np.array([130.0 + dx, 100.0]), SIDE, 0.0, CREAM)
    img = _picture(big, 4)
    assert runs_past(img, np.array([130.0, 100.0]), 0.0, SIDE) == 2


def test_bare_stripes_give_no_tile() -> None:
    h = w = 160
    yy, xx = np.mgrid[0:h * S, 0:w * S]
    big = np.where(((xx + yy) // (30 * S))[..., None] % 2 == 0, 0.6, 1.0) * np.array(
        [200.0, 180.0, 160.0])
    assert fit_square(_picture(big, 5), np.array([80.0, 80.0]), SIDE, np.zeros(2)) is None


def test_plain_table_gives_no_tile() -> None:
    assert fit_square(_picture(_white(), 6), np.array([80.0, 80.0]), SIDE, np.zeros(2)) is None


@pytest.mark.parametrize("n", [2, 3])
def test_tile_in_a_row_is_fitted_by_the_rows_outer_sides(n: int) -> None:
    # tiles laid edge to edge (no gap): a side against the next tile shows no edge, so that
    # pair of sides is measured at the row's outer sides, whole tiles further out
    c, ang = np.array([70.4, 79.6]), 21.0
    a = np.radians(ang)
    along = np.array([np.cos(a), np.sin(a)])
    big = _white(200, 260)
    for k in range(n):
        big = _square(big, c + k * SIDE * along, SIDE, ang, CREAM)
    img = _picture(big, 7)
    tiles = [c + k * SIDE * along for k in range(n)]
    for t in tiles:
        fit = fit_square(img, t + np.array([1.5, -1.0]), SIDE, np.zeros(2))
        assert fit is not None
        assert np.hypot(*(fit.centre_px - t)) < 0.3
        assert abs(fit.angle_px - ang) < 0.3


def test_row_search_finds_no_tile_on_a_plain_table() -> None:
    import dataclasses

    from vision.tile_fit import TileFitConfig

    cfg = dataclasses.replace(TileFitConfig(), rows=2)
    assert fit_square(_picture(_white(200, 200), 8), np.array([100.0, 100.0]), SIDE,
                      np.zeros(2), None, cfg, 0.5) is None


def _ragged(amp: float, seg: float, c: np.ndarray) -> np.ndarray:
    """A pale tile on a grey table whose sides step in and out by ``amp`` px every ``seg``
    px along them (a small check's or a worm's coin's jitter on the edge points)."""
    big = np.full((160 * S, 160 * S, 3), (110.0, 112.0, 115.0))
    h = SIDE / 2
    corners = [np.array(p) for p in ((-h, -h), (h, -h), (h, h), (-h, h))]
    pts = []
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        d = (q - p) / SIDE
        n = np.array([d[1], -d[0]])  # outward
        m = int(SIDE // seg)
        for i in range(m):
            off = amp if i % 2 else -amp
            pts += [p + d * i * SIDE / m + n * off, p + d * (i + 1) * SIDE / m + n * off]
    poly = (np.array(pts) + c) * S + S / 2 - 0.5
    cv2.fillPoly(big, [np.round(poly).astype(np.int32)], (200.0, 205.0, 210.0))
    return _picture(big)


def test_a_square_held_by_four_sides_stands_at_a_looser_fit() -> None:
    """Edge points 0.55 px from the square (RMS) on all four sides: a tile (tuning game
    renders 630003, 630702 fitted so), refused at half a pixel."""
    c = np.array([80.0, 80.0])
    img = _ragged(0.6, 6.0, c)
    fit = fit_square(img, c + np.array([1.0, -1.0]), SIDE, np.zeros(2), [0.0])
    assert fit is not None and fit.sides == 4
    assert 0.01 * SIDE < fit.rms_px < 0.012 * SIDE
    assert np.hypot(*(fit.centre_px - c)) < 0.3
    assert min(abs(fit.angle_px), abs(fit.angle_px - 90.0)) < 0.3
    assert fit_square(img, c + np.array([1.0, -1.0]), SIDE, np.zeros(2), [0.0],
                      TileFitConfig(max_rms_four=None)) is None

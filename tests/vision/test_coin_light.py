"""Under a blind a coin's top face is lit by the band where its shadow falls, a coin's thickness
above the table: the view divided by the table's bands shows the face in two halves where a
band's edge crosses it. The shift of the bands on the faces is found from the faces themselves
(one for the frame) and each face relit with it (:mod:`vision.coin_light`)."""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration
from vision.bands import Bands
from vision.coin_light import (
    CoinLightConfig,
    _across,
    _parallax,
    band_gain,
    face_shift_px,
    relit,
)
from vision.topview import TopView

R = 10.0
THICK = 3.0


def _view() -> TopView:
    cal = Calibration((320, 240), np.array([[600.0, 0, 160], [0, 600.0, 120], [0, 0, 1]]))
    return TopView(cal, 1.0)


def _bands(view: TopView, period_px: float = 40.0) -> Bands:
    """A blind's square bands across x (soft over 2 px): light 1.2, shade 0.6."""
    w, h = view.size_wh if hasattr(view, "size_wh") else (400, 400)
    n = int(w + h) + 40
    x = np.arange(n) + 0.5 - 20.0
    gain = np.where(np.mod(x, period_px) < period_px / 2, 1.2, 0.6).astype(np.float32)
    gain = np.convolve(gain, np.ones(3) / 3, mode="same").astype(np.float32)
    return Bands((1.0, 0.0), -20.0, 1.0, gain)


def _scene(view: TopView, bands: Bands, centres: np.ndarray, shift_px: float,
           face: float = 1.4) -> tuple[np.ndarray, np.ndarray]:
    """The shade and colour a view divided by the table's bands shows of coins' faces (level
    ``face`` of the table's) lit by the bands ``shift_px`` across from the table's (and the
    camera's parallax); the table itself 1.0 after the division."""
    h, w = 240, 320
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    shade = np.ones((h, w), np.float32)
    under = _across(bands, _parallax(view, centres, THICK))
    for (cx, cy), du in zip(centres, under, strict=True):
        on = (xx - cx) ** 2 + (yy - cy) ** 2 <= R * R
        u = xx[on] * bands.normal_xy[0] + yy[on] * bands.normal_xy[1]
        shade[on] = face * band_gain(bands, u + du - shift_px) / band_gain(bands, u)
    top = np.clip(np.rint(60.0 * shade), 0, 255).astype(np.uint8)
    return shade, np.dstack([top] * 3)


CENTRES = np.array([[70.0, 60.0], [118.0, 150.0], [205.0, 90.0], [250.0, 170.0]])


def test_the_bands_on_the_coins_faces_are_found_shifted_from_the_tables() -> None:
    view = _view()
    bands = _bands(view)
    for true in (-4.0, 3.0, 5.5):  # view pixels (the view: 0.67 px a mm; 9 mm each way)
        shade, _ = _scene(view, bands, CENTRES, true)
        got = face_shift_px(CoinLightConfig(), bands, view, shade, CENTRES, R, THICK)
        assert got is not None and abs(got - true) <= 1.0, (true, got)


def test_one_coin_crossed_by_one_band_edge_gives_the_shift() -> None:
    view = _view()
    bands = _bands(view, period_px=80.0)  # a face crossed by one edge at most
    one = np.array([[78.0, 60.0]])  # the band's edge at x = 80 lies at 83 on its face
    shade, _ = _scene(view, bands, one, 3.0)
    got = face_shift_px(CoinLightConfig(), bands, view, shade, one, R, THICK)
    assert got is not None and abs(got - 3.0) <= 1.0


def test_faces_relit_by_that_shift_are_flat_again() -> None:
    view = _view()
    bands = _bands(view)
    shade, top = _scene(view, bands, CENTRES, 5.0)
    lit, lit_top = relit(CoinLightConfig(), bands, view, shade, top, CENTRES, R, THICK, 5.0)
    yy, xx = np.mgrid[0:240, 0:320]
    for cx, cy in CENTRES:
        face = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.8 * R) ** 2
        assert np.ptp(shade[face]) > 0.5  # two halves before
        assert np.allclose(lit[face], 1.4, atol=0.02)
        assert np.ptp(lit_top[face][:, 0].astype(int)) <= 2
    table = (np.min([(xx - cx) ** 2 + (yy - cy) ** 2 for cx, cy in CENTRES], axis=0)
             > (1.1 * R) ** 2)
    assert np.array_equal(lit[table], shade[table])  # the table round them as it was


def test_faces_no_band_edge_crosses_are_not_relit() -> None:
    view = _view()
    bands = Bands((1.0, 0.0), -20.0, 1.0, np.full(800, 0.8, np.float32))  # no edge in view
    shade, _ = _scene(view, bands, CENTRES, 5.0)
    assert face_shift_px(CoinLightConfig(), bands, view, shade, CENTRES, R, THICK) is None

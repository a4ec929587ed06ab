"""A face-down tile placed by its back's cross (:mod:`vision.tile_backs`): found on a table of
its own level and colour, placed to a fraction of a pixel and turned to a fraction of a degree,
and never made of a printed grid, a face's symbol or bare paper."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.tile_backs import back_square

S = 4  # drawn at 4x, then shrunk: lines with sub-pixel detail
SIDE = 50.8  # px (1 px a mm)
TABLE, PAPER, INK = (236.0, 238.0, 240.0), (232.0, 236.0, 238.0), (120.0, 124.0, 126.0)


def _axes(ang: float) -> tuple[np.ndarray, np.ndarray]:
    a = math.radians(ang)
    return np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])


def _line(big: np.ndarray, p0: np.ndarray, p1: np.ndarray, width_px: float) -> None:
    q0, q1 = (np.round((p * S + S / 2 - 0.5) * 16).astype(int) for p in (p0, p1))
    cv2.line(big, tuple(q0.tolist()), tuple(q1.tolist()), INK, round(width_px * S),
             cv2.LINE_AA, 4)


def _tile(big: np.ndarray, c: np.ndarray, ang: float, back: bool = True,
          reach: float = 0.5) -> None:
    """A tile's top face of paper at ``c`` (pixels of the shrunk picture), its back's cross
    drawn out to ``reach`` sides from the centre (beyond 0.5: a printed grid's lines)."""
    box = cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5), (SIDE * S,) * 2,
                         ang))
    mask = np.zeros(big.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    big[mask > 0] = PAPER
    if back:
        for d in _axes(ang):
            _line(big, c - reach * SIDE * d, c + reach * SIDE * d, 1.5)


def _picture(big: np.ndarray, seed: int = 0, noise: float = 1.5) -> np.ndarray:
    h, w = big.shape[0] // S, big.shape[1] // S
    img = cv2.resize(big.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)
    img += np.random.default_rng(seed).normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _table(h: int = 200, w: int = 200) -> np.ndarray:
    return np.full((h * S, w * S, 3), TABLE)


@pytest.mark.parametrize("ang", [0.0, 17.0, 44.0, 71.5])
def test_back_on_a_table_of_its_own_colour_is_placed_by_its_cross(ang: float) -> None:
    c = np.array([100.4, 99.3])
    big = _table()
    _tile(big, c, ang)
    img = _picture(big)
    fit = back_square(img, c + np.array([6.0, -5.0]), SIDE, [(ang + 1.5) % 90])
    assert fit is not None
    assert np.hypot(*(fit.centre_px - c)) < 0.5
    assert min(abs(fit.angle_px - ang) % 90, 90 - abs(fit.angle_px - ang) % 90) < 0.5
    assert fit.runs == 0


def test_printed_grid_is_no_back() -> None:
    c = np.array([100.0, 100.0])
    big = _table()
    _tile(big, c, 12.0, reach=1.5)  # its lines run on across the table
    assert back_square(_picture(big), c, SIDE, [12.0]) is None


def test_face_and_bare_paper_have_no_cross() -> None:
    c = np.array([100.0, 100.0])
    big = _table()
    _tile(big, c, 20.0, back=False)
    cv2.circle(big, (round(c[0] * S), round(c[1] * S)), round(0.22 * SIDE * S), INK, -1)
    assert back_square(_picture(big), c, SIDE, [20.0]) is None
    assert back_square(_picture(_table()), c, SIDE, [20.0]) is None


def test_two_backs_in_a_row_are_each_placed_by_their_own_cross() -> None:
    ex, _ = _axes(25.0)
    c0 = np.array([100.0, 100.0]) - 0.5 * (SIDE + 0.5) * ex
    c1 = c0 + (SIDE + 0.5) * ex
    big = _table()
    _tile(big, c0, 25.0)
    _tile(big, c1, 25.0)
    img = _picture(big)
    for c in (c0, c1):
        fit = back_square(img, c + np.array([3.0, 3.0]), SIDE, [25.0])
        assert fit is not None
        assert np.hypot(*(fit.centre_px - c)) < 0.5


def test_cross_shorter_than_the_arms_is_no_back() -> None:
    """A face's symbol shaped like a plus (or a check's corner under an arm) dips on part of
    each arm only: a back's lines run the whole arm."""
    c = np.array([100.0, 100.0])
    big = _table()
    _tile(big, c, 30.0, reach=0.22)
    assert back_square(_picture(big), c, SIDE, [30.0]) is None
    big = _table()
    _tile(big, c, 30.0)  # the same tile with its whole cross
    assert back_square(_picture(big), c, SIDE, [30.0]) is not None


def test_face_whose_lines_cross_askew_is_placed_by_its_outline() -> None:
    """A cross turned from the tile's own outline is no back (a face-up symbol's rays, a
    check's lines): where the colour fit measures the outline on all four sides, it places
    the tile (a sun on small checks was placed 22 degrees off, game table 680012)."""
    from types import SimpleNamespace

    from vision.tile_candidates import fit_tiles
    from vision.tile_fit import TileFitConfig

    c, ang = np.array([100.4, 99.3]), 10.0
    big = np.full((200 * S, 200 * S, 3), (238.0, 240.0, 242.0))  # a white table
    box = cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5), (SIDE * S,) * 2,
                         ang))
    mask = np.zeros(big.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    big[mask > 0] = (206.0, 232.0, 243.0)  # cream: as bright as the table in grey
    for d in _axes(ang + 30.0):  # two lines crossing at 30 degrees to its sides
        _line(big, c - 0.45 * SIDE * d, c + 0.45 * SIDE * d, 1.5)
    img = _picture(big)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shade = grey / float(np.median(grey))
    nothing = np.zeros(shade.shape, np.uint8)
    view = SimpleNamespace(px_per_mm=1.0, outward_px=lambda p: np.zeros((len(p), 2)))
    cfg = TileFitConfig(judge=None)  # (the judge is trained on renders, not on drawings)
    assert back_square(img, c, SIDE, [ang + 30.0]) is not None  # the lines make a cross
    got = fit_tiles(view, shade, img, nothing, nothing, c[None], SIDE, 1.0, cfg,
                    sheets=None, pattern=None)
    assert len(got) == 1
    assert np.hypot(*(np.array(got[0].centre_px) - c)) < 1.0
    turn = abs(got[0].angle_px - ang) % 90
    assert min(turn, 90 - turn) < 1.0

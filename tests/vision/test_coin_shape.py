"""A coin's far edge is a circle; a die's square top, lying among coins, is no coin."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render import render
from tabletop.render.clutter import make_clutter
from tabletop.scene import Piece, Scene
from vision.coin_shape import not_round, outline_circle
from vision.detector import Detector, DetectorConfig

PIECES = PieceSet()


def _blurred(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.2)


def test_a_disc_is_round_and_a_square_is_not() -> None:
    yy, xx = np.mgrid[0:120, 0:120].astype(np.float32)
    r = 20.0
    disc = _blurred(np.where(np.hypot(xx - 60, yy - 60) <= r, 1.8, 1.0))
    half = 0.8 * r  # a die's top: 15 mm against a coin's 19
    square = _blurred(np.where((np.abs(xx - 60) <= half) & (np.abs(yy - 60) <= half), 1.8, 1.0))
    c, away = np.array([[60.0, 60.0]]), np.array([[0.6, 0.8]])
    assert outline_circle(disc, c, away, r)[0][0] < 0.01
    assert outline_circle(square, c, away, r)[0][0] > 0.035
    assert not_round(disc, c, away, r).tolist() == [False]
    assert not_round(square, c, away, r).tolist() == [True]


def test_a_worm_coin_hemmed_by_neighbours_is_not_judged_no_coin() -> None:
    """Rays into a touching neighbour meet its far rim, far from the coin's own circle: they
    are left out of the fit, and the coin is round."""
    yy, xx = np.mgrid[0:160, 0:200].astype(np.float32)
    r = 20.0
    img = np.ones_like(xx)
    for cx in (60.0, 100.0, 140.0):
        img[np.hypot(xx - cx, yy - 80) <= r] = 1.8
    img = _blurred(img)
    assert not_round(img, np.array([[100.0, 80.0]]), np.array([[1.0, 0.0]]), r).tolist() == [
        False]


def test_a_patterned_table_is_not_judged() -> None:
    yy, xx = np.mgrid[0:120, 0:120].astype(np.float32)
    r = 20.0
    check = np.where(((xx // 8 + yy // 8) % 2) == 0, 1.6, 0.5)  # a black and white check
    square = np.where((np.abs(xx - 60) <= 16) & (np.abs(yy - 60) <= 16), 1.8, check)
    assert not_round(_blurred(square), np.array([[60.0, 60.0]]), np.array([[0.0, 1.0]]),
                     r).tolist() == [False]


@pytest.mark.slow
def test_dice_among_coins_are_no_coins() -> None:
    """Three white dice (black pips) beside a worm of coins, seen from a tilted camera (the
    gate is off by default: see ``CoinConfig.round_only``)."""
    rng = np.random.default_rng(3)
    dice = make_clutter("dice", rng, (60.0, 40.0), 0.0)
    while dice.props[0].top_bgr[0] < 0.5:  # a white die, its pips black (a red one is rarer)
        dice = make_clutter("dice", rng, (60.0, 40.0), 0.0)
    coins = tuple(Piece("coin", -90.0 + 19.2 * k, -40.0, suit=s)
                  for k, s in enumerate(("suns", "moons", "crowns", "arms", "moons")))
    scene = Scene(coins)
    pose = render.CameraPose.looking_at((0.0, 0.0), 850.0, 15.0, 20.0, (1280, 720), 60.0)
    r = render.render_scene(scene, pose, render.RenderSettings(), PIECES, props=dice.props)
    cfg = DetectorConfig()
    cfg = replace(cfg, coins=replace(cfg.coins, round_only=True))
    found = Detector(r.calibration(), PIECES, config=cfg).detect(r.image).scene.pieces
    got = np.array([[p.x_mm, p.y_mm] for p in found if p.kind == "coin"]).reshape(-1, 2)
    true = np.array([[p.x_mm, p.y_mm] for p in coins])
    near = np.hypot(*(got[:, None] - true[None]).transpose(2, 0, 1)).min(axis=1) < 3.0
    assert near.all(), f"coins found where none is: {got[~near].round(0).tolist()}"
    assert near.sum() == len(coins)


def _circle(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Centre and radius of the circle through points, least squares (algebraic): the fit
    outline_circle made disc by disc before it fitted them all at once."""
    a = np.c_[2.0 * x, 2.0 * y, np.ones(len(x))]
    try:
        cx, cy, c = np.linalg.solve(a.T @ a, a.T @ (x * x + y * y))
    except np.linalg.LinAlgError:
        return 0.0, 0.0, float("nan")
    return float(cx), float(cy), float(np.sqrt(max(c + cx * cx + cy * cy, 0.0)))


def _outline_one_by_one(level: np.ndarray, centres: np.ndarray, away: np.ndarray,
                        r: float) -> tuple[np.ndarray, np.ndarray]:
    """outline_circle's circle fits made disc by disc (as it made them before they were made
    all at once): the reference its figures must match."""
    from vision.coin_shape import RAYS, edge_distances

    d, _, _ = edge_distances(level, centres, away, r)
    th = np.radians(np.linspace(-90.0, 90.0, RAYS))
    off, rad = np.full(len(d), np.nan), np.full(len(d), np.nan)
    for i, di in enumerate(d):
        m = np.isfinite(di)
        if m.sum() < RAYS // 2:
            continue
        x, y = di[m] * np.cos(th[m]), di[m] * np.sin(th[m])
        cx, cy, rr = 0.0, 0.0, r
        for _ in range(3):
            res = np.abs(np.hypot(x - cx, y - cy) - rr)
            keep = res <= np.percentile(res, 75)
            cx, cy, rr = _circle(x[keep], y[keep])
        res = np.hypot(x[keep] - cx, y[keep] - cy) - rr
        off[i], rad[i] = float(np.sqrt(np.mean(res * res))) / r, rr / r
    return off, rad


def test_the_outlines_fitted_all_at_once_are_those_fitted_one_by_one() -> None:
    rng = np.random.default_rng(5)
    level = np.clip(rng.normal(1.0, 0.05, (500, 700)), 0, 3).astype(np.float32)
    centres = np.array([[x, y] for y in range(50, 460, 60) for x in range(50, 660, 60)], float)
    for i, (x, y) in enumerate(centres.astype(int)):
        if i % 3 == 0:
            cv2.circle(level, (x, y), 15, float(rng.uniform(1.3, 3.0)), -1)
        elif i % 3 == 1:
            cv2.rectangle(level, (x - 12, y - 12), (x + 12, y + 12), 2.0, -1)
        else:
            cv2.ellipse(level, (x, y), (15, 11), 30, 0, 360, 1.8, -1)
    starts = centres + rng.normal(0.0, 1.5, centres.shape)
    away = rng.normal(size=centres.shape)
    away /= np.hypot(*away.T)[:, None]
    off, rad, _, _ = outline_circle(level, starts, away, 15.0)
    off1, rad1 = _outline_one_by_one(level, starts, away, 15.0)
    assert np.isfinite(off).sum() > 0.8 * len(off)
    np.testing.assert_array_equal(np.isnan(off), np.isnan(off1))
    np.testing.assert_allclose(off, off1, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rad, rad1, rtol=0, atol=1e-12)


def _shaken_face(r: float, half_side: float | None = None) -> np.ndarray:
    """A coin's face (or a die's square top, ``half_side``) with a dark symbol in its middle,
    blurred along x as the renderer shakes a camera (12 px, across the far side's ends)."""
    from tabletop.render.degrade import line_kernel

    yy, xx = np.mgrid[0:160, 0:160].astype(np.float32)
    rr = np.hypot(xx - 80, yy - 80)
    if half_side is None:
        img = np.where(rr <= r, 2.6, 1.0)
        img[(rr > 0.3 * r) & (rr < 0.8 * r)] = 1.4  # the symbol darkens the face's median
    else:
        img = np.where((np.abs(xx - 80) <= half_side) & (np.abs(yy - 80) <= half_side), 2.6,
                       1.0)
    return cv2.filter2D(_blurred(img), -1, line_kernel(12.0, 0.0))


def test_a_coin_smeared_by_a_shaken_camera_reads_larger_and_is_still_a_coin() -> None:
    """A shake smears the rim along itself: the halfway edge lies out beyond it there, a
    larger circle (a coin's own, not a die's square nor a pencil's smaller end)."""
    r = 20.0
    c, away = np.array([[80.0, 80.0]]), np.array([[0.0, 1.0]])
    off, rad, _, _ = outline_circle(_shaken_face(r), c, away, r)
    assert off[0] < 0.02 and rad[0] > 1.2  # round, but larger than the coin
    assert not_round(_shaken_face(r), c, away, r).tolist() == [False]
    assert not_round(_shaken_face(r, 0.8 * r), c, away, r).tolist() == [True]  # a die
    small = _blurred(np.where(np.hypot(*(np.mgrid[0:160, 0:160] - 80.0)) <= 0.8 * r, 2.6, 1.0))
    assert not_round(small, c, away, r).tolist() == [True]  # a pencil's end


def test_a_nearly_straight_edge_across_the_far_side_is_no_coin() -> None:
    """A large pale thing's edge (a saucer's, a card's side) across a coin's far half fits a
    circle far larger than any smeared coin's: no coin."""
    yy, xx = np.mgrid[0:400, 0:400].astype(np.float32)
    r = 20.0
    c, away = np.array([[200.0, 200.0]]), np.array([[0.0, 1.0]])
    for big in (3.0, 6.0):  # its edge a coin's radius beyond the candidate
        img = _blurred(np.where(np.hypot(xx - 200, yy - (200 + r - big * r)) <= big * r,
                                2.6, 1.0))
        off, rad, busy, _ = outline_circle(img, c, away, r)
        assert off[0] < 0.02 and busy[0] < 0.3 and rad[0] > 2.5  # round, plain, large
        assert not_round(img, c, away, r).tolist() == [True]

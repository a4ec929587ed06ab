"""A placed tile's angle measured again (vision/square_polish.py): within a fraction of a
degree from a start a few degrees off, whatever touches or shades one of its sides; refused
(None) where no square of its size lies there."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.square_polish import polish_square, polish_tile

SIDE = 51.0
SS = 8  # drawn 8 times finer, then averaged down: sub-pixel poses


def _canvas(table: tuple[int, int, int], size: int = 200) -> np.ndarray:
    big = np.zeros((size * SS, size * SS, 3), np.uint8)
    big[:] = table
    return big


def _box(centre: np.ndarray, angle_deg: float, w: float, h: float | None = None
         ) -> np.ndarray:
    """Fixed-point corners (shift 4) of a rectangle at view pixels ``centre``."""
    c = (centre[0] * SS + SS / 2 - 0.5, centre[1] * SS + SS / 2 - 0.5)
    pts = cv2.boxPoints((c, (w * SS, (h or w) * SS), angle_deg))
    return np.round(pts * 16).astype(np.int32)


def _finish(big: np.ndarray, rng: np.random.Generator, blur: float, noise: float
            ) -> np.ndarray:
    h, w = big.shape[:2]
    img = cv2.resize(big, (w // SS, h // SS), interpolation=cv2.INTER_AREA).astype(np.float32)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += rng.normal(0.0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _tile(big: np.ndarray, centre: np.ndarray, angle_deg: float,
          face: tuple[int, int, int] = (205, 215, 225)) -> None:
    cv2.fillConvexPoly(big, _box(centre, angle_deg, SIDE), face, cv2.LINE_AA, 4)


def _angle_error(a: float, b: float) -> float:
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


@pytest.mark.parametrize(("table", "blur", "noise"), [
    ((60, 90, 60), 0.8, 2.0),     # green felt
    ((70, 110, 150), 1.2, 4.0),   # oak, soft focus, noisy
    ((235, 235, 235), 0.8, 2.0),  # a white table: the cream face differs in blue
])
def test_tile_angle_polish_brings_a_rough_angle_within_a_fraction_of_a_degree(
        table: tuple[int, int, int], blur: float, noise: float) -> None:
    rng = np.random.default_rng(7)
    for _ in range(6):
        angle = float(rng.uniform(0, 90))
        centre = np.array([100.0, 100.0]) + rng.uniform(-2, 2, 2)
        big = _canvas(table)
        _tile(big, centre, angle, face=(170, 225, 240))
        img = _finish(big, rng, blur, noise)
        start = angle + float(rng.choice([-1, 1])) * rng.uniform(1.0, 2.5)
        got = polish_square(img, centre + rng.uniform(-1.5, 1.5, 2), start, SIDE, np.zeros(2))
        assert got is not None
        assert _angle_error(got[1], angle) <= 0.3
        assert float(np.hypot(*(got[0] - centre))) <= 0.3


def test_tile_angle_polish_ignores_coins_against_a_side() -> None:
    rng = np.random.default_rng(3)
    for angle in (12.0, 37.0, 71.0):
        centre = np.array([100.0, 100.0])
        big = _canvas((60, 90, 60))
        _tile(big, centre, angle)
        a = math.radians(angle)
        n = np.array([math.cos(a), math.sin(a)])
        t = np.array([-n[1], n[0]])
        for along in (-0.22, 0.3):  # a worm's coins, their rims touching the side
            coin = centre + (SIDE / 2 + 12.7) * n + along * SIDE * t
            cv2.circle(big, (round(coin[0] * SS + SS / 2), round(coin[1] * SS + SS / 2)),
                       round(12.7 * SS), (120, 130, 135), -1, cv2.LINE_AA)
        img = _finish(big, rng, 0.8, 2.0)
        got = polish_square(img, centre + 0.8, angle + 1.8, SIDE, np.zeros(2))
        assert got is not None
        assert _angle_error(got[1], angle) <= 0.3


def test_tile_angle_polish_is_not_turned_by_a_shadow_along_a_side() -> None:
    """A lamp's shadow beyond one side, its edge turned 4 degrees from it: the side's own
    edge (face to shadow) gives the direction, the shadow's far edge does not."""
    rng = np.random.default_rng(5)
    angle, centre = 23.0, np.array([100.0, 100.0])
    big = _canvas((80, 120, 160))
    a = math.radians(angle)
    n = np.array([math.cos(a), math.sin(a)])
    shadow_c = centre + (SIDE / 2) * n  # its far edge 1-5 px beyond the side
    cv2.fillConvexPoly(big, _box(shadow_c, angle + 4.0, 6.0, SIDE), (40, 60, 80),
                       cv2.LINE_AA, 4)
    _tile(big, centre, angle)
    img = _finish(big, rng, 1.0, 2.0)
    got = polish_square(img, centre, angle - 1.5, SIDE, np.zeros(2))
    assert got is not None
    assert _angle_error(got[1], angle) <= 0.3


def test_tile_angle_polish_takes_the_centre_from_the_sides_that_show_the_face() -> None:
    """A side facing the camera shows the tile's wall beyond the face (a darker strip): its
    direction counts, its place does not."""
    rng = np.random.default_rng(11)
    angle, centre = 8.0, np.array([100.0, 100.0])
    big = _canvas((60, 90, 60))
    a = math.radians(angle)
    n = np.array([math.cos(a), math.sin(a)])
    wall_c = centre - (SIDE / 2 + 1.0) * n  # side 2 faces the camera: 2 px of wall
    cv2.fillConvexPoly(big, _box(wall_c, angle, 2.0, SIDE), (150, 160, 170), cv2.LINE_AA, 4)
    _tile(big, centre, angle)
    img = _finish(big, rng, 0.8, 2.0)
    got = polish_square(img, centre + 1.0, angle + 1.2, SIDE, n)  # away from the camera: +n
    assert got is not None
    assert _angle_error(got[1], angle) <= 0.3
    assert float(np.hypot(*(got[0] - centre))) <= 0.3


def test_tile_angle_polish_refuses_where_no_square_lies() -> None:
    rng = np.random.default_rng(2)
    img = _finish(_canvas((70, 110, 150)), rng, 0.8, 4.0)
    assert polish_square(img, np.array([100.0, 100.0]), 30.0, SIDE, np.zeros(2)) is None
    # a square twice a tile's size: its edges lie nowhere near a tile's sides
    big = _canvas((70, 110, 150))
    cv2.fillConvexPoly(big, _box(np.array([100.0, 100.0]), 30.0, 2 * SIDE), (200, 210, 220),
                       cv2.LINE_AA, 4)
    img = _finish(big, rng, 0.8, 2.0)
    assert polish_square(img, np.array([100.0, 100.0]), 30.0, SIDE, np.zeros(2)) is None


def test_tile_angle_polish_tile_keeps_the_placed_pose_when_refused() -> None:
    rng = np.random.default_rng(2)
    img = _finish(_canvas((70, 110, 150)), rng, 0.8, 4.0)
    assert polish_tile(img, (100.0, 101.0), 30.0, SIDE, np.zeros(2)) == ((100.0, 101.0), 30.0)


def test_tile_angle_polish_holds_on_a_gingham_check() -> None:
    """A cream tile on a blue-and-white check laid at its own angle: the level beside each
    side changes along it, and the edge still gives the side's direction."""
    rng = np.random.default_rng(13)
    for angle in (9.0, 31.0, 58.0):
        size = 200
        yy, xx = np.mgrid[0:size * SS, 0:size * SS] / SS
        a = np.radians(12.0)
        u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
        cells = ((np.floor(u / 11.0) % 2) + (np.floor(v / 11.0) % 2)).astype(int)
        big = np.array([(235, 235, 235), (200, 150, 110), (160, 80, 40)], np.uint8)[cells]
        centre = np.array([100.3, 99.6])
        _tile(big, centre, angle, face=(180, 220, 235))
        img = _finish(big, rng, 0.8, 2.0)
        got = polish_square(img, centre + np.array([0.7, -0.5]), angle - 1.4, SIDE, np.zeros(2))
        assert got is not None
        assert _angle_error(got[1], angle) <= 0.3
        assert float(np.hypot(*(got[0] - centre))) <= 0.4

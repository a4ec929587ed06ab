"""A tile's angle to a fraction of a degree where the table's level changes along its edges
(a check, a gingham): the lone tiles the stages' edge fit cannot place, or places from a
halfway crossing that the check beside an edge moves, are placed by their sides' steepest
edges (:func:`vision.tiles.steepest_square`, :func:`vision.tile_candidates.steepest`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tile_candidates import steepest
from vision.tiles import _Block, each_tile, steepest_square

S = 4  # drawn at 4x, then shrunk: edges with sub-pixel detail
SIDE = 50.8  # px (1 px a mm)
CENTRE = np.array([100.3, 99.6])


def _checked_table(turn_deg: float, cell: float = 21.0, h: int = 200, w: int = 200
                   ) -> np.ndarray:
    """The grey shade (table = about 1) of a check of two levels with a pale tile at
    ``CENTRE`` turned by ``turn_deg``, noise added."""
    yy, xx = np.mgrid[0:h * S, 0:w * S] / S
    a = np.radians(12.0)  # the cloth lies at its own angle
    u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
    big = np.where((np.floor(u / cell) + np.floor(v / cell)) % 2 == 0, 0.75, 1.0)
    box = cv2.boxPoints(((CENTRE[0] * S + S / 2 - 0.5, CENTRE[1] * S + S / 2 - 0.5),
                         (SIDE * S, SIDE * S), turn_deg))
    mask = np.zeros(big.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    big[mask > 0] = 1.35
    small = cv2.resize(big.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)
    return (small + np.random.default_rng(3).normal(0, 0.01, small.shape)).astype(np.float32)


def test_lone_tile_the_edge_fit_cannot_place_on_a_check_takes_its_sides_angle() -> None:
    shade = _checked_table(31.0)
    blob = _Block((CENTRE[0] + 1.5, CENTRE[1] - 1.0), 33.5, 1, 1, SIDE)  # its blob: bent
    fine = steepest_square(shade, blob, SIDE, np.zeros(2))
    assert fine is not None
    assert abs(fine.angle_px - 31.0) < 0.3
    assert np.hypot(*(np.array(fine.centre_px) - CENTRE)) < 0.5


def test_tile_turned_by_a_check_beside_its_edges_is_turned_back() -> None:
    shade = _checked_table(58.0)
    rough = _Block((CENTRE[0] + 0.8, CENTRE[1] + 0.5), 59.2, 1, 1, SIDE)  # a degree off
    fine = steepest(shade, rough, SIDE, np.zeros(2))
    assert abs(fine.angle_px % 90 - 58.0) < 0.3


def test_no_square_of_steepest_edges_leaves_the_fit_as_it_was() -> None:
    shade = np.ones((200, 200), np.float32)  # a plain table: no edge anywhere
    rough = _Block((100.0, 100.0), 20.0, 1, 1, SIDE)
    assert steepest(shade, rough, SIDE, np.zeros(2)) == rough
    assert steepest_square(shade, rough, SIDE, np.zeros(2)) is None


def _pale_square(big: np.ndarray, c: np.ndarray, ang: float) -> None:
    box = cv2.boxPoints(((c[0] * S + S / 2 - 0.5, c[1] * S + S / 2 - 0.5), (SIDE * S, SIDE * S),
                         ang))
    mask = np.zeros(big.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    big[mask > 0] = 1.4


def _pair_edge_to_edge(angle: float, shift_px: float, second_angle: float, seed: int
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Two pale tiles edge to edge, the first at ``angle`` degrees, the second shifted
    ``shift_px`` along their shared side and at ``second_angle``: ``(shade, bright, c1, c2)``."""
    a = np.radians(angle)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c1 = np.array([95.0, 100.0])
    c2 = c1 + (SIDE + 0.5) * ex + shift_px * ey
    big = np.full((200 * S, 240 * S), 1.0, np.float32)
    _pale_square(big, c1, angle)
    _pale_square(big, c2, second_angle)
    shade = cv2.resize(big, (240, 200), interpolation=cv2.INTER_AREA)
    shade = (shade + np.random.default_rng(seed).normal(0, 0.01, shade.shape)).astype(np.float32)
    return shade, np.where(shade > 1.2, 255, 0).astype(np.uint8), c1, c2


def test_tiles_laid_edge_to_edge_by_hand_each_take_their_own_angle() -> None:
    # two tiles edge to edge, the second shifted 8 px along their shared side and turned
    # 2.5 degrees: one block's rectangle fits neither
    shade, bright, c1, c2 = _pair_edge_to_edge(20.0, 8.0, 22.5, seed=0)
    mid = (c1 + c2) / 2
    block = _Block((float(mid[0]), float(mid[1])), 21.2, 2, 1, SIDE)  # its blob's rectangle
    got = each_tile(shade, bright, block, SIDE, np.zeros(2), 0.5)
    for (c, ang), (tc, ta) in zip(got, ((c1, 20.0), (c2, 22.5)), strict=True):
        assert abs(ang - ta) < 0.3
        assert np.hypot(*(np.array(c) - tc)) < 0.5


def test_tiles_of_a_block_whose_edges_were_not_measured_each_follow_their_own_turn() -> None:
    # two tiles edge to edge at 26.6 degrees, the second shifted 6 px along their shared
    # side: the blob's rectangle lies at 20 degrees, more than a measured block's 5 degrees
    # from both (a pair read 6.6 degrees off)
    shade, bright, c1, c2 = _pair_edge_to_edge(26.6, 6.0, 26.6, seed=1)
    mid = (c1 + c2) / 2
    block = _Block((float(mid[0]), float(mid[1])), 20.0, 2, 1, SIDE)
    kept = each_tile(shade, bright, block, SIDE, np.zeros(2), 0.5)
    assert all(abs(ang - 20.0) < 1e-9 for _, ang in kept)  # a measured block's tiles: 5 deg
    got = each_tile(shade, bright, block, SIDE, np.zeros(2), 0.5, measured=False)
    for (c, ang), tc in zip(got, (c1, c2), strict=True):
        assert abs(ang - 26.6) < 0.3
        assert np.hypot(*(np.array(c) - tc)) < 0.5

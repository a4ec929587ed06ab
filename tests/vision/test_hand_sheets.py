"""The sheet test (:mod:`vision.hand_sheets`): a blob whose face is even (a plane of brightness,
a lamp's fall-off across it, print on it) is a sheet; an arm shaded to its sides is not. Drawn
on a synthetic grid of cells, so the measure is checked alone; the rendered frames are in
``test_hand_sheet_renders.py``."""

from __future__ import annotations

import cv2
import numpy as np

from vision.hand_maps import HandMaps
from vision.hand_sheets import SheetTestConfig, face_residual, is_sheet, plane_residual

SW, SH = 160, 90


def _maps(paint) -> tuple[HandMaps, np.ndarray]:
    """A grey table with something painted on it: its maps and the painted blob."""
    rng = np.random.default_rng(5)
    small = np.clip(rng.normal(110.0, 3.0, (SH, SW, 3)), 0, 255).astype(np.float32)
    mask = np.zeros((SH, SW), np.uint8)
    small = paint(small, mask)
    maps = HandMaps(np.clip(small, 0, 255).astype(np.uint8), np.full((SH, SW), 2.0, np.float32),
                    np.ones((SH, SW), bool), np.full((SH, SW), 25.0, np.float32))
    return maps, mask > 0


def _page(lit: float = 0.0, print_share: float = 0.0):
    """A page turned 20 degrees, white, brightening across it by ``lit`` (a lamp's fall-off),
    with a share ``print_share`` of its cells darkened by print."""

    def paint(small: np.ndarray, mask: np.ndarray) -> np.ndarray:
        box = cv2.boxPoints(((70.0, 45.0), (42.0, 59.0), 20.0)).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 1)
        xx = np.arange(SW, dtype=np.float32)[None, :] / SW
        level = 200.0 * (1.0 + lit * xx)
        rng = np.random.default_rng(7)
        ink = rng.uniform(size=(SH, SW)) < print_share
        level = np.where(ink, level * 0.6, level)
        on = mask > 0
        for c in range(3):
            small[..., c][on] = np.broadcast_to(level, (SH, SW))[on]
        return small

    return paint


def _arm(small: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A forearm from the bottom border, a palm and four fingers, lit from above: each cell's
    level falls off to the limb's sides."""
    cv2.line(mask, (40, 95), (70, 45), 1, 16)
    cv2.circle(mask, (74, 38), 10, 1, -1)
    for dx in (-8, -3, 2, 7):
        cv2.line(mask, (74 + dx, 36), (78 + 2 * dx, 22), 1, 3)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    shade = np.clip(dist / 6.0, 0.35, 1.0)
    on = mask > 0
    for c, skin in enumerate((100.0, 140.0, 200.0)):
        small[..., c][on] = (skin * shade)[on]
    return small


def test_an_even_page_is_a_sheet_and_a_shaded_arm_is_not() -> None:
    cfg = SheetTestConfig()
    assert is_sheet(cfg, *_maps(_page()))
    assert not is_sheet(cfg, *_maps(_arm))


def test_a_lamps_fall_off_across_a_page_leaves_it_a_sheet() -> None:
    """A page twice as bright at one side as at the other: its spread is large, but a plane
    follows it."""
    maps, blob = _maps(_page(lit=1.0))
    assert face_residual(maps, blob) < 0.005
    assert is_sheet(SheetTestConfig(), maps, blob)


def test_print_on_a_page_leaves_it_a_sheet() -> None:
    maps, blob = _maps(_page(print_share=0.15))
    assert is_sheet(SheetTestConfig(), maps, blob)


def test_a_clipped_white_page_under_glare_is_a_sheet() -> None:
    def glared(small: np.ndarray, mask: np.ndarray) -> np.ndarray:
        small = _page()(small, mask)
        small[mask > 0] = 255.0
        return small

    maps, blob = _maps(glared)
    assert face_residual(maps, blob) < 1e-9
    assert is_sheet(SheetTestConfig(), maps, blob)


def test_a_blob_too_small_to_show_a_face_is_not_tested() -> None:
    def speck(small: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask[40:44, 60:64] = 1
        small[mask > 0] = 230.0
        return small

    maps, blob = _maps(speck)
    assert face_residual(maps, blob) is None
    assert not is_sheet(SheetTestConfig(), maps, blob)


def test_the_plane_is_fitted_past_outlying_cells() -> None:
    """A tilted plane with a tenth of its cells far off it (print, a piece's rim): what is left
    is the plane's own noise, not the outliers'."""
    rng = np.random.default_rng(3)
    cells = np.zeros((30, 40), bool)
    cells[5:25, 5:35] = True
    ys, xs = np.nonzero(cells)
    values = 0.02 * xs - 0.01 * ys + rng.normal(0.0, 0.002, len(xs))
    values[rng.uniform(size=len(xs)) < 0.1] -= 0.5
    assert plane_residual(cells, values) < 0.004


def test_an_arm_clipped_in_two_channels_is_not_a_sheet() -> None:
    """A pale arm under a hard lamp: red and green at the top of the range (even), blue still
    shaded to the limb's sides."""
    def clipped_arm(small: np.ndarray, mask: np.ndarray) -> np.ndarray:
        small = _arm(small, mask)
        on = mask > 0
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        small[..., 0][on] = (190.0 * np.clip(dist / 6.0, 0.6, 1.0))[on]
        small[..., 1][on] = 255.0
        small[..., 2][on] = 255.0
        return small

    assert not is_sheet(SheetTestConfig(), *_maps(clipped_arm))

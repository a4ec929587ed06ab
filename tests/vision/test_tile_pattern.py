"""A square that repeats the table's own pattern is no tile (:mod:`vision.tile_pattern`), on
drawn gingham cloths (white, half and full ink, turned, blurred, noisy) at 2 px a mm."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.tile_pattern import TilePatternConfig, repeats_cloth, square_corners

PPM = 2.0
SIDE = 50.8 * PPM
SIZE = 600
CENTRE = np.array([300.0, 300.0])


def _gingham(check_mm: float, turn_deg: float, seed: int = 0) -> np.ndarray:
    """A large check (bands of ink both ways on white), turned, blurred and noisy; shade
    relative to its mean."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / PPM
    band = lambda t: (np.mod(t, 2 * check_mm) < check_mm).astype(np.float32)  # noqa: E731
    ink = 0.5 * (band(yy + 3.0) + band(xx + 7.0))
    cloth = 1.3 - 0.9 * ink
    rot = cv2.getRotationMatrix2D((SIZE / 2, SIZE / 2), turn_deg, 1.0)
    cloth = cv2.warpAffine(cloth, rot, (SIZE, SIZE), borderMode=cv2.BORDER_REFLECT)
    cloth = cv2.GaussianBlur(cloth, (0, 0), 1.0)
    cloth += np.random.default_rng(seed).normal(0, 0.02, cloth.shape).astype(np.float32)
    return cloth / float(cloth.mean())


def _lay(shade: np.ndarray, centre: np.ndarray, turn_deg: float) -> np.ndarray:
    """A face-down tile (pale paper, its back's cross) laid on ``shade``."""
    out = shade.copy()
    poly = square_corners(centre, turn_deg, SIDE)
    cv2.fillConvexPoly(out, np.rint(poly * 16).astype(np.int32), 1.5, cv2.LINE_AA, 4)
    a = np.radians(turn_deg)
    for e in (np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])):
        p, q = centre - e * SIDE * 0.45, centre + e * SIDE * 0.45
        cv2.line(out, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), 1.2, 2)
    return out


@pytest.mark.parametrize("check_mm, turn_deg", [(25.4, 0.0), (22.0, 17.0), (28.0, 33.0)])
def test_two_by_two_checks_of_a_large_check_are_no_tile(check_mm: float, turn_deg: float
                                                         ) -> None:
    cloth = _gingham(check_mm, turn_deg)
    # the square of 2 x 2 checks centred on a crossing of the checks' edges
    assert repeats_cloth(TilePatternConfig(), cloth, PPM, CENTRE, -turn_deg, SIDE)


@pytest.mark.parametrize("check_mm, turn_deg", [(25.4, 0.0), (22.0, 17.0), (12.0, 5.0)])
def test_a_tile_lying_on_a_checked_cloth_is_a_tile(check_mm: float, turn_deg: float) -> None:
    shade = _lay(_gingham(check_mm, turn_deg), CENTRE, 8.0)
    assert not repeats_cloth(TilePatternConfig(), shade, PPM, CENTRE, 8.0, SIDE)


def test_the_middle_tile_of_a_block_is_a_tile_where_its_neighbours_were_found() -> None:
    shade = np.ones((SIZE, SIZE), np.float32)
    step = SIDE + 2.0
    around = [CENTRE + step * np.array([i, j]) for i in range(-2, 3) for j in range(-2, 3)
              if (i, j) != (0, 0)]  # a block of 5 x 5
    for c in [CENTRE, *around]:
        shade = _lay(shade, c, 0.0)
    cfg = TilePatternConfig()
    assert not repeats_cloth(cfg, shade, PPM, CENTRE, 0.0, SIDE, found_px=np.array(around))
    # the rule's exclusion is what keeps it: unfound, the tiles alike all round repeat
    assert repeats_cloth(cfg, shade, PPM, CENTRE, 0.0, SIDE)


def test_a_tile_on_a_grain_along_one_axis_is_a_tile() -> None:
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    grain = (1.0 + 0.15 * np.sin(xx / 3.0 + 2.0 * np.sin(yy / 40.0))).astype(np.float32)
    shade = _lay(grain, CENTRE, 3.0)
    assert not repeats_cloth(TilePatternConfig(), shade, PPM, CENTRE, 3.0, SIDE)


def _blind(period_mm: float, turn_deg: float, seed: int = 0) -> np.ndarray:
    """A white table under a blind: soft bands of shade and light, turned, noisy; shade
    relative to its mean."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / PPM
    a = np.radians(turn_deg)
    across = xx * np.cos(a) + yy * np.sin(a)
    light = 1.0 + 0.35 * np.tanh(3.0 * np.sin(2 * np.pi * across / period_mm))
    light += np.random.default_rng(seed).normal(0, 0.01, light.shape)
    return (light / light.mean()).astype(np.float32)


@pytest.mark.parametrize("period_mm, turn_deg", [(75.0, 0.0), (60.0, 80.0), (90.0, 25.0)])
def test_a_faint_tile_under_a_blinds_stripes_is_a_tile(period_mm: float, turn_deg: float
                                                       ) -> None:
    """A pale tile on a glossy white table barely stands out of it: its place's look is the
    blind's bands, found again all along each band and at every band: a ridge, no lattice."""
    shade = _blind(period_mm, turn_deg)
    tile = square_corners(CENTRE, 12.0, SIDE)
    mask = np.zeros_like(shade)
    cv2.fillConvexPoly(mask, np.rint(tile * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    shade = shade * (1.0 + 0.04 * mask)  # paper a few levels above the table's
    assert not repeats_cloth(TilePatternConfig(), shade, PPM, CENTRE, 12.0, SIDE)


@pytest.mark.parametrize("check_mm, turn_deg, period_mm, blind_deg",
                         [(25.4, 0.0, 60.0, 90.0), (30.0, 10.0, 75.0, 0.0),
                          (25.4, 0.0, 25.0, 22.0)])
def test_two_by_two_checks_under_a_blinds_stripes_are_no_tile(
        check_mm: float, turn_deg: float, period_mm: float, blind_deg: float) -> None:
    """A blind's bands over a large check run on along themselves, so the checks' copies
    are found as well a few mm along the bands; but a lattice's peak still falls off within
    half a check, and a stripe's ridge runs on (trust seed 186067: 2 x 2 checks under a
    blind read as tiles beside the course's obstacles)."""
    cloth = _gingham(check_mm, turn_deg) * _blind(period_mm, blind_deg)
    cloth = cloth / float(cloth.mean())
    assert repeats_cloth(TilePatternConfig(), cloth, PPM, CENTRE, -turn_deg, SIDE)


@pytest.mark.parametrize("period_mm, turn_deg", [(25.0, 22.0), (30.0, 67.0), (22.0, 113.0)])
def test_a_faint_tile_under_a_narrow_blinds_stripes_between_the_lines_is_a_tile(
        period_mm: float, turn_deg: float) -> None:
    """A narrow blind's bands lying between the four fixed lines of the ridge test: 15 mm
    along the nearest of them crosses half a band, so the ridge is followed along the
    level's own grain (render 568132: three face-down tiles on glossy white dropped as
    cloth, the bands at 25 degrees)."""
    shade = _blind(period_mm, turn_deg)
    tile = square_corners(CENTRE, 5.0, SIDE)
    mask = np.zeros_like(shade)
    cv2.fillConvexPoly(mask, np.rint(tile * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    shade = shade * (1.0 + 0.04 * mask)
    assert not repeats_cloth(TilePatternConfig(), shade, PPM, CENTRE, 5.0, SIDE)

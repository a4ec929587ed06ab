"""The table's colour follows a blind's straight bands (vision/bands.py), and only where there are
bands."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from tabletop.render.lights import Blind
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.bands import Bands, fit_bands
from vision.normalise import NormaliseConfig, TableColour
from vision.prepare import prepare

FACTOR = 2


def _cells(blind: Blind | None, seed: int = 1, shape: tuple[int, int] = (300, 420),
           pieces: int = 30) -> np.ndarray:
    """A grey table's cells (view at 1 px a mm) under ``blind``, with grain and bright discs."""
    rng = np.random.default_rng(seed)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = np.ones((h, w), np.float32) if blind is None else blind.factor(
        (xx + 0.5) * FACTOR - 0.5, (yy + 0.5) * FACTOR - 0.5)
    img = 150.0 * light[..., None] * (1 + rng.normal(0, 0.03, (h, w, 1)))
    for _ in range(pieces):
        y, x = rng.integers(0, h), rng.integers(0, w)
        img[max(0, y - 8):y + 8, max(0, x - 8):x + 8] = 250
    return np.clip(np.repeat(img, 3, axis=2), 0, 255).astype(np.uint8)


def _fit(cells: np.ndarray) -> Bands | None:
    table = np.full(cells.shape, 150, np.uint8)
    valid = np.ones(cells.shape[:2], bool)
    return fit_bands(cells, table, valid, FACTOR, 1.0, 1.0, 1.0)


BLIND = Blind(period_mm=70, duty=0.45, angle_deg=28, strength=0.5, softness_mm=5, phase_mm=20)
"""The rendered tests' blind."""


def _rendered(seed: int, post_mm: tuple[float, float] = (60.0, 90.0), **settings):
    """The rendered tests' table: four coins, a face-down tile and a post on grey felt, seen
    from 850 mm at 960x540, rendered with ``settings`` (``tabletop.render.RenderSettings``)."""
    render = pytest.importorskip("tabletop.render")
    pieces = [Piece("coin", 19.06 * i - 60, -40.0, suit=s)
              for i, s in enumerate(("suns", "moons", "crowns", "arms"))]
    pieces += [Piece.tile(-150.0, 80.0, 20.0, "down"), Piece("post", *post_mm)]
    pose = render.CameraPose.looking_at((0, 0), height_mm=850, tilt_deg=15,
                                        image_size=(960, 540), hfov_deg=60)
    return render.render_scene(Scene(tuple(pieces)), pose, render.RenderSettings(
        seed=seed, table="felt-grey", supersample=1, **settings))


@pytest.mark.parametrize("angle_deg", [3.0, 37.0, 88.0, 121.5, 166.0])
def test_a_blinds_bands_are_found_across_their_direction_and_divide_out(angle_deg) -> None:
    blind = Blind(period_mm=50, duty=0.4, angle_deg=angle_deg, strength=0.5, softness_mm=4,
                  phase_mm=7)
    cells = _cells(blind)
    bands = _fit(cells)
    assert bands is not None
    got = math.degrees(math.atan2(bands.normal_xy[1], bands.normal_xy[0]))
    # the blind's bands run along angle_deg: across them is 90 degrees on
    assert abs((got - angle_deg - 90.0 + 90.0) % 180.0 - 90.0) < 0.25
    gain = bands.at_cells(FACTOR, cells.shape[:2])
    truth = _cells(blind, pieces=0)[..., 0] / _cells(None, pieces=0)[..., 0]
    ratio = gain / truth
    off = np.abs(ratio / np.median(ratio) - 1.0)  # the bands take 0.5 of the light
    assert np.median(off) < 0.02 and np.percentile(off, 95) < 0.1


def test_no_bands_on_a_plain_table_nor_on_gingham_or_checks() -> None:
    assert _fit(_cells(None)) is None
    h, w = 300, 420
    yy, xx = np.mgrid[0:h, 0:w]
    rows, cols = (yy // 12) % 2, (xx // 12) % 2
    for pattern in (1.0 - 0.25 * rows - 0.25 * cols, 1.0 - 0.4 * (rows ^ cols)):
        cells = (_cells(None, pieces=10).astype(np.float32) * pattern[..., None]).astype(np.uint8)
        assert _fit(cells) is None


def test_a_table_colour_with_bands_is_the_same_in_parts_rows_and_cells() -> None:
    rng = np.random.default_rng(4)
    bands = Bands((math.cos(0.4), math.sin(0.4)), -20.0, 2.0,
                  (0.8 + 0.3 * np.sin(np.arange(120) / 4.0)).astype(np.float32))
    table = TableColour(rng.integers(0, 255, (11, 17, 3)).astype(np.uint8), 8, (141, 93), bands)
    full = table.full()
    for x0, y0, x1, y1 in ((0, 0, 141, 93), (5, 7, 50, 60), (100, 80, 141, 93), (3, 3, 4, 4)):
        assert np.array_equal(table.at_rect(x0, y0, x1, y1), full[y0:y1, x0:x1])
    rows = np.array([0, 1, 40, 41, 92])
    assert np.abs(table.at_rows(rows).astype(int) - full[rows]).max() <= 2
    cells = table.at_cells(2).astype(float)
    centre = full[20:22, 40:42].reshape(-1, 3).astype(float).mean(axis=0)
    assert np.abs(cells[10, 20] - centre).max() <= 4


@pytest.fixture(scope="module")
def blind_and_not():
    return [_rendered(12), _rendered(12, blind=BLIND)]


def test_under_a_blind_the_tables_noise_is_near_its_own(blind_and_not) -> None:
    plain, striped = blind_and_not
    det = Detector(plain.calibration())
    cfg = det.config.prepare
    smooth = replace(cfg, normalise=replace(cfg.normalise, band_mm=0.0))
    own = prepare(cfg, det.view, plain.image, det._valid).noise
    banded = prepare(cfg, det.view, striped.image, det._valid)
    flat = prepare(smooth, det.view, striped.image, det._valid).noise
    assert flat > 3.0 * own  # the bands left in the level are the table's noise
    assert banded.noise < 1.6 * own
    # the post under the blind is in the dark mask
    x, y = det.view.to_px(np.array([[60.0, 90.0]]))[0]
    r = round(6 * det.view.px_per_mm)
    assert banded.dark[int(y) - r:int(y) + r, int(x) - r:int(x) + r].any()


def test_no_bands_are_made_where_there_are_none(blind_and_not) -> None:
    plain, _ = blind_and_not
    det = Detector(plain.calibration())
    cfg = det.config.prepare
    smooth = replace(cfg, normalise=replace(cfg.normalise, band_mm=0.0))
    a = prepare(cfg, det.view, plain.image, det._valid, everywhere=True)
    b = prepare(smooth, det.view, plain.image, det._valid, everywhere=True)
    assert np.array_equal(a.level, b.level) and a.noise == b.noise
    assert NormaliseConfig().band_mm > 0



@pytest.fixture(scope="module")
def blind_later():
    """The blind's scene later: a post moved (other sensor noise), and the same with the
    blind's stripes moved by a third of their period."""
    return [_rendered(13, (0.0, 120.0), blind=b) for b in (BLIND, replace(BLIND, phase_mm=43))]


def test_a_cameras_bands_are_kept_while_its_light_is_the_same_and_fitted_again_when_it_moved(
        blind_and_not, blind_later) -> None:
    plain, striped = blind_and_not
    again, moved = blind_later
    det = Detector(plain.calibration())
    cfg = det.config.prepare
    first = prepare(cfg, det.view, striped.image, det._valid)
    assert first.table is not None and first.table.bands is not None
    # another frame of the same light (a piece moved): the same bands
    kept = prepare(cfg, det.view, again.image, det._valid, last=first.table)
    assert kept.table is not None and kept.table.bands is first.table.bands
    cold = prepare(cfg, det.view, again.image, det._valid)
    assert kept.noise < 1.1 * cold.noise
    # the blind's stripes moved, or the blind went up: fitted again
    refit = prepare(cfg, det.view, moved.image, det._valid, last=first.table)
    assert refit.table is not None and refit.table.bands is not None
    assert refit.table.bands is not first.table.bands
    own = prepare(cfg, det.view, plain.image, det._valid).noise
    assert refit.noise < 1.6 * own
    gone = prepare(cfg, det.view, plain.image, det._valid, last=first.table)
    assert gone.table is not None and gone.table.bands is None


def test_a_detector_keeps_its_cameras_bands_from_frame_to_frame(blind_and_not,
                                                               blind_later) -> None:
    _, striped = blind_and_not
    det = Detector(striped.calibration())
    det.detect(striped.image)
    table = det._table
    assert table is not None and table.bands is not None
    det.detect(blind_later[0].image)  # a piece moved, the same light
    assert det._table is not table and det._table.bands is table.bands


def test_a_frame_with_a_hand_leaves_the_cameras_bands_as_they_were(blind_and_not) -> None:
    _, striped = blind_and_not
    hand = _rendered(14, blind=BLIND, hand=True, hand_target_mm=(0.0, 40.0),
                     hand_from_deg=90.0, hand_height_mm=60.0)
    # (a frame read in full before its hand is judged: the watch first would skip it)
    det = Detector(striped.calibration(), config=DetectorConfig(watch_first=False))
    det.detect(striped.image)
    table = det._table
    seen = det.detect(hand.image)
    assert seen.hand and "prepare" in seen.timings_ms  # read in full, the hand seen
    assert det._table is table

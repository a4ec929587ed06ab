"""Posts of one frame are alike: a reading much lighter than the frame's sure posts (a
lamp's shadow, a check's dark square) is dropped; the posts, touching or not, stand; without a
sure post nothing is dropped."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.detections import Detections
from vision.post_alike import PostAlikeConfig, drop_unlike_posts, unlike_posts
from vision.posts import PostConfig
from vision.prepare import prepare
from vision.topview import halve

FEET_MM = np.array([[-220.0, -100.0], [-60.0, 110.0], [60.0, -80.0], [200.0, 90.0],
                    [210.0, 90.0]])  # the last two touching
LIGHT_DIR_DEG, ELEVATION_DEG = 30.0, 22.0
SHADOW_MM = 40.0 / math.tan(math.radians(ELEVATION_DEG))
AWAY = -np.array([math.cos(math.radians(LIGHT_DIR_DEG)), math.sin(math.radians(LIGHT_DIR_DEG))])


def _kept(readings_mm: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """Which readings (with the judge's confidence) stand, the posts at ``FEET_MM`` rendered
    under a low hard lamp."""
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(
        Scene(tuple(Piece("post", float(x), float(y)) for x, y in FEET_MM)),
        render.CameraPose.looking_at((0, 0), height_mm=800, tilt_deg=20.0,
                                     image_size=(800, 450), hfov_deg=60),
        render.RenderSettings(seed=11, table="wood", light_dir_deg=LIGHT_DIR_DEG,
                              light_elevation_deg=ELEVATION_DEG, shadow_strength=0.7,
                              supersample=2))
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    prep = prepare(det.config.prepare, det.view, r.image, det._valid, half_bgr=halve(r.image))
    dets = Detections.of(readings_mm, ["post"] * len(readings_mm), confidence=confidence)
    kept = drop_unlike_posts(PostConfig(), PostAlikeConfig(), prep, r.image, dets)
    return np.array([bool(np.any(np.hypot(*(kept.centre_mm - p).T) < 0.01))
                     for p in readings_mm])


def test_a_reading_much_lighter_than_the_sure_posts_is_dropped_and_the_posts_stand() -> None:
    shadows = FEET_MM[:3] + SHADOW_MM * AWAY  # the far end of each post's long shadow
    n = len(FEET_MM)
    conf = np.r_[np.full(n, 0.9), np.full(len(shadows), 0.7)]
    kept = _kept(np.r_[FEET_MM, shadows], conf)
    assert kept[:n].all()  # the posts, the two touching too
    assert not kept[n:].any()


def test_without_a_sure_post_every_reading_stands() -> None:
    shadows = FEET_MM[:3] + 0.8 * SHADOW_MM * AWAY
    readings = np.r_[FEET_MM[:2], shadows]
    assert _kept(readings, np.full(len(readings), 0.7)).all()


def test_posts_alike_in_level_all_stand() -> None:
    walls = np.array([21.0, 40.0, 36.0, 30.0])  # dev-scene08: three true posts, their walls
    assert not unlike_posts(walls, np.array([0.94, 0.52, 0.54, 0.6]), PostAlikeConfig()).any()

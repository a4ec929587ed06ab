"""A post's shadow read as another post is dropped; posts, touching or in a shadow, stand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.render.variety import draw_case
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.detections import Detections
from vision.post_shadows import PostShadowConfig, drop_post_shadows
from vision.posts import PostConfig
from vision.prepare import prepare
from vision.topview import halve

FEET_MM = np.array([[-220.0, -100.0], [-60.0, 110.0], [60.0, -80.0], [200.0, 90.0]])
LIGHT_DIR_DEG, ELEVATION_DEG = 30.0, 22.0
SHADOW_MM = 40.0 / math.tan(math.radians(ELEVATION_DEG))  # a 40 mm post's shadow: 99 mm
AWAY = -np.array([math.cos(math.radians(LIGHT_DIR_DEG)), math.sin(math.radians(LIGHT_DIR_DEG))])


def _kept(feet_mm: np.ndarray, readings_mm: np.ndarray) -> np.ndarray:
    """Which of the posts standing at ``feet_mm`` and then the readings at ``readings_mm``
    stand, the table rendered under a low hard lamp."""
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(
        Scene(tuple(Piece("post", float(x), float(y)) for x, y in feet_mm)),
        render.CameraPose.looking_at((0, 0), height_mm=800, tilt_deg=20.0,
                                     image_size=(800, 450), hfov_deg=60),
        render.RenderSettings(seed=11, table="wood", light_dir_deg=LIGHT_DIR_DEG,
                              light_elevation_deg=ELEVATION_DEG, shadow_strength=0.7,
                              supersample=2))
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    prep = prepare(det.config.prepare, det.view, r.image, det._valid, half_bgr=halve(r.image))
    every = np.r_[feet_mm, readings_mm]
    dets = Detections.of(every, ["post"] * len(every))
    kept = drop_post_shadows(PostConfig(), PostShadowConfig(), prep, r.image, dets)
    return np.array([bool(np.any(np.hypot(*(kept.centre_mm - p).T) < 0.01)) for p in every])


def test_readings_in_a_posts_long_shadow_are_dropped_and_the_posts_stand() -> None:
    shadows = FEET_MM + 0.55 * SHADOW_MM * AWAY  # half way along each shadow
    table = FEET_MM + 45.0 * np.array([-AWAY[1], AWAY[0]])  # beside each post, on the table
    kept = _kept(FEET_MM, np.r_[shadows, table])
    n = len(FEET_MM)
    assert kept[:n].all()  # the posts
    # their shadows, but where the post's own wall faces the lamp (lit, 7.5 levels lighter
    # than the table's shade beside it): a shadow only as light as a post stands
    assert kept[n:2 * n].sum() <= 1
    assert kept[2 * n:].all()  # nothing joins these to a post (nothing is dark there either)


def test_a_post_standing_in_another_posts_shadow_stands() -> None:
    feet = np.r_[FEET_MM, FEET_MM[:2] + 0.55 * SHADOW_MM * AWAY]
    assert _kept(feet, np.zeros((0, 2))).all()


def test_on_black_felt_a_post_the_judge_is_sure_of_is_no_shadow_of_one_it_is_not() -> None:
    # tuning seed 370001 (black felt under a blind): a post lit on the felt (the judge 0.52,
    # read from its top) and, 33 mm away along its shadow, the shadow's end read by the
    # hand-set gates (the judge 0.33). Read in how unlike the felt each pixel is, the lit
    # post is the lighter of the two: by the level alone the post went as the shadow's shadow
    case = draw_case(370001, hand=False, table="felt-black", weights={"post": 0.8})
    r = case.render()
    det = Detector(r.calibration())
    prep = prepare(det.config.prepare, det.view, r.image, det._valid, half_bgr=halve(r.image))
    post, shadow = np.array([314.7, -232.5]), np.array([282.4, -224.8])
    dets = Detections.of(np.array([post, shadow]), ["post", "post"],
                         confidence=np.array([0.52, 0.33]))
    kept = drop_post_shadows(det.config.posts, PostShadowConfig(), prep, r.image, dets)
    assert np.hypot(*(kept.centre_mm - post).T).min() < 0.01
    # the same two as the hand-set gates alone would give them (no judge's word): the lit
    # post goes, as it did before the judge was asked
    alike = Detections.of(np.array([post, shadow]), ["post", "post"])
    gone = drop_post_shadows(det.config.posts, PostShadowConfig(), prep, r.image, alike)
    assert len(gone) == 1 and np.hypot(*(gone.centre_mm[0] - shadow)) < 0.01

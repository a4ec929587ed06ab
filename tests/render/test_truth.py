"""The drawn pieces are where the ground truth says, to a fraction of a pixel."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.render import CameraPose, Decal, RenderSettings, render_scene
from tabletop.render.raytrace import light_vector, trace
from tabletop.render.shapes import Box, Cylinder
from tabletop.scene import Piece, Scene

# flat light, dark table, no noise: what is bright is a piece
FLAT = {"ambient": 1.0, "shadow_strength": 0.0, "table": "felt", "table_seed": 3}
LIGHT = light_vector(135.0, 60.0)


def _weighted_centroid(gray: np.ndarray, lo: float, hi: float) -> np.ndarray:
    w = np.clip((gray.astype(float) - lo) / (hi - lo), 0.0, 1.0)
    v, u = np.mgrid[0:gray.shape[0], 0:gray.shape[1]]
    return np.array([(w * u).sum() / w.sum(), (w * v).sum() / w.sum()])


def _polygon_centroid(points_px: np.ndarray) -> np.ndarray:
    hull = cv2.convexHull(points_px.astype(np.float32))
    m = cv2.moments(hull)
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


@pytest.mark.parametrize("x, y", [(0.0, 0.0), (3.3, -1.7), (-7.25, 4.6)])
def test_coin_seen_from_straight_above_is_drawn_at_its_truth(x, y):
    pose = CameraPose.looking_at((x, y), 600.0, 0.0, image_size=(320, 240))
    scene = Scene((Piece("coin", x, y),))  # no suit: a plain face
    r = render_scene(scene, pose, RenderSettings.clean(seed=1, **FLAT))
    gray = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    c = _weighted_centroid(gray, 120.0, 200.0)
    t = r.truth[0]
    assert np.linalg.norm(c - t.centre_px) < 0.08
    assert np.linalg.norm(c - t.top_px) < 0.08


@pytest.mark.parametrize("tilt, dist", [(0.0, None), (20.0, None), (15.0, (-0.2, 0.05, 0, 0, 0))])
def test_traced_top_face_is_centred_on_top_px(tilt, dist):
    pose = CameraPose.looking_at((0.0, 0.0), 800.0, tilt, 25.0, (640, 480), 65.0, dist)
    for shape in (Cylinder((140.0, -90.0), 40.0, radius_mm=9.5),
                  Box((-120.0, 60.0), 4.8, 27.0, half_mm=25.4)):
        layer = trace(shape, pose, LIGHT, 0.5, 3)
        x0, y0, x1, y1 = layer.roi
        v, u = np.mgrid[y0:y1, x0:x1]
        w = layer.top_cover
        got = np.array([(w * u).sum() / w.sum(), (w * v).sum() / w.sum()])
        cx, cy = shape.centre_mm
        rim = shape.outline_xyz()
        rim = rim[rim[:, 2] > 0]
        want = _polygon_centroid(pose.project(rim))  # the top's projected outline
        assert np.linalg.norm(got - want) < 0.1
        top_px = pose.project([[cx, cy, shape.height_mm]])[0]
        assert np.linalg.norm(want - top_px) < 0.3  # perspective moves a centroid a little
        assert abs(w.sum() - layer.top_area_px) / layer.top_area_px < 0.015


@pytest.mark.parametrize("tilt, angle", [(0.0, 0.0), (18.0, 23.0)])
def test_tile_top_face_is_drawn_inside_its_projected_outline(tilt, angle):
    pose = CameraPose.looking_at((10.0, 0.0), 700.0, tilt, 0.0, (480, 360))
    scene = Scene((Piece.tile(30.0, -20.0, angle, "up"),))
    r = render_scene(scene, pose, RenderSettings.clean(seed=2, **FLAT))
    gray = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    got = _weighted_centroid(gray, 221.0, 231.0)  # the white top, not its sides or the table
    box = Box((30.0, -20.0), 4.8, angle, half_mm=25.4)
    top = box.outline_xyz()[4:]
    want = _polygon_centroid(pose.project(top))
    assert np.linalg.norm(got - want) < 0.15
    assert np.linalg.norm(want - r.truth[0].top_px) < 0.3  # perspective: centroid != centre


def test_decal_corners_land_on_their_projection():
    pose = CameraPose.looking_at((0.0, 0.0), 700.0, 20.0, 10.0, (640, 480))
    sheet = np.full((300, 210, 3), 255, np.uint8)
    decal = Decal(sheet, (105.0, 150.0), (-20.0, 15.0), 12.0)
    r = render_scene(Scene.empty(), pose, RenderSettings.clean(seed=4, **FLAT), decals=[decal])
    gray = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    corners = pose.project_table(decal.corners_mm())
    want = _polygon_centroid(corners)
    got = _weighted_centroid(gray, 120.0, 200.0)
    assert np.linalg.norm(got - want) < 0.1
    area = (np.clip((gray.astype(float) - 120.0) / 80.0, 0, 1)).sum()
    assert abs(area - cv2.contourArea(corners.astype(np.float32))) < 0.01 * area
    # the decal's top-left corner is the image's top-left at yaw 10
    assert corners[0][0] < corners[1][0] and corners[0][1] < corners[3][1]


def test_same_seed_same_bytes_other_seed_other_bytes():
    scene = Scene((Piece("coin", 0.0, 0.0, suit="suns"), Piece.tile(60.0, 10.0, 15.0, "up",
                                                                  "moons")))
    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 12.0, image_size=(320, 240))
    a = render_scene(scene, pose, RenderSettings(seed=5, hand=True))
    b = render_scene(scene, pose, RenderSettings(seed=5, hand=True))
    c = render_scene(scene, pose, RenderSettings(seed=6, hand=True))
    assert a.image.tobytes() == b.image.tobytes()
    assert np.array_equal(a.hand_mask, b.hand_mask)
    assert a.image.tobytes() != c.image.tobytes()
    assert not a.image.flags.writeable


def test_hand_flag_draws_a_hand_that_hides_what_is_under_it():
    scene = Scene((Piece("coin", 0.0, 0.0, suit="suns"), Piece("coin", 250.0, -150.0,
                                                               suit="moons")))
    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 10.0, image_size=(640, 360))
    without = render_scene(scene, pose, RenderSettings(seed=1))
    assert not without.hand_mask.any()
    assert all(not t.occluded and t.visible_fraction > 0.97 for t in without.truth)
    r = render_scene(scene, pose, RenderSettings(seed=1, hand=True, hand_target_mm=(-40.0, 0.0),
                                                 hand_from_deg=0.0, hand_height_mm=25.0))
    assert r.hand_mask.shape == (360, 640) and r.hand_mask.dtype == bool
    assert 0.02 < r.hand_mask.mean() < 0.5
    assert r.hand_mask[:, -1].any()  # the arm comes in over the right-hand edge
    u, v = (round(c) for c in r.truth[0].centre_px)
    assert r.hand_mask[v - 5:v + 6, u - 5:u + 6].mean() > 0.5
    assert r.truth[0].occluded and r.truth[0].visible_fraction < 0.5
    assert not r.truth[1].occluded
    skin = r.image[r.hand_mask].mean(axis=0)
    assert skin[2] > skin[0]  # skin is redder than it is blue


def test_piece_outside_the_view_is_not_visible():
    scene = Scene((Piece("coin", 5000.0, 0.0, suit="suns"),))
    r = render_scene(scene, CameraPose.looking_at((0.0, 0.0), image_size=(160, 120)),
                     RenderSettings.clean())
    assert r.truth[0].visible_fraction == 0.0 and r.truth[0].occluded


def test_token_carries_a_readable_aruco_marker_of_its_id():
    pose = CameraPose.looking_at((0.0, 0.0), 700.0, 10.0, image_size=(640, 480))
    scene = Scene((Piece("token", -60.0, 0.0, id=57, angle_deg=20.0),
                   Piece("token", 70.0, 30.0, id=131)))
    r = render_scene(scene, pose, RenderSettings(seed=3, table="cloth"))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(r.image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [57, 131]
    for c, marker_id in zip(corners, ids.ravel(), strict=True):
        t = r.truth[0 if marker_id == 57 else 1]
        assert np.linalg.norm(c.reshape(4, 2).mean(axis=0) - t.top_px) < 1.0


@pytest.mark.parametrize("seed", range(4))
def test_random_settings_render_and_keep_pieces_visible(seed):
    settings = RenderSettings.random(seed)
    assert RenderSettings.random(seed) == settings
    scene = Scene((Piece("coin", 0.0, 0.0, suit="crowns"), Piece.tile(70.0, 0.0, 40.0)))
    r = render_scene(scene, CameraPose.looking_at((30.0, 0.0), image_size=(320, 240)), settings)
    assert r.image.dtype == np.uint8 and 20 < r.image.mean() < 235
    assert all(not t.occluded for t in r.truth)


def test_glare_is_brightest_where_the_lamp_is_mirrored_in_the_table():
    from tabletop.render.glare import glare_map

    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 15.0, image_size=(640, 360), hfov_deg=80.0)
    light = light_vector(250.0, 75.0)
    spot = glare_map(pose, light, 200.0)
    v, u = np.unravel_index(np.argmax(spot), spot.shape)
    c = pose.centre_mm
    mirror = c[:2] + c[2] * light[:2] / light[2]  # where the view ray reflects to the light
    assert np.linalg.norm(pose.project_table([mirror])[0] - (u, v)) < 2.0
    dull = render_scene(Scene.empty(), pose, RenderSettings(seed=1, light_dir_deg=250.0,
                                                            light_elevation_deg=75.0))
    shiny = render_scene(Scene.empty(), pose, RenderSettings(seed=1, light_dir_deg=250.0,
                                                             light_elevation_deg=75.0, glare=0.8))
    assert shiny.image[v, u].mean() > dull.image[v, u].mean() + 40

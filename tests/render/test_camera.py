"""The camera model: orientation of the world frame, agreement with OpenCV, exact calibration."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.render import CameraPose, RenderError, RenderSettings, render_scene
from tabletop.scene import Piece, Scene

DIST = (-0.22, 0.06, 0.0015, -0.001, -0.008)


@pytest.mark.parametrize("tilt, yaw, dist", [(0.0, 0.0, None), (15.0, 0.0, None),
                                             (22.0, 35.0, DIST), (8.0, -120.0, DIST)])
def test_project_agrees_with_opencv(tilt, yaw, dist):
    pose = CameraPose.looking_at((40.0, -25.0), 950.0, tilt, yaw, (1280, 720), 62.0, dist)
    rng = np.random.default_rng(1)
    pts = np.c_[rng.uniform(-300, 300, (50, 2)), rng.uniform(0, 60, 50)]
    flip = np.diag([1.0, 1.0, -1.0])  # our left-handed world -> a right-handed one
    rvec, _ = cv2.Rodrigues(pose.R @ flip)
    expected, _ = cv2.projectPoints((pts @ flip).reshape(-1, 1, 3), rvec, pose.t, pose.K,
                                    np.zeros(5) if pose.dist is None else pose.dist)
    np.testing.assert_allclose(pose.project(pts), expected.reshape(-1, 2), atol=1e-6)


def test_default_pose_reads_like_a_printed_sheet():
    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 15.0)
    centre, right, down, up = pose.project_table([[0, 0], [100, 0], [0, 100], [0, -100]])
    assert np.allclose(centre, [639.5, 359.5])
    assert right[0] > centre[0] + 100 and abs(right[1] - centre[1]) < 1e-6
    assert down[1] > centre[1] + 100
    near, far = np.linalg.norm(down - centre), np.linalg.norm(up - centre)
    assert near > far  # tilted in from the near side: the far side looks smaller
    assert pose.centre_mm[1] > 0 and pose.centre_mm[2] == pytest.approx(900.0)
    assert np.linalg.det(pose.R) == pytest.approx(-1.0)


def test_pixels_to_table_inverts_project():
    pose = CameraPose.looking_at((10.0, 20.0), 800.0, 20.0, 30.0, dist=DIST)
    xy = np.array([[0.0, 0.0], [150.0, -80.0], [-220.0, 130.0]])
    uv = pose.project_table(xy)
    x, y = pose.pixels_to_table(uv[:, 0], uv[:, 1])
    np.testing.assert_allclose(np.c_[x, y], xy, atol=1e-6)


@pytest.mark.parametrize("dist", [None, DIST])
def test_calibration_points_are_consistent_with_project(dist):
    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 12.0, dist=dist, image_size=(640, 360))
    r = render_scene(Scene.empty(), pose, RenderSettings.clean())
    pts = r.calibration_points
    assert len(pts) >= 20
    world = np.array([p["world"] for p in pts])
    pixel = np.array([p["pixel"] for p in pts])
    np.testing.assert_allclose(pose.project_table(world), pixel, atol=1e-9)
    assert np.all((pixel >= 0) & (pixel <= [639, 359]))
    assert len({tuple(w) for w in world[:, :1].tolist()}) > 3  # spread, not in a line


@pytest.mark.parametrize("dist", [None, DIST])
def test_calibration_maps_truth_back_to_the_pieces_mm(dist):
    scene = Scene((Piece("coin", 120.0, -40.0, suit="arms"), Piece.tile(-150.0, 90.0, 30.0),
                   Piece("post", 260.0, 150.0)))
    pose = CameraPose.looking_at((30.0, 20.0), 900.0, 18.0, 10.0, (640, 360), dist=dist)
    r = render_scene(scene, pose, RenderSettings.clean())
    cal = r.calibration()
    assert (cal.lens is not None) == (dist is not None)
    got = cal.to_table([t.centre_px for t in r.truth])
    np.testing.assert_allclose(got, scene.centres_mm(), atol=0.01)
    back = cal.to_image(scene.centres_mm())
    np.testing.assert_allclose(back, [t.centre_px for t in r.truth], atol=1e-3)


def test_raised_tops_are_displaced_away_from_the_camera():
    pose = CameraPose.looking_at((0.0, 0.0), 900.0, 20.0, image_size=(640, 360))
    scene = Scene((Piece("post", 0.0, -200.0),))
    t = render_scene(scene, pose, RenderSettings.clean()).truth[0]
    # the camera is on the near (+y) side, so a post's top leans up the image
    assert t.top_px[1] < t.centre_px[1] - 10


@pytest.mark.parametrize("kw", [{"height_mm": 10.0}, {"tilt_deg": 80.0}, {"hfov_deg": 1.0},
                                {"image_size": (4, 4)}])
def test_bad_pose_is_one_clear_error(kw):
    with pytest.raises(RenderError):
        CameraPose.looking_at((0.0, 0.0), **kw)

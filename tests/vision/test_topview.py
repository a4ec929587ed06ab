"""The top view and the camera geometry behind the height correction."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.helpers import calibration_of, pose
from vision.errors import ViewError
from vision.topview import CameraGeometry, TopView, estimate_camera


@pytest.mark.parametrize(("height", "tilt", "with_lens"), [
    (900.0, 15.0, False), (700.0, 25.0, False), (1100.0, 5.0, True), (800.0, 20.0, True)])
def test_camera_centre_from_the_homography(height: float, tilt: float, with_lens: bool) -> None:
    K, R, t = pose(height, tilt)
    cam = estimate_camera(calibration_of(K, R, t, (1280, 720), with_lens))
    C = -R.T @ t
    assert cam.height_mm == pytest.approx(height, rel=1e-3)
    np.testing.assert_allclose(cam.nadir_mm, C[:2], atol=0.5)
    assert cam.focal_source == ("lens" if with_lens else "homography")


def test_frontal_view_falls_back_to_an_assumed_focal() -> None:
    K, R, t = pose(900.0, 0.0)
    cam = estimate_camera(calibration_of(K, R, t, (1280, 720)))
    assert cam.focal_source == "assumed"
    assert 500 < cam.height_mm < 1500


@settings(max_examples=50, deadline=None)
@given(st.floats(-500, 500), st.floats(-500, 500), st.floats(0, 60))
def test_foot_of_undoes_seen_at(x: float, y: float, z: float) -> None:
    g = CameraGeometry(np.array([10.0, -40.0]), 850.0, 1000.0, "lens")
    seen = g.seen_at(np.array([[x, y]]), z)
    np.testing.assert_allclose(g.foot_of(seen, z), [[x, y]], atol=1e-9)
    # a raised point is seen further from the nadir than its foot
    assert np.linalg.norm(seen - g.nadir_mm) >= np.linalg.norm(np.array([x, y]) - g.nadir_mm) - 1e-9


def test_view_maps_pixels_and_millimetres_both_ways() -> None:
    K, R, t = pose(900.0, 15.0, (640, 360))
    cal = calibration_of(K, R, t, (640, 360))
    view = TopView(cal, px_per_mm=1.0)
    pts = np.array([[0.0, 0.0], [100.0, -50.0]])
    np.testing.assert_allclose(view.to_mm(view.to_px(pts)), pts, atol=1e-9)
    assert view.valid.shape == (view.size_wh[1], view.size_wh[0])
    assert view.valid.any()


def test_warp_puts_a_table_point_where_the_view_says() -> None:
    K, R, t = pose(900.0, 10.0, (640, 360))
    cal = calibration_of(K, R, t, (640, 360))
    img = np.zeros((360, 640, 3), np.uint8)
    u, v = cal.to_image([[30.0, 20.0]])[0]
    img[round(v) - 2:round(v) + 3, round(u) - 2:round(u) + 3] = 255
    view = TopView(cal, px_per_mm=1.0)
    top = view.warp(img)
    ys, xs = np.nonzero(top[..., 0] > 128)
    centre = view.to_mm(np.array([[xs.mean(), ys.mean()]]))[0]
    np.testing.assert_allclose(centre, [30.0, 20.0], atol=1.0)


def test_an_empty_area_is_refused() -> None:
    K, R, t = pose()
    with pytest.raises(ViewError):
        TopView(calibration_of(K, R, t, (1280, 720)), area_mm=(10, 10, 10, 50))

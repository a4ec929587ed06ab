"""Coverage feedback: the error map against a Monte-Carlo of corner noise."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.coverage import error_map
from calibration.errors import CalibrationError
from calibration.homography import calibrate_from_points, fit_homography
from calibration.mat import mat_layout
from calibration.model import Calibration
from calibration.synthetic import PinholeCamera, mapping_error_mm

AREA = (-350.0, -140.0, 650.0, 560.0)  # a 1 m x 0.7 m table round an A3 mat


@pytest.fixture(scope="module")
def setup():
    mm = np.concatenate(list(mat_layout("a3").values()))
    c = np.array([148.5, 210.0, 0.0])
    cam = PinholeCamera.look_at(c + np.array([0, 300, -950]), c, (1920, 1080), 70)
    px = np.c_[mm, np.ones(len(mm))] @ cam.table_to_image().T
    return cam, mm, px[:, :2] / px[:, 2:3]


def _cal(cam, px, mm) -> Calibration:
    H = fit_homography(px, mm)
    return Calibration(cam.image_size, H, extra={"source": "markers",
                                                 "fit": {"pixels": px.tolist(),
                                                         "world_mm": mm.tolist()}})


def test_error_map_agrees_with_a_monte_carlo_of_corner_noise(setup):
    cam, mm, px = setup
    rng = np.random.default_rng(1)
    sigma = 0.4
    cal = _cal(cam, px + rng.normal(0, sigma, px.shape), mm)
    em = error_map(cal, AREA, step_mm=125, sigma_px=sigma)
    gx, gy = np.meshgrid(em.xs_mm, em.ys_mm)
    q = np.c_[gx.ravel(), gy.ravel()]
    errs = [mapping_error_mm(fit_homography(px + rng.normal(0, sigma, px.shape), mm),
                             cam.image_to_table(), q) for _ in range(300)]
    empirical = np.sqrt(np.mean(np.square(errs), axis=0)).reshape(gx.shape)
    ratio = em.error_mm / empirical
    assert ratio.min() > 0.8 and ratio.max() < 1.25


def test_error_grows_away_from_the_mat_and_noise_is_estimated(setup):
    cam, mm, px = setup
    rng = np.random.default_rng(2)
    cal = _cal(cam, px + rng.normal(0, 0.3, px.shape), mm)
    em = error_map(cal, AREA, step_mm=20)
    assert em.sigma_px == pytest.approx(0.3, rel=0.2)
    centre, corner = em.at(148.5, 210.0), em.at(AREA[0], AREA[1])
    assert corner > 3 * centre
    assert em.error_mm.shape == (len(em.ys_mm), len(em.xs_mm))
    assert em.xs_mm[0] == AREA[0] and em.xs_mm[-1] == pytest.approx(AREA[2])


def test_error_map_json_leaves_out_points_out_of_view(setup):
    cam, mm, px = setup
    cal = _cal(cam, px, mm)
    em = error_map(cal, (-3000, -3000, 3000, 3000), step_mm=500)
    obj = json.loads(json.dumps(em.to_json()))
    flat = [v for row in obj["error_mm"] for v in row]
    assert None in flat and any(v is not None for v in flat)
    assert not em.in_view[0, 0] and em.in_view[6, 6]


def test_default_area_is_the_whole_view(setup):
    cam, mm, px = setup
    em = error_map(_cal(cam, px, mm), step_mm=50)
    assert em.in_view.mean() > 0.4


def test_points_calibration_keeps_its_fit_for_the_map(setup):
    cam, mm, px = setup
    pts = [{"pixel": p.tolist(), "world": w.tolist()} for p, w in zip(px[::4], mm[::4],
                                                                       strict=True)]
    em = error_map(calibrate_from_points(pts, cam.image_size), AREA, 100)
    assert np.isfinite(em.error_mm).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"step_mm": 0}, "step_mm must be positive"),
    ({"area_mm": (10, 10, 0, 20)}, "x1 > x0"),
])
def test_bad_area_or_step(setup, kwargs, message):
    cam, mm, px = setup
    with pytest.raises(CalibrationError, match=message):
        error_map(_cal(cam, px, mm), **kwargs)


def test_calibration_without_fit_points_cannot_map():
    cal = Calibration((640, 480), np.eye(3))
    with pytest.raises(CalibrationError, match="keeps no fit points"):
        error_map(cal, (0, 0, 100, 100))


def test_view_reaching_the_horizon_needs_an_area():
    # a homography whose line at infinity crosses the image
    H = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0.004, -1.0]])
    px = np.array([[0, 0], [600, 0], [600, 200], [0, 200], [300, 100.0]])
    hom = np.c_[px, np.ones(5)] @ H.T
    world = hom[:, :2] / hom[:, 2:]
    cal = Calibration((640, 480), H, extra={"fit": {"pixels": px.tolist(),
                                                    "world_mm": world.tolist()}})
    with pytest.raises(CalibrationError, match="horizon"):
        error_map(cal)
    assert error_map(cal, (0, 0, 100, 100)).error_mm.shape == (6, 6)

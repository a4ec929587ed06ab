"""Drift watch: markers still where the calibration put them, or how far they went."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.drift import DriftWatch, check_drift
from calibration.errors import CalibrationError, ResolutionMismatch
from calibration.from_mat import calibrate_from_mat
from calibration.homography import calibrate_from_points
from calibration.model import Calibration
from calibration.synthetic import render_sheet

from .conftest import oblique_camera


@pytest.fixture(scope="module")
def watched(a4_view):
    cal = calibrate_from_mat(a4_view.image_bgr)
    return a4_view, Calibration.from_json(json.loads(json.dumps(cal.to_json())))


def moved_view(view, shift_mm: tuple[float, float], seed: int = 7) -> np.ndarray:
    """The same mat seen by the camera shifted sideways (the mat slid the other way)."""
    cam = oblique_camera(view.sheet.size_mm, 800, 18, (1280, 960), 60, roll_deg=12,
                         shift_mm=shift_mm)
    return render_sheet(cam, view.sheet.image_bgr, view.sheet.dpi, seed=seed, blur_px=0.9,
                        noise=3.0)


def test_still_view_has_not_moved(watched):
    view, cal = watched
    report = check_drift(cal, moved_view(view, (0, 0)))
    assert not report.moved and report.status == "ok"
    assert report.markers_seen == report.markers_expected == len(view.sheet.marker_corners_mm)
    assert report.shift_mm < 0.3


@pytest.mark.parametrize("shift", [(3.0, 0.0), (0.0, -8.0), (25.0, 10.0)])
def test_moved_view_reports_how_far(watched, shift):
    view, cal = watched
    report = DriftWatch(cal).check(moved_view(view, shift))
    assert report.moved and report.status == "moved"
    assert report.shift_mm == pytest.approx(np.hypot(*shift), abs=0.4)
    assert "calibrate again" in report.message


def test_far_move_is_found_by_searching_the_whole_frame(watched):
    view, cal = watched
    report = DriftWatch(cal).check(moved_view(view, (150.0, 0.0)))
    assert report.moved and report.shift_mm == pytest.approx(150.0, abs=1.0)


def test_covered_mat_is_unknown_not_moved(watched):
    view, cal = watched
    report = check_drift(cal, np.full_like(view.image_bgr, 120))
    assert not report.moved and report.status == "unknown" and report.markers_seen == 0
    assert report.to_json()["shift_mm"] is None
    json.dumps(report.to_json())


def test_frame_of_another_size_is_refused(watched):
    _, cal = watched
    with pytest.raises(ResolutionMismatch):
        check_drift(cal, np.zeros((480, 640, 3), np.uint8))


def test_points_calibration_has_nothing_to_watch():
    pts = [{"pixel": [u, v], "world": [u / 2, v / 2]} for u, v in
           [(10, 10), (600, 12), (620, 400), (15, 420)]]
    cal = calibrate_from_points(pts, (640, 480))
    with pytest.raises(CalibrationError, match="nothing to watch"):
        DriftWatch(cal)


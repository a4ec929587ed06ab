"""The calibration drawn on its image: markers used in green, ignored in red, the mm grid."""

from __future__ import annotations

import numpy as np

from calibration.annotate import GRID_BGR, IGNORED_BGR, USED_BGR, CalibrationAnnotator
from calibration.homography import calibrate_from_markers, calibrate_from_points


def _count(img: np.ndarray, bgr: tuple[int, int, int]) -> int:
    """Pixels of about that colour (anti-aliased lines blend at their edges)."""
    near = np.abs(img.astype(int) - np.array(bgr)) < 25
    return int(np.all(near, axis=2).sum())


def test_used_and_ignored_markers_and_the_grid_are_drawn(a4_view):
    layout = {k: v.copy() for k, v in a4_view.sheet.marker_corners_mm.items()}
    layout[3], layout[9] = layout[9].copy(), layout[3].copy()  # two misread markers
    cal = calibrate_from_markers(a4_view.image_bgr, layout)
    out = CalibrationAnnotator().annotate(a4_view.image_bgr, cal)
    assert out.shape == a4_view.image_bgr.shape and out is not a4_view.image_bgr
    assert _count(out, USED_BGR) > 500 and _count(out, IGNORED_BGR) > 50
    assert _count(out, GRID_BGR) > 500
    assert _count(a4_view.image_bgr, USED_BGR) == 0


def test_points_calibration_draws_its_points(a4_view):
    pts = [{"pixel": [u, v], "world": [u / 3, v / 3]}
           for u, v in [(100, 100), (1100, 120), (1150, 850), (90, 880)]]
    cal = calibrate_from_points(pts, (1280, 960))
    out = CalibrationAnnotator().annotate(np.zeros((960, 1280), np.uint8), cal)
    assert out.shape == (960, 1280, 3) and _count(out, USED_BGR) > 20


def test_calibrate_show_writes_the_check_picture(a4_view, tmp_path, capsys):
    import cv2

    from tabletop.cli import main

    img = tmp_path / "view.png"
    cv2.imwrite(str(img), a4_view.image_bgr)
    check = tmp_path / "check.png"
    assert main(["calibrate", str(img), "-o", str(tmp_path / "cal.json"), "--show",
                 str(check)]) == 0
    assert cv2.imread(str(check)).shape == a4_view.image_bgr.shape
    capsys.readouterr()
    assert main(["calibrate", str(img), "-o", str(tmp_path / "cal2.json"), "--show",
                 str(tmp_path / "check.xyz")]) == 2
    assert "--show writes a .png or .jpg" in capsys.readouterr().err
    assert not (tmp_path / "cal2.json").exists()
    assert main(["calibrate", str(img), "-o", str(tmp_path / "cal.json"), "--show",
                 str(tmp_path / "no" / "dir" / "check.png")]) == 1
    assert "cannot write the picture" in capsys.readouterr().err

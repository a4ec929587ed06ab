"""Table homography from the mat and from given points: accuracy, robustness, errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationError, MatNotFound, ResolutionMismatch
from calibration.from_mat import calibrate_from_mat
from calibration.homography import calibrate_from_markers, calibrate_from_points
from calibration.model import Calibration, Lens
from calibration.synthetic import mapping_error_mm
from tabletop.cli import main

from .conftest import View


def grid(x0: float, y0: float, x1: float, y1: float, n: int = 15) -> np.ndarray:
    gx, gy = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    return np.c_[gx.ravel(), gy.ravel()]


def cover(image: np.ndarray, view: View, ids: list[int]) -> np.ndarray:
    """Paints table-coloured patches over some markers (a hand, a piece, a coffee cup)."""
    out = image.copy()
    for k in ids:
        c = view.sheet.marker_corners_mm[k]
        centre = c.mean(axis=0)
        big = centre + (c - centre) * 1.3
        px = view.camera.table_to_image()
        hom = np.c_[big, np.ones(4)] @ px.T
        poly = np.round(hom[:, :2] / hom[:, 2:3]).astype(np.int32)
        cv2.fillConvexPoly(out, poly, (60, 90, 130))
    return out


def test_mat_homography_within_0_3_mm_over_the_mat(a4_view):
    cal = calibrate_from_mat(a4_view.image_bgr)
    w, h = a4_view.sheet.size_mm
    err = mapping_error_mm(cal.homography, a4_view.true_h, grid(0, 0, w, h))
    assert err.max() < 0.3
    assert cal.extra["mat"]["paper"] == "a4"
    assert 0 < cal.reprojection_mm < 0.5


def test_a3_mat_homography_within_1_mm_over_a_1m_by_0_7m_table(a3_table_view):
    cal = calibrate_from_mat(a3_table_view.image_bgr)
    w, h = a3_table_view.sheet.size_mm
    assert mapping_error_mm(cal.homography, a3_table_view.true_h,
                            grid(0, 0, w, h)).max() < 0.3
    table = grid(w / 2 - 500, h / 2 - 350, w / 2 + 500, h / 2 + 350)
    assert mapping_error_mm(cal.homography, a3_table_view.true_h, table).max() < 1.0


def test_one_marker_in_four_occluded_still_calibrates(a4_view):
    ids = sorted(a4_view.sheet.marker_corners_mm)
    covered = ids[::4]
    img = cover(a4_view.image_bgr, a4_view, covered)
    cal = calibrate_from_mat(img)
    assert not set(covered) & set(cal.extra["markers"]["inlier_ids"])
    w, h = a4_view.sheet.size_mm
    assert mapping_error_mm(cal.homography, a4_view.true_h, grid(0, 0, w, h)).max() < 0.4


def test_covered_paper_marker_still_finds_the_paper(a4_view):
    img = cover(a4_view.image_bgr, a4_view, [37])
    assert calibrate_from_mat(img).extra["mat"]["paper"] == "a4"


def test_misread_marker_is_an_outlier_and_does_not_spoil_the_fit(a4_view):
    layout = {k: v.copy() for k, v in a4_view.sheet.marker_corners_mm.items()}
    layout[3], layout[9] = layout[9].copy(), layout[3].copy()  # two ids read for each other
    cal = calibrate_from_markers(a4_view.image_bgr, layout)
    assert {3, 9} <= set(cal.extra["markers"]["outlier_ids"])
    w, h = a4_view.sheet.size_mm
    assert mapping_error_mm(cal.homography, a4_view.true_h, grid(0, 0, w, h)).max() < 0.3


def test_generic_layout_of_four_corner_markers(a4_view):
    """As the Jungle board uses it: only some markers of a layout, any ids."""
    corners = a4_view.sheet.marker_corners_mm
    layout = {k: corners[k] for k in (0, 3, 8, 11)}
    cal = calibrate_from_markers(a4_view.image_bgr, layout, extra={"board": "test"})
    assert cal.extra["board"] == "test"
    assert sorted(cal.extra["markers"]["inlier_ids"]) == [0, 3, 8, 11]
    w, h = a4_view.sheet.size_mm
    assert mapping_error_mm(cal.homography, a4_view.true_h, grid(0, 0, w, h)).max() < 0.5


def test_no_mat_is_one_clear_error():
    rng = np.random.default_rng(0)
    img = (rng.random((480, 640, 3)) * 255).astype(np.uint8)
    with pytest.raises(MatNotFound, match="no markers of the mat"):
        calibrate_from_mat(img)


def test_a_single_marker_is_not_enough(a4_view):
    layout = {0: a4_view.sheet.marker_corners_mm[0]}
    with pytest.raises(MatNotFound, match="only 1 marker"):
        calibrate_from_markers(a4_view.image_bgr, layout)


def test_lens_of_another_resolution_is_refused(a4_view):
    lens = Lens((640, 480), np.eye(3), np.zeros(5))
    with pytest.raises(ResolutionMismatch):
        calibrate_from_mat(a4_view.image_bgr, lens=lens)


def test_measured_scale_bar_rescales_the_world(a4_view):
    """The mat printed 2 % small: its millimetres are 0.98 of the layout's."""
    cal = calibrate_from_mat(a4_view.image_bgr, bar_mm=98.0)
    w, h = a4_view.sheet.size_mm
    pts = grid(0, 0, w, h, 5)
    px = np.c_[pts, np.ones(len(pts))] @ np.linalg.inv(a4_view.true_h).T
    got = cal.to_table(px[:, :2] / px[:, 2:3])
    assert np.abs(got - pts * 0.98).max() < 0.3
    assert cal.extra["mat"]["scale"] == pytest.approx(0.98)


def _points(h_true: np.ndarray, world: np.ndarray) -> list[dict]:
    px = np.c_[world, np.ones(len(world))] @ np.linalg.inv(h_true).T
    px = px[:, :2] / px[:, 2:3]
    return [{"pixel": p.tolist(), "world": w.tolist()} for p, w in zip(px, world, strict=True)]


def test_points_give_the_exact_homography(a4_view):
    world = np.array([[0, 0], [210, 0], [210, 297], [0, 297], [100, 150.0]])
    cal = calibrate_from_points(_points(a4_view.true_h, world), (1280, 960))
    assert cal.reprojection_mm < 1e-3
    assert mapping_error_mm(cal.homography, a4_view.true_h, grid(-300, -300, 500, 600)).max() \
        < 1e-3


@pytest.mark.parametrize("points, message", [
    ([{"pixel": [1, 2], "world": [0, 0]}] * 3, "at least 4 points"),
    ([{"pixel": [10, 20 + i], "world": [10 * i, 5 * i]} for i in range(4)], "one line"),
    ([{"pixel": [10, 20], "world": [0, 0]}, {"pixel": [30, 20], "world": [10, 0]},
      {"pixel": [50, 20], "world": [20, 0]}, {"pixel": [10, 90], "world": [0, 30]}],
     "three of the world points are on one line"),
    ([{"pixel": [1, 2]}] * 4, "point 0 must be"),
    ({"pixel": [1, 2]}, "must be a JSON list"),
    ([{"pixel": [1, 2], "world": [0, "x"]}] * 4, "point 0 must be"),
    ([{"pixel": [5000, 2], "world": [0, 0]}, {"pixel": [30, 20], "world": [10, 0]},
      {"pixel": [50, 80], "world": [20, 30]}, {"pixel": [10, 90], "world": [0, 30]}],
     "outside the 640x480 image"),
])
def test_bad_points_are_refused_in_one_line(points, message):
    with pytest.raises(CalibrationError, match=message) as info:
        calibrate_from_points(points, (640, 480))
    assert "\n" not in str(info.value)


def test_devscenes_calibration_points_with_their_lens(devscenes):
    """The renders' own correspondences (raw pixels, barrel distortion on some) fit exactly."""
    for path in sorted(devscenes.glob("dev-scene*.json")):
        truth = json.loads(path.read_text())
        cam = truth["camera"]
        size = (truth["width"], truth["height"])
        lens = None if cam["dist"] is None else Lens(size, cam["K"], cam["dist"])
        cal = calibrate_from_points(truth["calibration_points"], size, lens)
        assert cal.reprojection_mm < 0.05, path.name
        # an independent check: the camera's own projection of table points
        R, t, K = (np.array(cam[k], float) for k in ("R", "t", "K"))
        world = grid(-300, -200, 300, 200, 7)
        Xc = np.c_[world, np.zeros(len(world))] @ R.T + t
        ideal = Xc[:, :2] / Xc[:, 2:3] @ K[:2, :2].T + K[:2, 2]
        raw = ideal if lens is None else lens.distort_points(ideal)
        assert np.abs(cal.to_table(raw) - world).max() < 0.2, path.name


def test_calibrate_command_writes_the_contract_file(a4_view, tmp_path, capsys):
    img = tmp_path / "view.png"
    cv2.imwrite(str(img), a4_view.image_bgr)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(img), "-o", str(out)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("reprojection_mm=") and float(last.split("=")[1]) < 0.5
    obj = json.loads(out.read_text())
    assert obj["version"] == 1 and obj["image_size"] == [1280, 960] and obj["lens"] is None
    # homography maps pixels (u, v, 1) to table mm
    got = np.array(obj["homography"]) @ [640.0, 480.0, 1.0]
    want = a4_view.true_h @ [640.0, 480.0, 1.0]
    assert np.linalg.norm(got[:2] / got[2] - want[:2] / want[2]) < 0.3
    assert obj["mat"]["paper"] == "a4" and obj["markers"]["corners_mm"]
    assert Calibration.load(out).reprojection_mm == pytest.approx(float(last.split("=")[1]),
                                                                  abs=1e-4)


def test_calibrate_command_with_points(a4_view, tmp_path, capsys):
    img = tmp_path / "view.png"
    cv2.imwrite(str(img), a4_view.image_bgr)
    pts = tmp_path / "points.json"
    world = np.array([[0, 0], [210, 0], [210, 297], [0, 297.0]])
    pts.write_text(json.dumps(_points(a4_view.true_h, world)))
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(img), "--points", str(pts), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "reprojection_mm=0.0000"


@pytest.mark.parametrize("setup, message", [
    ("missing_image", "no such image file"),
    ("not_an_image", "not an image"),
    ("no_mat", "no markers of the mat"),
    ("bad_points", "at least 4 points"),
    ("bad_lens", "not a lens file"),
])
def test_calibrate_command_errors_are_one_line(tmp_path, capsys, setup, message):
    img = tmp_path / "img.png"
    cv2.imwrite(str(img), np.full((120, 160, 3), 200, np.uint8))
    args = ["calibrate", str(img), "-o", str(tmp_path / "cal.json")]
    if setup == "missing_image":
        args[1] = str(tmp_path / "nope.png")
    elif setup == "not_an_image":
        (tmp_path / "x.png").write_text("hello")
        args[1] = str(tmp_path / "x.png")
    elif setup == "bad_points":
        (tmp_path / "p.json").write_text("[]")
        args += ["--points", str(tmp_path / "p.json")]
    elif setup == "bad_lens":
        (tmp_path / "l.json").write_text("{}")
        args += ["--lens", str(tmp_path / "l.json")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tabletop: error:") and message in err


def test_calibrate_command_with_a_lens_keeps_it(a4_view, tmp_path, capsys):
    img = tmp_path / "view.png"
    cv2.imwrite(str(img), a4_view.image_bgr)
    lens_path = tmp_path / "lens.json"
    Lens((1280, 960), a4_view.camera.K, np.zeros(5), 0.2).save(lens_path)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(img), "--lens", str(lens_path), "-o", str(out)]) == 0
    cal = Calibration.load(out)
    assert cal.lens is not None and np.allclose(cal.lens.K, a4_view.camera.K)
    w, h = a4_view.sheet.size_mm
    assert mapping_error_mm(cal.homography, a4_view.true_h, grid(0, 0, w, h)).max() < 0.3


def test_paper_given_against_the_mat_s_own_paper_marker_is_refused(a4_view):
    with pytest.raises(CalibrationError, match="printed on A4"):
        calibrate_from_mat(a4_view.image_bgr, paper="a3")
    assert calibrate_from_mat(a4_view.image_bgr, paper="a4").extra["mat"]["paper"] == "a4"

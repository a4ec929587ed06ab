"""Lens calibration: OpenCV's reference on its own chessboard photos, and clear refusals."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.errors import LensError
from calibration.lens import calibrate_lens, coverage
from calibration.model import Lens
from tabletop.cli import main
from tabletop.errors import InputError


@pytest.fixture(scope="module")
def left_images(realdata):
    truth = json.loads((realdata / "ground_truth" / "opencv_left_calibration.json").read_text())
    names = [n if n.endswith(".jpg") else f"opencv_samples/{n}.jpg" for n in truth["images"]]
    return [realdata / n for n in names], truth["reference_A_python_test"]


@pytest.mark.realdata
def test_lens_reproduces_opencv_reference_on_left_photos(left_images, tmp_path, capsys):
    paths, ref = left_images
    out = tmp_path / "lens.json"
    code = main(["lens", *map(str, paths), "--chessboard", "9x6", "--square", "25", "-o",
                 str(out)])
    assert code == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("rms_px=")
    rms = float(last.split("=")[1])
    assert rms == pytest.approx(ref["expected_rms"], rel=0.02)
    lens = Lens.load(out)
    K_ref = np.array(ref["expected_camera_matrix"])
    assert lens.K[0, 0] == pytest.approx(K_ref[0, 0], rel=0.02)
    assert lens.K[1, 1] == pytest.approx(K_ref[1, 1], rel=0.02)
    assert np.abs(lens.K - K_ref).sum() < ref["camera_matrix_tolerance_L1"]
    assert np.abs(lens.dist - ref["expected_dist_coeffs_k1_k2_p1_p2_k3"]).sum() \
        < ref["dist_tolerance_L1"]
    assert lens.image_size == (640, 480) and lens.rms_px == pytest.approx(rms, abs=1e-6)


@pytest.mark.realdata
def test_too_few_photos_with_the_board_are_refused(left_images):
    paths, _ = left_images
    with pytest.raises(LensError, match="found in 2 of 2 images; at least 3"):
        calibrate_lens(paths[:2], (9, 6), 25.0)


@pytest.mark.realdata
def test_wrong_pattern_is_refused(left_images):
    paths, _ = left_images
    with pytest.raises(LensError, match=r"7x7 chessboard was found in 0 of 3 images \(not in "
                                         r"left01.jpg, left02.jpg"):
        calibrate_lens(paths[:3], (7, 7), 25.0)


@pytest.mark.realdata
def test_too_little_coverage_is_refused_and_reported(left_images):
    paths, _ = left_images
    with pytest.raises(LensError, match=r"cover \d+% of the view, less than 90%"):
        calibrate_lens(paths[:4], (9, 6), 25.0, min_coverage=0.9)


@pytest.mark.realdata
def test_photos_of_different_sizes_are_refused(left_images, tmp_path):
    paths, _ = left_images
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(paths[0])), (320, 240)))
    with pytest.raises(LensError, match="one resolution"):
        calibrate_lens([*paths[:3], small], (9, 6), 25.0)


def test_unreadable_photo_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.jpg"
    bad.write_text("not a jpeg")
    with pytest.raises(InputError, match="bad.jpg: not an image"):
        calibrate_lens([bad], (9, 6), 25.0)
    assert main(["lens", str(tmp_path / "none.jpg"), "--chessboard", "9x6", "--square", "25",
                 "-o", str(tmp_path / "l.json")]) == 1
    assert "no such image file" in capsys.readouterr().err


@pytest.mark.parametrize("pattern", ["9", "9x", "ax6", "1x6"])
def test_bad_chessboard_argument_is_a_usage_error(pattern, tmp_path):
    with pytest.raises(SystemExit) as info:
        main(["lens", "x.jpg", "--chessboard", pattern, "--square", "25", "-o", "l.json"])
    assert info.value.code == 2


def test_coverage_is_the_union_of_board_outlines():
    a = np.array([[0, 0], [49, 0], [49, 99], [0, 99]])
    b = a + np.array([50, 0])
    assert coverage([a], (100, 100)) == pytest.approx(0.5, abs=0.02)
    assert coverage([a, b], (100, 100)) == pytest.approx(1.0, abs=0.02)
    assert coverage([a, a], (100, 100)) == pytest.approx(0.5, abs=0.02)

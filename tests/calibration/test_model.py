"""CAL.json and LENS.json: versioned files that round-trip, and broken ones that say so."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationFileError, ResolutionMismatch
from calibration.model import Calibration, Lens
from tabletop.cli import main

H = [[0.5, 0.01, -10.0], [0.0, 0.52, -5.0], [1e-5, 2e-5, 1.0]]
LENS = Lens((640, 480), [[500, 0, 320], [0, 500, 240], [0, 0, 1]], [-0.2, 0.05, 0.001, 0, 0], 0.3)


def test_calibration_file_round_trips_with_lens_and_extra(tmp_path):
    cal = Calibration((640, 480), H, LENS, 0.12, {"mat": {"paper": "a4"}})
    cal.save(tmp_path / "cal.json")
    back = Calibration.load(tmp_path / "cal.json")
    assert back.image_size == (640, 480) and back.reprojection_mm == 0.12
    assert np.allclose(back.homography, cal.homography)
    assert back.lens is not None and np.allclose(back.lens.dist, LENS.dist)
    assert back.extra == {"mat": {"paper": "a4"}}
    obj = json.loads((tmp_path / "cal.json").read_text())
    assert obj["version"] == 1 and obj["lens"]["K"] == LENS.K.tolist()


def test_to_table_and_to_image_are_inverse_through_the_lens():
    cal = Calibration((640, 480), H, LENS)
    px = np.array([[10.0, 10.0], [320, 240], [630, 470]])
    assert np.abs(cal.to_image(cal.to_table(px)) - px).max() < 1e-3


def test_frame_of_another_size_is_a_resolution_mismatch():
    with pytest.raises(ResolutionMismatch, match="1280x720 but the calibration was made for 640"):
        Calibration((640, 480), H).check_image_size((1280, 720), "frame")


@pytest.mark.parametrize("content, message", [
    (None, "no such calibration file"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"version": 1, "image_size": [640, 480]}', "no 'homography'"),
    ('{"version": 2, "image_size": [640, 480], "homography": [[1,0,0],[0,1,0],[0,0,1]]}',
     "unknown version 2"),
    ('{"version": 1, "image_size": [640], "homography": [[1,0,0],[0,1,0],[0,0,1]]}',
     "'image_size' must be"),
    ('{"version": 1, "image_size": [640, 480], "homography": [[1,0],[0,1]]}', "shape"),
    ('{"version": 1, "image_size": [640, 480], "homography": [[0,0,0],[0,0,0],[0,0,1]]}',
     "singular"),
    ('{"version": 1, "image_size": [640, 480], "homography": [[1,0,0],[0,1,0],[0,0,1]], '
     '"lens": {"K": [[1, 0], [0, 1]], "dist": [0]}}', "K must have shape"),
])
def test_broken_calibration_file_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "cal.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CalibrationFileError, match=message) as info:
        Calibration.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_lens_file_round_trips_and_rejects_a_calibration_file(tmp_path):
    LENS.save(tmp_path / "lens.json")
    back = Lens.load(tmp_path / "lens.json")
    assert back.image_size == (640, 480) and back.rms_px == 0.3
    (tmp_path / "cal.json").write_text(json.dumps({"homography": H}))
    with pytest.raises(CalibrationFileError, match="not a lens file"):
        Lens.load(tmp_path / "cal.json")


def test_calibrate_with_a_broken_lens_file_names_it(tmp_path, capsys):
    img = tmp_path / "img.png"
    cv2.imwrite(str(img), np.full((48, 64, 3), 200, np.uint8))
    (tmp_path / "lens.json").write_text('{"version": 1, "K": "x", "dist": []}')
    code = main(["calibrate", str(img), "--lens", str(tmp_path / "lens.json"), "-o",
                 str(tmp_path / "cal.json")])
    err = capsys.readouterr().err
    assert code == 1 and "lens.json" in err and err.count("\n") == 1

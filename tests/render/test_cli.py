"""``tabletop render``: writes the image and its ground truth; bad input is one line."""

from __future__ import annotations

import json

import cv2

from tabletop.cli import main


def _scene_file(tmp_path, text=None):
    p = tmp_path / "scene.json"
    p.write_text(text or json.dumps({"units": "mm", "hand": False, "pieces": [
        {"kind": "coin", "x": 0.0, "y": 0.0, "suit": "suns"},
        {"kind": "tile", "x": 80.0, "y": 20.0, "angle_deg": 30.0, "face": "down", "suit": None},
    ]}))
    return p


def test_render_writes_image_and_truth(tmp_path, capsys):
    out = tmp_path / "frame.jpg"
    code = main(["render", str(_scene_file(tmp_path)), "-o", str(out), "--seed", "3",
                 "--size", "320x240", "--tilt", "12", "--hand"])
    assert code == 0
    img = cv2.imread(str(out))
    assert img.shape == (240, 320, 3)
    truth = json.loads((tmp_path / "frame.json").read_text())
    assert truth["width"] == 320 and len(truth["pieces"]) == 2
    assert truth["pieces"][1]["kind"] == "tile" and len(truth["pieces"][1]["pixel_top"]) == 2
    assert len(truth["calibration_points"]) >= 4 and truth["hand"] in (True, False)


def test_render_bad_scene_is_one_line_error(tmp_path, capsys):
    bad = _scene_file(tmp_path, '{"pieces": [{"kind": "wizard", "x": 0, "y": 0}]}')
    code = main(["render", str(bad), "-o", str(tmp_path / "x.jpg")])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("tabletop: error: ") and err.count("\n") == 1 and "wizard" in err


def test_render_bad_output_suffix_is_a_usage_error(tmp_path, capsys):
    code = main(["render", str(_scene_file(tmp_path)), "-o", str(tmp_path / "x.gif")])
    assert code == 2 and "must end in .jpg or .png" in capsys.readouterr().err

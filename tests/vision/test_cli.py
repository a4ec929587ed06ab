"""``tabletop detect``: the contract's scene JSON, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cli import main
from tests.vision.helpers import calibration_of, load_devscene, pose
from vision import ImageReadError, read_image


@pytest.fixture
def cal_file(tmp_path: Path) -> Path:
    K, R, t = pose(900.0, 12.0, (640, 360))
    path = tmp_path / "cal.json"
    calibration_of(K, R, t, (640, 360)).save(path)
    return path


def _one_line_error(capsys, code: int, expected: int, needle: str) -> None:
    err = capsys.readouterr().err
    assert code == expected
    assert err.count("\n") == 1 and err.startswith("tabletop: error: ")
    assert needle in err


def test_empty_table_prints_an_empty_scene(tmp_path: Path, cal_file: Path, capsys) -> None:
    img = np.full((360, 640, 3), (70, 120, 160), np.uint8)
    cv2.imwrite(str(tmp_path / "t.png"), img)
    assert main(["detect", str(tmp_path / "t.png"), "--calibration", str(cal_file)]) == 0
    assert json.loads(capsys.readouterr().out) == {"units": "mm", "hand": False, "pieces": []}


@pytest.mark.parametrize(("content", "needle"), [
    (b"", "empty file"), (b"\x89PNG\r\n\x1a\nbroken", "not a readable image"),
    (None, "no such image file")])
def test_unreadable_images_are_one_line(tmp_path: Path, cal_file: Path, capsys,
                                        content: bytes | None, needle: str) -> None:
    path = tmp_path / "x.png"
    if content is not None:
        path.write_bytes(content)
    code = main(["detect", str(path), "--calibration", str(cal_file)])
    _one_line_error(capsys, code, 1, needle)
    with pytest.raises(ImageReadError):
        read_image(path)


def test_a_calibration_for_another_resolution_is_one_line(tmp_path: Path, cal_file: Path,
                                                          capsys) -> None:
    cv2.imwrite(str(tmp_path / "big.png"), np.zeros((720, 1280, 3), np.uint8))
    code = main(["detect", str(tmp_path / "big.png"), "--calibration", str(cal_file)])
    _one_line_error(capsys, code, 1, "calibrate again")


def test_a_broken_calibration_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "cal.json").write_text("{nope")
    cv2.imwrite(str(tmp_path / "t.png"), np.zeros((36, 64, 3), np.uint8))
    code = main(["detect", str(tmp_path / "t.png"), "--calibration", str(tmp_path / "cal.json")])
    _one_line_error(capsys, code, 1, "cal.json")


def test_detect_on_a_devscene(devscenes, tmp_path: Path, capsys) -> None:
    _, cal, truth = load_devscene(devscenes, "dev-scene14")
    cal.save(tmp_path / "cal.json")
    code = main(["detect", str(devscenes / "dev-scene14.jpg"), "--calibration",
                 str(tmp_path / "cal.json"), "--game", "worm-derby"])
    assert code == 0
    scene = json.loads(capsys.readouterr().out)
    kinds = [p["kind"] for p in scene["pieces"]]
    assert kinds.count("coin") == sum(1 for p in truth["pieces"] if p["kind"] == "coin")
    assert kinds.count("tile") == sum(1 for p in truth["pieces"] if p["kind"] == "tile")
    for p in scene["pieces"]:
        if p["kind"] == "tile":
            assert 0 <= p["angle_deg"] < 90 and p["face"] in ("up", "down")

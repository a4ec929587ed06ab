"""The sample playthrough frame by frame (each frame alone), printed sheets, single-image hands."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.mat import make_mat
from calibration.model import Calibration
from tabletop.cli import main
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.sheets import find_sheets, sheets_from_calibration

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"


def _sample_frames() -> list[dict]:
    if not (SAMPLE / "truth.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")
    return [json.loads(line) for line in (SAMPLE / "truth.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def sample_results() -> list[tuple[dict, object]]:
    frames = _sample_frames()
    cal = Calibration.load(SAMPLE / "calibration.json")
    det = Detector(cal, config=DetectorConfig.for_game("worm-derby", memory=None))
    return [(t, det.detect(cv2.imread(str(SAMPLE / t["frame"])))) for t in frames]


def test_each_sample_frame_alone_gets_its_hand_flag(sample_results) -> None:
    wrong = [t["frame"] for t, res in sample_results if res.scene.hand != t["hand"]]
    assert wrong == []


def test_the_mat_is_never_read_as_pieces_on_still_sample_frames(sample_results) -> None:
    for t, res in sample_results:
        if t["hand"]:
            continue
        want = Counter(p["kind"] for p in t["scene"]["pieces"])
        got = Counter(p.kind for p in res.scene.pieces)
        assert got == want, t["frame"]
        # and nothing on the mat (x 0-210, y 0-297 in the mat's frame)
        assert not [p for p in res.scene.pieces if p.x_mm < 215 and p.y_mm < 300], t["frame"]


def test_detect_on_a_sample_frame_skips_the_mat(capsys) -> None:
    _sample_frames()
    code = main(["detect", str(SAMPLE / "frames" / "001.jpg"), "--calibration",
                 str(SAMPLE / "calibration.json")])
    assert code == 0
    scene = json.loads(capsys.readouterr().out)
    assert Counter(p["kind"] for p in scene["pieces"]) == {"tile": 6, "coin": 10}
    assert scene["hand"] is False


def test_a_mat_calibration_names_its_sheet() -> None:
    cal = Calibration((640, 480), np.eye(3), extra={"mat": {"size_mm": [210.0, 297.0]}})
    (rect,) = sheets_from_calibration(cal)
    assert rect.tolist() == [[0, 0], [210, 0], [210, 297], [0, 297]]
    assert sheets_from_calibration(Calibration((640, 480), np.eye(3))) == []


@pytest.mark.parametrize("angle", [0.0, 33.0])
def test_a_mat_lying_anywhere_is_found_and_masked(angle: float) -> None:
    render = pytest.importorskip("tabletop.render")
    mat = make_mat("a4", dpi=100)
    decal = render.Decal.of(mat.image_bgr, mat.size_mm, (-150.0, 0.0), angle)
    pieces = (Piece("coin", 120.0, 0.0, suit="suns"), Piece.tile(150.0, 80.0, 10.0, "down"))
    r = render.render_scene(Scene(pieces), render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=10, image_size=(960, 540), hfov_deg=60),
        render.RenderSettings(seed=3, table="wood", supersample=1), decals=[decal])
    cal = r.calibration()
    found = find_sheets(r.image, cal)
    assert set(found) == {"mat"}
    # the fitted sheet's corners are where the decal's are (any order)
    true = decal.corners_mm()
    d = np.linalg.norm(found["mat"][:, None] - true[None], axis=2).min(axis=1)
    assert d.max() < 4.0
    res = Detector(cal, config=DetectorConfig.for_game("worm-derby")).detect(r.image)
    assert Counter(p.kind for p in res.scene.pieces) == {"coin": 1, "tile": 1}
    assert not res.scene.hand


@pytest.mark.parametrize(("seed", "hand"), [(601, True), (602, False), (603, True),
                                            (604, False)])
def test_a_hand_is_seen_on_a_single_rendered_image(seed: int, hand: bool) -> None:
    render = pytest.importorskip("tabletop.render")
    scene = Scene((Piece("coin", 0.0, 0.0, suit="arms"), Piece("coin", 19.1, 0.0, suit="arms"),
                   Piece.tile(-90.0, 60.0, 20.0, "up", "moons"), Piece("post", 80.0, -50.0)))
    r = render.render_scene(scene, render.CameraPose.looking_at(
        (0, 0), height_mm=850, tilt_deg=12, image_size=(960, 540), hfov_deg=62),
        render.RenderSettings.random(seed, hand=hand, glare=0.0, supersample=1))
    det = Detector(r.calibration(), config=DetectorConfig.for_game("worm-derby", memory=None))
    assert det.detect(r.image).scene.hand is hand


def test_a_jungle_board_is_never_read_as_pieces() -> None:
    render = pytest.importorskip("tabletop.render")
    from calibration.jungle_board import make_board
    from tabletop.boards import jungle as g

    board = make_board(dpi=60)
    decal = render.Decal.of(board, g.PAGE_MM, (-60.0, 0.0), 90.0)
    r = render.render_scene(Scene((Piece("coin", 230.0, 40.0, suit="moons"),)),
                            render.CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=8,
                                                         image_size=(960, 540), hfov_deg=62),
                            render.RenderSettings(seed=4, table="felt", supersample=1),
                            decals=[decal])
    cal = r.calibration()
    found = find_sheets(r.image, cal)
    assert set(found) == {"board"}
    d = np.linalg.norm(found["board"][:, None] - decal.corners_mm()[None], axis=2).min(axis=1)
    assert d.max() < 5.0
    res = Detector(cal, config=DetectorConfig.for_game("worm-derby")).detect(r.image)
    assert [p.kind for p in res.scene.pieces] == ["coin"]


def test_the_sample_played_live_gets_every_hand_flag() -> None:
    frames = _sample_frames()
    cal = Calibration.load(SAMPLE / "calibration.json")
    det = Detector(cal, config=DetectorConfig.for_game("worm-derby"))
    seen = [det.detect(cv2.imread(str(SAMPLE / t["frame"]))).scene.hand for t in frames]
    assert seen == [t["hand"] for t in frames]

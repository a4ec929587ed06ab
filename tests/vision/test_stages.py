"""Stages that the devscenes do not show: tokens (ArUco) and Worm Up segments."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.model import Calibration
from tabletop.markers import ARUCO_DICTIONARY
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig


def test_a_marker_token_is_read_with_its_id_and_place() -> None:
    size = (640, 480)
    img = np.full((480, 640, 3), 170, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    marker = cv2.aruco.generateImageMarker(dictionary, 120, 60)
    img[200:260, 300:360] = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)
    img[100:160, 100:160] = cv2.cvtColor(cv2.aruco.generateImageMarker(dictionary, 3, 60),
                                         cv2.COLOR_GRAY2BGR)  # a mat id: not a token
    cal = Calibration(size, np.diag([0.5, 0.5, 1.0]))  # 2 px per mm, seen from straight above
    res = Detector(cal, config=DetectorConfig.for_game("jungle")).detect(img)
    tokens = [p for p in res.scene.pieces if p.kind == "token"]
    assert [t.id for t in tokens] == [120]
    # the marker's centre is at pixel (329.5, 229.5), i.e. (164.75, 114.75) mm
    assert tokens[0].x_mm == pytest.approx(164.75, abs=1.0)
    assert tokens[0].y_mm == pytest.approx(114.75, abs=1.0)


def test_segments_are_found_and_named_by_colour() -> None:
    render = pytest.importorskip("tabletop.render")
    colours = ["red", "yellow", "green", "blue", "purple"]
    segments = [Piece("segment", -120.0 + 60 * i, 0.0, color=c) for i, c in enumerate(colours)]
    scene = Scene((*segments, Piece("coin", 0.0, 80.0, suit="suns")))
    r = render.render_scene(scene, render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=12, image_size=(800, 450), hfov_deg=55),
        render.RenderSettings(seed=5, table="linen", supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up")).detect(r.image)
    segs = sorted((p for p in res.scene.pieces if p.kind == "segment"), key=lambda p: p.x_mm)
    assert [p.color for p in segs] == colours
    for p, x in zip(segs, [-120.0 + 60 * i for i in range(5)], strict=True):
        assert abs(p.x_mm - x) < 3.0 and abs(p.y_mm) < 3.0

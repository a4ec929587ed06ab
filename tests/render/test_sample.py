"""The bundled sample playthrough (``sample_images/worm_derby``) is complete and consistent."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.model import Calibration
from tabletop.cli import main
from tabletop.events import Roll, Setup, parse_event
from tabletop.scene import Scene

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"


def _jsonl(name: str) -> list[dict]:
    return [json.loads(line) for line in (SAMPLE / name).read_text().splitlines() if line]


@pytest.fixture(scope="module")
def script() -> list[dict]:
    return _jsonl("script.jsonl")


@pytest.fixture(scope="module")
def truth() -> list[dict]:
    return _jsonl("truth.jsonl")


def test_script_is_setup_then_frames_and_rolls_in_order(script):
    assert isinstance(parse_event(script[0]["event"]), Setup)
    frames = [line["frame"] for line in script if "frame" in line]
    assert frames == [f"frames/{i:03d}.jpg" for i in range(len(frames))]
    assert 20 <= len(frames) <= 30
    rolls = [parse_event(line["event"]) for line in script[1:] if "event" in line]
    assert rolls and all(isinstance(r, Roll) and r.value in "2345" for r in rolls)
    players = [r.player for r in rolls]
    assert all(a != b for a, b in itertools.pairwise(players))  # turns alternate


def test_frames_are_webcam_jpegs_and_small_enough(script):
    total = 0
    for line in script:
        if "frame" in line:
            path = SAMPLE / line["frame"]
            total += path.stat().st_size
            assert cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_8).shape == (90, 160, 3)
    assert total < 5_000_000


def test_truth_has_one_scene_per_frame_with_hand_frames_marked(script, truth):
    frames = [line["frame"] for line in script if "frame" in line]
    assert [t["frame"] for t in truth] == frames
    hands = [t["hand"] for t in truth]
    assert hands[0] is False and hands[-1] is False and 8 <= sum(hands) <= 14
    for t in truth:
        scene = Scene.from_json(t["scene"])
        assert scene.hand == t["hand"] and len(t["pixels"]) == len(scene)


def test_record_holds_each_still_table_once(script, truth):
    record = [parse_event(obj) for obj in _jsonl("record.jsonl")]
    assert isinstance(record[0], Setup)
    stills = []
    for t in truth:
        if not t["hand"] and (not stills or stills[-1] != t["scene"]["pieces"]):
            stills.append(t["scene"]["pieces"])
    scenes = [e.scene.to_json()["pieces"] for e in record if hasattr(e, "scene")]
    assert scenes == stills
    rolls = [e for e in record if isinstance(e, Roll)]
    assert [r.to_json() for r in rolls] == [line["event"] for line in script[1:]
                                             if "event" in line]


def test_calibration_maps_truth_pixels_to_the_pieces_mm(truth):
    cal = Calibration.load(SAMPLE / "calibration.json")
    assert tuple(cal.image_size) == (1280, 720)
    for t in truth[::6]:
        scene = Scene.from_json(t["scene"])
        px = [p["centre_px"] for p in t["pixels"]]
        np.testing.assert_allclose(cal.to_table(px), scene.centres_mm(), atol=0.01)


def test_referee_finds_the_one_illegal_turn(capsys):
    assert main(["referee", str(SAMPLE / "record.jsonl")]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    verdicts = [v for v in verdicts if v["type"] == "verdict"]
    assert [v["rule"] for v in verdicts if not v["legal"]] == ["steps"]
    assert sum(v["legal"] for v in verdicts) == 6

"""The centre net's training views: the stored top view gives the net's input exactly as the
run time makes it, and the hard-condition sampler pins only real choices on a share of the
seeds, leaving the others as ``draw_case(seed)`` draws them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from calibration.model import Calibration
from tabletop.render.variety import CLUTTER_KINDS, LIGHT_KINDS, TABLE_KINDS
from vision.centres_input import centre_input, centre_top, coarse_view, input_of_top

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from centre_sampler import pinned_choices

CAL = Calibration((320, 240), np.array([[1.0, 0, 160], [0, 1.0, 120], [0, 0, 1]]))


def test_stored_top_view_gives_the_run_times_input() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    view = coarse_view(CAL)
    top, level = centre_top(view, frame)
    assert top.dtype == np.uint8 and top.shape[:2] == view.valid.shape
    again = input_of_top(top, view.valid, level)
    assert np.array_equal(again, centre_input(view, frame))
    assert np.array_equal(top, centre_top(view, frame)[0])  # the input left it as it was


def test_ordinary_seeds_are_not_pinned() -> None:
    assert all(pinned_choices(s, 0.0) == {} for s in range(400, 600))


def test_hard_seeds_pin_real_choices_on_their_share() -> None:
    picks = [pinned_choices(s, 0.6) for s in range(400, 1400)]
    share = sum(bool(p) for p in picks) / len(picks)
    assert 0.54 < share < 0.66
    for p in picks:
        assert set(p) <= {"table", "light", "clutter"}
        assert p.get("table", TABLE_KINDS[0]) in TABLE_KINDS
        assert p.get("light", LIGHT_KINDS[0]) in LIGHT_KINDS
        assert p.get("clutter", CLUTTER_KINDS[0]) in CLUTTER_KINDS
    assert pinned_choices(1234, 0.6) == pinned_choices(1234, 0.6)


def _one_view():
    from train_centres import View

    top = np.full((300, 360, 3), 90, np.uint8)
    valid = np.ones((300, 360), np.uint8)
    centres = np.array([[150.0, 120.0, 1, 1], [260.0, 200.0, 0, 1]], np.float32)
    top[110:131, 140:161] = 220  # a pale tile, 42 mm a side, at (150, 120)
    yy, xx = np.mgrid[0:300, 0:360]
    top[(xx - 260) ** 2 + (yy - 200) ** 2 <= 25] = 200  # a coin at (260, 200)
    store = {"top0": top, "valid0": valid}
    return View(store, 0, centres, 100.0, 1, {"table_family": "wood", "light": "soft",
                                                  "clutter": "none"})


def test_training_crops_keep_targets_on_their_pieces() -> None:
    from train_centres import STRIDE, sample

    v = _one_view()
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(6):
        xb, tb, _ = sample([v], rng, 4)
        for x, t in zip(xb, tb, strict=True):
            for k in range(2):
                if t[k].max() < 0.9:
                    continue
                y, x_ = np.unravel_index(np.argmax(t[k]), t[k].shape)
                py, px = y * STRIDE, x_ * STRIDE
                # under every turn, mirror, exposure and blind, the piece is brighter there
                # than around it
                assert x[1, py, px] > x[1, py, px - 14 if px >= 14 else px + 14] + 0.2
                seen += 1
    assert seen >= 6


def test_blind_bands_take_their_share_of_the_light() -> None:
    from train_centres import blind_bands

    for s in range(5):
        f = blind_bands(200, 200, np.random.default_rng(s))
        assert 0.39 <= f.min() < 0.71 and f.max() == 1.0
        assert 0.15 < float(np.mean(f < 0.99)) < 0.8


def test_fine_tuning_starts_from_what_the_export_computes() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import cv2
    from centres_model import CentreNet, load_onnx_weights

    from vision.centres import MODEL

    width = json.loads(MODEL.with_suffix(".json").read_text())["width"]
    model = CentreNet(width)
    load_onnx_weights(model, str(MODEL))
    model.eval()
    x = np.random.default_rng(0).uniform(-1, 1, (1, 7, 64, 96)).astype(np.float32)
    x[0, 6] = 1.0
    net = cv2.dnn.readNetFromONNX(str(MODEL))
    net.setInput(x)
    with torch.no_grad():
        assert np.abs(model(torch.from_numpy(x)).numpy() - net.forward()).max() < 1e-4

"""The learned namer: the committed weights load through cv2.dnn and name pieces on renders
of seeds that took no part in training (the training seeds lie below 50,000)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tabletop.render.variety import draw_case
from vision.errors import VisionError
from vision.namer import MODEL, Namer, NamerConfig
from vision.namer_classes import CLASSES, KIND_OF, class_of

UNSEEN_SEEDS = (987_001, 987_002, 987_003, 987_004)


@pytest.fixture(scope="module")
def namer() -> Namer:
    return Namer(NamerConfig())


@pytest.fixture(scope="module")
def named() -> tuple[np.ndarray, np.ndarray]:
    """(true class, named class) of every piece in full view and of bare table points."""
    net = Namer(NamerConfig())
    true, said = [], []
    for seed in UNSEEN_SEEDS:
        case = draw_case(seed, hand=False, clutter="none")
        r = case.render()
        cal = r.calibration()
        img = np.ascontiguousarray(r.image)
        pts, labels = [], []
        for p, t in zip(r.scene.pieces, r.truth, strict=True):
            if p.kind in ("coin", "tile", "post") and not t.occluded:
                pts.append((p.x_mm, p.y_mm))
                labels.append(class_of(p.to_json()))
        rng = np.random.default_rng(seed)
        w, h = r.pose.image_size
        for _ in range(20):  # bare table: 40 mm from every piece
            x, y = cal.to_table([[rng.uniform(0.08, 0.92) * w, rng.uniform(0.08, 0.92) * h]])[0]
            if all(math.hypot(p.x_mm - x, p.y_mm - y) > 40 for p in r.scene.pieces):
                pts.append((x, y))
                labels.append(CLASSES.index("nothing"))
        p = net.probabilities(img, cal, np.array(pts))
        true += labels
        said += list(p.argmax(axis=1))
    return np.array(true), np.array(said)


def test_committed_weights_carry_their_figures() -> None:
    meta = json.loads(MODEL.with_suffix(".json").read_text())
    assert tuple(meta["classes"]) == CLASSES
    assert meta["val_figures"]["accuracy"] > 0.9
    assert meta["onnx_vs_torch_max_abs"] < 1e-3


def test_namer_knows_the_kind_of_pieces_on_unseen_renders(named) -> None:
    """Coins and tiles (the kinds it judges) are seen as their kind, not as nothing."""
    true, said = named
    kind = np.array(KIND_OF, dtype=object)
    judged = np.isin(kind[true], ("coin", "tile"))
    assert judged.sum() > 30
    assert np.mean(kind[said[judged]] == kind[true[judged]]) >= 0.97


def test_namer_names_coins_and_tiles_on_unseen_renders(named) -> None:
    true, said = named
    kind = np.array(KIND_OF, dtype=object)
    judged = np.isin(kind[true], ("coin", "tile"))
    assert np.mean(said[judged] == true[judged]) >= 0.9


def test_namer_sees_no_piece_on_bare_table(named) -> None:
    true, said = named
    bare = true == CLASSES.index("nothing")
    assert bare.sum() > 20
    assert np.mean(said[bare] == true[bare]) >= 0.95


def test_probabilities_sum_to_one(namer) -> None:
    img = np.full((360, 640, 3), 120, np.uint8)
    from calibration.model import Calibration

    cal = Calibration((640, 360), np.array([[1.0, 0, -320], [0, 1.0, -180], [0, 0, 1]]))
    p = namer.probabilities(img, cal, [[0.0, 0.0], [30.0, 10.0]])
    assert p.shape == (2, len(CLASSES))
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4)


def test_missing_weights_are_a_one_line_error(tmp_path) -> None:
    with pytest.raises(VisionError, match="namer"):
        Namer(NamerConfig(model=tmp_path / "none.onnx"))

"""The one-frame hand cue (:func:`vision.hands.detect_hands` and its learned judge): a hand or
an arm reaching in from the border is a hand on any table; a mug, a page, a lamp's glare or a
blind's stripes is not; and a hand's cells hug the hand, so pieces beside it are not under it.

Each frame is judged alone (no table memory), as a single photo, the dashboard's still frame or
the first frame of a game is; the cases are the renderer's randomised tables at fixed seeds.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import Detector, DetectorConfig
from vision.errors import VisionError
from vision.hand_features import N_FEATURES
from vision.hand_judge import HandJudge, HandJudgeConfig

render = pytest.importorskip("tabletop.render")
variety = pytest.importorskip("tabletop.render.variety")

pytestmark = pytest.mark.xdist_group("hand_judge")


class _Watched(Detector):
    """A detector that keeps the hand's cells of the grid it last watched."""

    hand_cells: np.ndarray | None = None

    def _watch(self, frame, explained, cells, tm):  # type: ignore[override]
        out = super()._watch(frame, explained, cells, tm)
        self.hand_cells = out[1]
        return out


def _judged(case) -> tuple[_Watched, object, object]:
    """The case's render, and the detector's reading of it alone (the hand-made stages find the
    pieces, as live; the learned piece stages are not needed for the hand)."""
    r = case.render()
    det = _Watched(r.calibration(), config=DetectorConfig(
        kinds=("tile", "coin", "post"), memory=None, namer=None, centres=None))
    return det, r, det.detect(r.image)


def _cover(det: Detector, r) -> np.ndarray:
    """The share of each grid cell the rendered hand covers."""
    sw, sh = det.hand_grid.size_wh
    return cv2.resize(r.hand_mask.astype(np.float32), (sw, sh), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(("seed", "pinned"), [
    (57900, {"clutter": "mug"}),
    (57901, {"clutter": "page"}),
    (57902, {"clutter": "notebook"}),
    (57903, {"light": "glare", "table": "glossy-white"}),
    (57904, {"light": "blind"}),
])
def test_a_mug_a_page_glare_or_a_blinds_stripe_is_not_a_hand(seed: int, pinned: dict) -> None:
    case = variety.draw_case(seed, hand=False, **pinned)
    _, r, res = _judged(case)
    assert not r.hand_mask.any()
    assert not res.hand, f"{case.name} {dict(case.conditions)} read as a hand"


@pytest.mark.parametrize("seed", [57905, 57907, 57909])
def test_an_arm_from_the_border_is_a_hand(seed: int) -> None:
    case = variety.draw_case(seed, hand=True)
    det, r, res = _judged(case)
    assert r.hand_mask.any()
    assert res.hand, f"{case.name} {dict(case.conditions)}: the hand was not seen"
    # the cells flagged lie on the hand or next to it, and hold most of it
    cover = _cover(det, r)
    near = cv2.dilate((cover > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    cells = det.hand_cells > 0
    assert np.count_nonzero(cells & near) >= 0.9 * np.count_nonzero(cells)
    assert np.count_nonzero(cells & (cover > 0.5)) >= 0.7 * np.count_nonzero(cover > 0.5)


@pytest.mark.parametrize("seed", [57905, 57907])
def test_pieces_beside_a_hand_are_not_under_its_cells(seed: int) -> None:
    case = variety.draw_case(seed, hand=True)
    det, r, res = _judged(case)
    assert res.hand
    # pieces whose centre is 30 px (four cells) or more from the hand and arm: beside it, not
    # under its fingertips (a cell round the hand is left out on purpose: phantoms at its rim)
    clear = cv2.erode((~r.hand_mask).astype(np.uint8), np.ones((61, 61), np.uint8)) > 0
    px = np.array([r.calibration().to_image(np.array([[p.x_mm, p.y_mm]]))[0]
                   for p in case.scene.pieces]).reshape(-1, 2)
    inside = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < r.image.shape[1]) & (
        px[:, 1] < r.image.shape[0])
    uv = np.clip(px.astype(int), 0, [r.image.shape[1] - 1, r.image.shape[0] - 1])
    beside = inside & clear[uv[:, 1], uv[:, 0]]
    assert np.count_nonzero(beside) >= 3
    under = det.hand_grid.covers(det.hand_cells, px[beside])
    assert np.count_nonzero(under) <= 0.1 * np.count_nonzero(beside)


def test_the_committed_judge_reads_the_features_the_cue_makes() -> None:
    judge = HandJudge(HandJudgeConfig())
    assert judge.forest.getVarCount() == N_FEATURES
    assert judge.scores(np.zeros((0, N_FEATURES))).shape == (0,)


def test_a_missing_judge_model_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "hands.yml.gz"
    with pytest.raises(VisionError, match="hands.yml.gz"):
        HandJudge(HandJudgeConfig(model=missing))

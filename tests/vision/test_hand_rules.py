"""The hand-set rules beside the learned hand judge pass a large blob reaching in from the
border (an arm), but not one that runs from border to border (a blind's stripe, a plank, a
sheet's edge), which an arm never does; and they overrule the judge only for a blob coloured
like the table, reaching in from the border."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.hand_features import FEATURES
from vision.hand_maps import HandMaps
from vision.hands import HandConfig, by_rules, overrulable


def _maps(rows: int = 90, cols: int = 160, cell_mm2: float = 16.0) -> HandMaps:
    return HandMaps(np.zeros((rows, cols, 3), np.uint8), np.zeros((rows, cols), np.float32),
                    np.ones((rows, cols), bool), np.full((rows, cols), cell_mm2, np.float32))


def test_an_arm_from_one_border_passes_the_rules() -> None:
    blob = np.zeros((90, 160), bool)
    blob[40:90, 70:92] = True  # 1100 cells of 16 mm²: 17600 mm² from the bottom border
    assert by_rules(HandConfig(), _maps(), blob)


def test_a_stripe_from_border_to_border_does_not_pass_the_rules() -> None:
    blob = np.zeros((90, 160), bool)
    blob[0:90, 70:82] = True  # the same area, top border to bottom border
    assert not by_rules(HandConfig(), _maps(), blob)
    # as the rules were before: any blob large and deep enough from the border
    assert by_rules(replace(HandConfig(), rules_cross_once=False), _maps(), blob)


def _features(border: float, chroma_z: float) -> np.ndarray:
    f = np.zeros(len(FEATURES), np.float32)
    f[FEATURES.index("border")] = border
    f[FEATURES.index("chroma_z")] = chroma_z
    return f


def test_the_rules_overrule_the_judge_only_for_a_blob_coloured_like_the_table() -> None:
    # a tan hand on oak: near the table's colour, from the border
    # a blue page, a phone, a check reaching in: its colour stands out, the judge's word stands
    # a blob inside the frame: no arm reaches in there
    # a blind's stripe: the table's own chroma in less light
    f = np.stack([_features(1.0, 0.7), _features(1.0, 4.0), _features(0.0, 0.7),
                  _features(1.0, 0.2)])
    assert overrulable(HandConfig(), f).tolist() == [True, False, False, False]
    assert overrulable(replace(HandConfig(), rules_max_chroma_z=None), f).all()

"""The root test (:mod:`vision.hand_roots`): an arm reaches into the view from beyond it, over a
wrist's width at least; a thing inside the view tied to the border by a lace of foreign cells
(a blind's stripe across a notebook, a mug's long shadow) is no hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.detector import Detector, DetectorConfig
from vision.hand_features import FEATURES
from vision.hand_roots import RootTestConfig, narrow_root
from vision.hands import HandConfig

variety = pytest.importorskip("tabletop.render.variety")


def _features(border_mm: float) -> np.ndarray:
    f = np.zeros(len(FEATURES), np.float32)
    f[FEATURES.index("border")] = float(border_mm > 0)
    f[FEATURES.index("border_mm")] = border_mm
    return f


def test_a_blob_meeting_the_border_over_less_than_a_wrist_is_no_arm() -> None:
    # a lace of one cell, a shadow's tail, an arm, a blob wholly inside the view
    f = np.stack([_features(8.0), _features(21.0), _features(86.0), _features(0.0)])
    assert narrow_root(RootTestConfig(), f).tolist() == [True, True, False, False]


def test_a_blob_the_judge_is_sure_of_keeps_its_narrow_root() -> None:
    f = np.stack([_features(21.0), _features(21.0)])
    votes = np.array([0.95, 0.6])
    assert narrow_root(RootTestConfig(), f, votes).tolist() == [False, True]
    assert narrow_root(replace(RootTestConfig(), judge_sure=None), f, votes).tolist() == [
        True, True]


def _hand_read(case, hands: HandConfig) -> bool:  # type: ignore[no-untyped-def]
    r = case.render()
    det = Detector(r.calibration(), config=DetectorConfig(
        kinds=("tile", "coin", "post"), memory=None, centres=None, hands=hands))
    return bool(det.detect(r.image).scene.hand)


@pytest.mark.xdist_group("hand_judge")
def test_a_notebook_tied_to_the_border_by_a_blinds_stripe_is_no_hand() -> None:
    """A tuning render of session 25 (520012: a notebook on pine under a blind, read alone as
    the bench reads a frame): the stripes' edges tie the notebook's blob to the top border by
    a lace one cell wide; the judge gives it 0.49 of its votes."""
    case = variety.draw_case(520012, hand=False, clutter="notebook")
    assert (case.conditions["table"], case.conditions["light"]) == ("pine", "blind")
    assert _hand_read(case, HandConfig()) is False
    assert _hand_read(case, replace(HandConfig(), root=None)) is True  # without the test


@pytest.mark.xdist_group("hand_judge")
def test_an_arm_reaching_in_over_the_narrowest_root_of_the_tuning_hands_is_a_hand() -> None:
    """The tuning hand (session 25, 521026 as the bench draws it: beige laminate under a blind)
    whose blob meets the border over the least of the 30, 86 mm."""
    case = variety.draw_case(521026, hand=True)
    assert _hand_read(case, HandConfig()) is True

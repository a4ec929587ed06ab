"""The sheet test on a rendered frame (:mod:`vision.hand_sheets`): a notebook lying on walnut under
a lamp's glare, which the hand judge alone reads as a hand, is no hand; the arm reaching over the
same table, light and notebook still is one. The table is drawn as ``training/make_hands.py
--pairs --light glare`` draws it (tuning seed 263521), each frame read alone as there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.detector import Detector, DetectorConfig
from vision.hands import HandConfig

variety = pytest.importorskip("tabletop.render.variety")

pytestmark = pytest.mark.xdist_group("hand_judge")


def _read(case, hands: HandConfig) -> bool:
    r = case.render()
    det = Detector(r.calibration(), config=DetectorConfig(
        kinds=("tile", "coin", "post"), memory=None, centres=None, hands=hands))
    return det.detect(r.image).scene.hand


@pytest.fixture(scope="module")
def notebook_under_glare():
    case = variety.draw_case(263521, hand=True, light="glare", clutter="notebook")
    assert case.conditions["table"] == "walnut"
    return case


def test_a_notebook_under_glare_is_not_a_hand(notebook_under_glare) -> None:
    bare = replace(notebook_under_glare,
                   settings=replace(notebook_under_glare.settings, hand=False))
    assert _read(bare, replace(HandConfig(), sheet=None)), "the judge alone no longer errs here"
    assert not _read(bare, HandConfig())


def test_the_arm_beside_the_notebook_is_still_a_hand(notebook_under_glare) -> None:
    assert _read(notebook_under_glare, HandConfig())

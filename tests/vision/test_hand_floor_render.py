"""The floor beyond the table's edge, read alone, is no hand (:mod:`vision.hand_edges`); the
same table with an arm reaching over it still shows a hand. A tuning render of session 18
(seed 286038, as the bench draws it: marble under a dim warm lamp, a page, the floor in a
corner of the view), read by the detector alone (no table memory) as the bench reads it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.detector import Detector, DetectorConfig

variety = pytest.importorskip("tabletop.render.variety")

pytestmark = pytest.mark.xdist_group("hand_judge")

SEED = 286038


def _hand_read(case) -> bool:  # type: ignore[no-untyped-def]
    r = case.render()
    det = Detector(r.calibration(), config=DetectorConfig(
        kinds=("tile", "coin", "post"), memory=None, centres=None))
    return bool(det.detect(r.image).scene.hand)


def test_the_floor_beyond_a_marble_tables_edge_is_no_hand_and_an_arm_over_it_is() -> None:
    case = variety.draw_case(SEED, hand=False)
    assert _hand_read(case) is False
    with_arm = replace(case, settings=replace(case.settings, hand=True))
    assert _hand_read(with_arm) is True


def test_an_arm_at_a_corner_of_a_checked_cloth_the_judge_is_sure_of_is_a_hand() -> None:
    """``EdgeTestConfig.judge_sure``: the arm reaches in at the top left corner of a small
    checked cloth, its lower side a straight line from the left border nearly to the top one,
    the line past its fingers hidden by pieces: it lies beyond that line as the floor in a
    corner would, but the judge is sure of it (0.97 of its votes; the floors it passed 0.4-0.8).
    A tuning render of session 24 (462503, as the bench draws it)."""
    case = variety.draw_case(462503, hand=True)
    assert case.conditions["table"] == "checks-small"
    r = case.render()
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("tile", "coin", "post"),
                                                          memory=None))
    assert det.detect(r.image).scene.hand

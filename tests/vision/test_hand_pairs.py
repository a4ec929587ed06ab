"""The hand judge's data maker (``training/make_hands.py --pairs``): a table drawn with a hand is
kept twice, with the hand and without it, the same table round it, so the judge sees what the
hand alone changes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

pytest.importorskip("tabletop.render")

from training.make_hands import record

pytestmark = pytest.mark.xdist_group("hand_judge")


def test_a_pair_is_one_table_with_its_hand_and_without() -> None:
    with_hand, without = record(176990, hand=True, pair=True)
    assert with_hand["seed"] == without["seed"] == 176990
    assert all(with_hand[k] == without[k] for k in ("table", "light", "clutter"))
    assert with_hand["hand"] and not without["hand"]
    assert float(np.asarray(with_hand["cover"]).max()) > 0.5
    assert not np.asarray(without["cover"]).any()
    # away from the hand (and its shadow) the two frames are the same table
    near = cv2.dilate((np.asarray(with_hand["cover"]) > 0).astype(np.uint8),
                      np.ones((31, 31), np.uint8)) > 0
    away = ~near & np.asarray(with_hand["use"]) & np.asarray(without["use"])
    assert away.sum() > 1000
    diff = np.abs(np.asarray(with_hand["small"], np.float32)
                  - np.asarray(without["small"], np.float32))[away]
    assert float(np.median(diff)) < 2.0
    # ... and under the hand they are not
    under = (np.asarray(with_hand["cover"]) > 0.9) & np.asarray(with_hand["use"])
    assert under.any()
    moved = np.abs(np.asarray(with_hand["small"], np.float32)
                   - np.asarray(without["small"], np.float32))[under].max(axis=1)
    assert float(np.median(moved)) > 10.0


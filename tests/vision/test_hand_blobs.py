"""Candidate blobs of the one-frame hand cue: foreign cells tied by a thin lace make one blob;
opened (``ForeignConfig.open_cells``), a blob as wide as an arm stays whole and the lace is
cut, so a mug and the plank's seam beside it are judged apart."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.hand_features import Foreign, ForeignConfig, candidate_blobs
from vision.hand_maps import HandMaps

ROWS, COLS = 90, 160


def _scene() -> tuple[HandMaps, Foreign]:
    """An arm from the bottom border (12 cells wide) and a mug's blob tied to it by a lace one
    cell wide."""
    score = np.zeros((ROWS, COLS), np.float32)
    score[20:90, 70:82] = 5.0   # the arm
    score[20:32, 20:32] = 5.0   # the mug and its shadow
    score[26, 32:70] = 5.0      # a plank's dark seam between them
    z3 = np.zeros((ROWS, COLS, 3), np.float32)
    maps = HandMaps(np.zeros((ROWS, COLS, 3), np.uint8), np.zeros((ROWS, COLS), np.float32),
                    np.ones((ROWS, COLS), bool), np.full((ROWS, COLS), 49.0, np.float32))
    fg = Foreign(score, score, z3, z3 + 1.0, np.zeros((ROWS, COLS), np.float32),
                 np.full(3, 0.05))
    return maps, fg


def test_a_lace_ties_two_blobs_when_not_opened() -> None:
    maps, fg = _scene()
    _, ids = candidate_blobs(ForeignConfig(open_cells=0), maps, fg)
    assert len(ids) == 1


def test_opened_the_lace_is_cut_and_the_arm_stays_whole() -> None:
    maps, fg = _scene()
    labels, ids = candidate_blobs(replace(ForeignConfig(), open_cells=2), maps, fg)
    assert len(ids) == 2
    arm = [i for i in ids if (labels == i)[89].any()]
    assert len(arm) == 1
    assert np.count_nonzero(labels == arm[0]) == 70 * 12  # every cell of the arm
    assert not (labels[26, 40:60] > 0).any()  # the lace is gone

"""The segment judge's committee: forests trained on their own renders, each reading the first
columns of the features it was trained on, their trees' votes pooled."""

from __future__ import annotations

import numpy as np

from training.forests import forest
from vision.segment_features import N_FEATURES, N_RING
from vision.segment_judge import SegmentJudgeConfig, judge_for, pooled_votes


def rows(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Rows whose label is told by one dome column (only a forest of all the columns sees
    it)."""
    x = rng.uniform(0, 1, (n, N_FEATURES)).astype(np.float32)
    y = (x[:, N_RING + 2] > 0.5).astype(np.int32)
    return x, y


def test_a_forest_of_the_rings_reads_only_their_columns_and_votes_are_pooled_by_trees() -> None:
    rng = np.random.default_rng(3)
    x, y = rows(600, rng)
    ring = forest(x[:, :N_RING], y, 10, 6, 1)
    dome = forest(x, y, 30, 6, 1)
    probe = x[:50]
    a = pooled_votes([ring], probe)
    b = pooled_votes([dome], probe)
    both = pooled_votes([ring, dome], probe)
    assert np.allclose(both, (10 * a + 30 * b) / 40)


def test_the_dome_s_columns_tell_what_the_rings_alone_cannot() -> None:
    rng = np.random.default_rng(4)
    x, y = rows(1500, rng)
    test_x, test_y = rows(400, rng)
    ring = forest(x[:, :N_RING], y, 30, 8, 1)
    dome = forest(x, y, 30, 8, 1)
    right_ring = np.mean((pooled_votes([ring], test_x) >= 0.5) == test_y)
    right_dome = np.mean((pooled_votes([dome], test_x) >= 0.5) == test_y)
    assert right_dome > 0.9 > 0.65 > right_ring


def test_the_committed_judge_scores_every_candidate_between_0_and_1() -> None:
    judge = judge_for(SegmentJudgeConfig())
    assert len(judge.forests) == 2
    s = judge.scores(np.zeros((3, N_FEATURES), np.float32))
    assert s.shape == (3,) and np.all((s >= 0) & (s <= 1))
    assert judge.scores(np.zeros((0, N_FEATURES), np.float32)).shape == (0,)

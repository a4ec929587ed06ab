"""The hand judge's training (``training/train_hands.py``): a judge that keeps a committed
forest's trees beside new ones is one forest whose votes pool theirs, tree by tree."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training.forests import forest, scores
from training.train_hands import merge_forests, tree_count


def _data(seed: int, n: int = 200, features: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=0.5, size=n) > 0).astype(np.int32)
    return x, y


def test_a_merged_forest_votes_as_its_parts_weighted_by_their_trees(tmp_path: Path) -> None:
    x, y = _data(1)
    a, b = forest(x, y, 12, 6, 1), forest(*_data(2), 5, 4, 2)
    a.save(str(tmp_path / "a.yml.gz"))
    b.save(str(tmp_path / "b.yml.gz"))
    n = merge_forests([tmp_path / "a.yml.gz", tmp_path / "b.yml.gz"], tmp_path / "m.yml.gz")
    assert n == 17 == tree_count(tmp_path / "m.yml.gz")
    merged = cv2.ml.RTrees_load(str(tmp_path / "m.yml.gz"))
    pooled = (12 * scores(a, x) + 5 * scores(b, x)) / 17
    assert np.allclose(scores(merged, x), pooled)
    assert len(np.unique(pooled)) > 2  # the forests do not all vote alike


def test_forests_of_other_features_are_not_merged(tmp_path: Path) -> None:
    forest(*_data(1), 4, 4, 1).save(str(tmp_path / "a.yml.gz"))
    forest(*_data(2, features=7), 4, 4, 1).save(str(tmp_path / "b.yml.gz"))
    with pytest.raises(SystemExit, match="var_count"):
        merge_forests([tmp_path / "a.yml.gz", tmp_path / "b.yml.gz"], tmp_path / "m.yml.gz")

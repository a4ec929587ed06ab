"""training/compare_tiles.py: a retrained tile judge is measured four-fold by seed, every row
judged by a forest that never saw its seed, beside the committed forest on the same rows."""

from __future__ import annotations

import numpy as np

from training.compare_tiles import figures, four_fold
from vision.tile_judge import BLOCK, NET


def test_every_row_is_judged_by_a_forest_that_never_saw_its_seed() -> None:
    rng = np.random.default_rng(3)
    seed = np.repeat(np.arange(12), 10)
    y = np.tile(np.r_[np.ones(6), np.zeros(4)], 12).astype(np.int32)
    x = rng.normal(0, 1, (len(y), 5)).astype(np.float32)
    x[:, 0] += 10 * y  # one feature tells tiles from other squares
    s = four_fold(x, y, seed, trees=20, depth=4, balance=True)
    assert s.shape == y.shape
    assert s[y == 1].min() > s[y == 0].max()


def test_figures_count_drops_per_veto_and_the_nets_sure_squares() -> None:
    y = np.array([1, 1, 0, 0])
    s = np.array([0.05, 0.9, 0.15, 0.85])
    source = np.array([BLOCK, NET, NET, NET])
    line = figures(y, s, source, 0.8)
    assert "0.1:1/0 0.2:1/1 0.3:1/1" in line
    assert "net tiles sure 1 of 1, net others sure 1 of 2" in line

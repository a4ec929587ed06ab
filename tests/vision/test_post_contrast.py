"""Post candidates from local contrast at a post's own scale (vision/post_contrast.py): a patch
one post wide that stands out of its own surroundings is a place to look, on a calm table and
on a noisy dark one alike, darker or lit; the table's own noise and a broad shade are not."""

from __future__ import annotations

import numpy as np

from vision.post_contrast import STEP, PostContrastConfig, standing_out

_CFG = PostContrastConfig()
_H = _W = 120


def _table(noise: float, seed: int) -> np.ndarray:
    """The centre net's input's ratio channels (log2 over the local median) of a plain table
    with the camera's noise (per pixel, independent per channel)."""
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, noise, (3, _H, _W)).astype(np.float32)


def _valid() -> np.ndarray:
    return np.full((_H, _W), 255, np.uint8)


def _at(z: np.ndarray, y: int, x: int) -> float:
    """The standing out at a sample of the input (z is read on every STEP-th)."""
    return float(z[y // STEP, x // STEP])


def _post(x: np.ndarray, cx: int, cy: int, ratio: tuple[float, float, float]) -> np.ndarray:
    """A post seen from above at 2 mm a pixel: 5 samples wide (10 mm), 8 long (its wall)."""
    for c in range(3):
        x[c, cy - 2:cy + 3, cx - 2:cx + 6] += ratio[c]
    return x


def test_a_dark_post_stands_out_of_a_calm_table() -> None:
    z = standing_out(_post(_table(0.05, 1), 40, 60, (-1.5, -1.5, -1.5)), _valid(), _CFG)
    assert _at(z, 60, 41) >= _CFG.min_z
    assert _at(z, 60, 100) < _CFG.min_z  # the table itself


def test_a_post_on_a_noisy_black_table_stands_out_at_its_own_scale() -> None:
    # a dim room's noise of 0.6 (log2) per pixel: no pixel alone tells the post, whose wall is
    # only 0.8 darker, but its mean over a post's width does
    for seed in (2, 3, 4):
        x = _post(_table(0.6, seed), 40, 60, (-0.8, -0.8, -0.8))
        z = standing_out(x, _valid(), _CFG)[5:-5, 5:-5]  # (the border: left out)
        y, x_ = np.unravel_index(int(np.argmax(z)), z.shape)
        assert z.max() >= _CFG.min_z
        # the noise stands out less
        assert abs((y + 5) * STEP - 60) <= 4 and abs((x_ + 5) * STEP - 41) <= 5


def test_a_lit_post_of_another_tint_stands_out_on_black_felt() -> None:
    # brighter than the felt in red only: unlike it, though darker in no channel
    z = standing_out(_post(_table(0.1, 4), 60, 60, (0.0, 0.0, 1.2)), _valid(), _CFG)
    assert _at(z, 60, 61) >= _CFG.min_z


def test_a_broad_shade_is_not_a_post() -> None:
    x = _table(0.05, 5)
    x[:, :, 60:] -= 1.0  # a shadow's edge across the whole table, far wider than a post
    z = standing_out(x, _valid(), _CFG)
    assert z[:, 64 // STEP:110 // STEP].max() < _CFG.min_z

"""The tile judge's features read all squares of a frame at once: each square's figures are
those it has alone, whatever else is read with it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tile_features import N_FEATURES, features_of, tile_features


def _table() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(4)
    shade = cv2.GaussianBlur((0.8 + 0.4 * rng.random((300, 400))).astype(np.float32),
                             (0, 0), 2)
    shade[100:150, 120:170] += 0.6  # a pale square of the tile's size
    top = cv2.GaussianBlur((rng.random((300, 400, 3)) * 255).astype(np.uint8), (0, 0), 1.5)
    return shade, top


def test_squares_read_together_have_the_figures_each_has_alone() -> None:
    shade, top = _table()
    centres = np.array([[145.0, 125.0], [250.0, 200.0], [90.0, 230.0], [330.0, 80.0]])
    angles = np.array([0.0, 17.0, -33.0, 44.0])
    sources = np.array([0, 1, 2, 3])
    together = features_of(shade, top, centres, angles, 50.0, sources)
    assert together.shape == (4, N_FEATURES) and together.dtype == np.float32
    alone = np.array([tile_features(shade, top, c, a, 50.0, int(s))
                      for c, a, s in zip(centres, angles, sources, strict=True)])
    np.testing.assert_array_equal(together, alone)
    reversed_ = features_of(shade, top, centres[::-1], angles[::-1], 50.0, sources[::-1])
    np.testing.assert_array_equal(reversed_[::-1], together)


def test_no_squares_give_no_rows() -> None:
    shade, top = _table()
    x = features_of(shade, top, np.zeros((0, 2)), np.zeros(0), 50.0, np.zeros(0, int))
    assert x.shape == (0, N_FEATURES)


def test_a_pale_square_steps_down_to_the_table_on_all_four_sides() -> None:
    shade, top = _table()
    f = tile_features(shade, top, np.array([144.5, 124.5]), 0.0, 50.0)
    steps = f[0:20:5]
    assert np.all(steps > 0.3)
    assert np.all(np.diff(steps) <= 0)  # the sides come sorted by their step

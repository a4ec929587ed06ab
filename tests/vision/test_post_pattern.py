"""A reading that repeats the table's own pattern is no post (vision/post_pattern.py), and the
post stage reads a bounded number of dark blobs (PostConfig.max_blobs)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.test_posts import _drawn_post, _view
from vision.post_pattern import PostPatternConfig, lattice_blobs, repeats_table
from vision.posts import PostConfig, dark_blobs, detect_posts, post_outline
from vision.prepare import Prepared

CFG = PostConfig(judge=None, pairs=None)  # the hand-set gates alone: no forest to overrule


def _cloth(h: int, w: int, size_px: int, dark: int, phase: int = 3) -> np.ndarray:
    """A gingham's level: bands ``size_px`` wide every ``2 * size_px`` across both axes, the
    squares where they cross at ``dark``, one band half way to the white (130: above the
    dark mask's 75, so each square is a blob of its own)."""
    yy, xx = np.mgrid[0:h, 0:w]
    rows = ((yy + phase) // size_px) % 2 == 0
    cols = ((xx + phase) // size_px) % 2 == 0
    amount = 0.5 * (rows.astype(np.float32) + cols)
    level = 130 - (130 - dark) * amount
    return cv2.GaussianBlur(level, (0, 0), 0.8).astype(np.uint8)


def _prepared(view, level: np.ndarray) -> Prepared:
    """A prepared frame of ``level`` (table = 100), dark below 75, its play area all but a
    margin of 10 px."""
    h, w = level.shape
    norm = cv2.merge([level] * 3)
    dark = np.where(level < 75, 255, 0).astype(np.uint8)
    z = np.zeros((h, w), np.uint8)
    valid = np.zeros((h, w), np.uint8)
    valid[10:-10, 10:-10] = 255
    return Prepared(view, norm, norm, level, z, dark, 3.0, level.astype(np.float32) / 100,
                    valid, ((0, 0, w, h),))


def _scene(with_post: bool, squares: int = 30) -> tuple[Prepared, np.ndarray]:
    view = _view(np.array([40.0, -60.0]))
    h, w = view.valid.shape
    level = _cloth(h, w, 11, squares)
    foot = np.array([w / 2, h / 2])
    if with_post:
        level = np.minimum(level, _drawn_post(view, CFG, foot, 25.0))
    return _prepared(view, level), view.to_mm(foot[None])[0]


def test_a_reading_that_repeats_the_tables_pattern_is_no_post() -> None:
    prep, _ = _scene(with_post=False)
    unguarded = detect_posts(replace(CFG, pattern=None, max_blobs=None), prep)
    assert len(unguarded) > 5  # the cloth's squares pass the hand-set gates
    assert len(detect_posts(CFG, prep)) == 0


def test_a_post_on_a_checked_cloth_is_still_a_post() -> None:
    prep, foot_mm = _scene(with_post=True)
    found = detect_posts(CFG, prep)
    assert len(found) == 1
    assert float(np.hypot(*(found.centre_mm[0] - foot_mm))) < 1.5


def test_a_posts_place_is_found_nowhere_else_but_a_squares_is() -> None:
    prep, _ = _scene(with_post=True)
    view, s = prep.view, prep.view.px_per_mm
    h, w = prep.level.shape
    post = post_outline(CFG, view, np.array([w / 2, h / 2]), step_px=2.0).points
    assert not repeats_table(PostPatternConfig(), prep.level, s, post, CFG.radius_mm)
    square = post_outline(CFG, view, np.array([w / 2 - 44.0, h / 2 - 44.0]), step_px=2.0).points
    assert repeats_table(PostPatternConfig(), prep.level, s, square, CFG.radius_mm)


def test_posts_standing_about_are_not_a_lattice() -> None:
    cfg = PostPatternConfig()
    # a worm's posts: a row of four, a pair touching, and one off the row
    posts = np.array([[0.0, 0.0], [30.0, 0.0], [60.0, 0.0], [90.0, 0.0], [30.0, 10.0],
                      [45.0, 40.0]])
    assert not lattice_blobs(cfg, posts, np.full((len(posts), 2), 13.0), 1.0, 5.0).any()
    grid = np.array([[x, y] for x in range(0, 120, 24) for y in range(0, 120, 24)], float)
    on = lattice_blobs(cfg, grid, np.full((len(grid), 2), 12.0), 1.0, 5.0)
    assert on[12] and on.sum() >= 9  # the inner squares of the cloth


def test_the_post_stage_reads_at_most_max_blobs_blobs_the_best_fit_first() -> None:
    prep, _ = _scene(with_post=True, squares=55)  # grey squares, black enough to be read
    bare = replace(CFG, pattern=None)
    every = dark_blobs(replace(bare, max_blobs=None), prep, prep.dark, None, None)
    assert len(every) > 8
    first = dark_blobs(replace(bare, max_blobs=3), prep, prep.dark, None, None)
    assert len(first) == 3
    h, w = prep.level.shape
    # the post's own blob is among the three read
    assert any(y0 <= h / 2 < y0 + b.shape[0] and x0 <= w / 2 < x0 + b.shape[1]
               for b, x0, y0, _a in first)

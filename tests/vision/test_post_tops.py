"""A post whose wall is at the table's level is read from its lit top (:mod:`vision.post_tops`):
a disc as wide as a post's top, alone on the table; a coin, a pencil, a page's corner or a
patch of glare is no top."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from tabletop.render.variety import draw_case
from tests.vision.test_posts import _view
from training.make_posts import true_posts
from vision import Detector, DetectorConfig
from vision.post_tops import (
    PostTopConfig,
    disc_like,
    foot_below,
    lit_top,
    top_places,
    top_radius_px,
)

_R = 6.0  # a top's radius in the tests' level (pixels)


def _table(seed: int = 0) -> np.ndarray:
    """A plain level (the table at 100) with a camera's grain."""
    rng = np.random.default_rng(seed)
    return np.clip(100 + rng.normal(0, 3, (120, 120)), 0, 255).astype(np.uint8)


def _disc(level: np.ndarray, centre: tuple[int, int], r: float, value: int) -> np.ndarray:
    out = level.copy()
    cv2.circle(out, centre, round(r), value, -1)
    return out


def test_a_lit_disc_as_wide_as_a_top_is_read_at_its_centre() -> None:
    level = _disc(_table(), (64, 58), _R, 150)
    top = lit_top(PostTopConfig(), level, np.array([60.0, 60.0]), _R, 10.0)
    assert top is not None
    assert np.hypot(*(top - [64, 58])) < 1.0, top


def test_a_faint_top_a_few_sigmas_over_the_grain_is_read() -> None:
    level = _disc(_table(1), (60, 60), _R, 118)
    assert lit_top(PostTopConfig(), level, np.array([60.0, 60.0]), _R, 10.0) is not None


def test_a_coin_a_pencil_and_a_lit_patch_joined_to_a_page_are_no_top() -> None:
    cfg, start = PostTopConfig(), np.array([60.0, 60.0])
    coin = _disc(_table(), (60, 60), 2.0 * _R, 150)  # twice as wide: a coin's face
    assert lit_top(cfg, coin, start, _R, 10.0) is None
    pencil = _table()
    cv2.line(pencil, (30, 60), (90, 60), 150, thickness=5)
    assert lit_top(cfg, pencil, start, _R, 10.0) is None
    page = _disc(_table(), (60, 60), _R, 150)
    page[:, 68:] = 150  # the disc touches a lit sheet
    assert lit_top(cfg, page, start, _R, 10.0) is None
    dark = _disc(_table(), (60, 60), _R, 40)  # a dark disc is the wall's business, not a top's
    assert lit_top(cfg, dark, start, _R, 10.0) is None


def test_a_disc_alone_is_disc_like_at_any_lift_and_a_bar_is_not() -> None:
    cfg = PostTopConfig()
    yy, xx = np.mgrid[:40, :40]
    for lift in (0.2, 1.5):
        lum = np.zeros((40, 40), np.float32)
        lum[(xx - 20) ** 2 + (yy - 20) ** 2 <= 7] = lift
        assert disc_like(cfg, lum, 20, 20, 2.7)
    bar = np.zeros((40, 40), np.float32)
    bar[19:22, 5:35] = 1.0
    assert not disc_like(cfg, bar, 20, 20, 2.7)


def test_the_foot_below_a_top_is_where_the_post_stands() -> None:
    foot_mm = np.array([150.0, 20.0])
    view = _view(foot_mm)
    top_mm = view.camera.seen_at(foot_mm[None], 40.0)
    foot = foot_below(view, view.to_px(top_mm)[0], 40.0)
    assert np.hypot(*(view.to_mm(foot[None])[0] - foot_mm)) < 0.05
    assert top_radius_px(view, 5.0, 40.0) > 5.0 * view.px_per_mm


def _posts_found(render, tops: PostTopConfig | None) -> tuple[int, int]:
    """Posts found in full view and false posts (the bench's 12 mm pairing, simplified: each
    found post within 12 mm of a true one is found) with the lit tops read or not."""
    base = DetectorConfig()
    cfg = replace(base, centres=replace(base.centres, posts=replace(base.centres.posts,
                                                                    tops=tops)))
    shown, hidden = true_posts(render)
    every = np.r_[shown, hidden]
    res = Detector(render.calibration(), config=cfg).detect(render.image)
    found = [p.centre_mm for p in res.scene.pieces if p.kind == "post"]
    near = [float(np.hypot(*(every - f).T).min()) if len(every) else np.inf for f in found]
    return sum(d <= 12.0 for d in near), sum(d > 12.0 for d in near)


def test_a_post_on_black_felt_under_a_blind_is_read_from_its_lit_top() -> None:
    # tuning seed 310003, drawn as the bench draws it: its wall at the felt's level, only its
    # top lit (no other stage reads it)
    render = draw_case(310003, hand=False).render()
    assert _posts_found(render, None) == (0, 0)
    assert _posts_found(render, PostTopConfig()) == (1, 0)


@pytest.mark.parametrize(("table", "light", "clutter"), [
    ("cloth-black", "glare", "dice"), ("felt-black", "hard", "mixed"),
    ("cloth-black", "soft", "mug"), ("felt-black", "dim-warm", "phone"),
])
def test_clutter_on_a_dark_table_is_read_as_no_post_top(table: str, light: str,
                                                        clutter: str) -> None:
    # no post laid: dice (a lit face), a mug's rim, a phone, pages and cards on black felt and
    # cloth; the lit tops add no post (whatever the other stages read)
    render = draw_case(311900, hand=False, table=table, light=light, clutter=clutter,
                       kinds=("coin", "tile")).render()
    without = _posts_found(render, None)
    assert _posts_found(render, PostTopConfig()) == without


def _pair(level: np.ndarray, a: tuple[int, int], b: tuple[int, int], value: int) -> np.ndarray:
    return _disc(_disc(level, a, _R, value), b, _R, value)


def test_two_posts_touching_are_two_tops_each_read_at_its_centre() -> None:
    # touching posts' tops touch, two top radii apart: one lit blob, each top's ring lit by
    # the other one
    a, b = (54, 60), (66, 60)
    level = _pair(_table(2), a, b, 150)
    for start, want in ((np.array([52.0, 61.0]), a), (np.array([68.0, 59.0]), b)):
        top = lit_top(PostTopConfig(), level, start, _R, 10.0)
        assert top is not None
        assert np.hypot(*(top - want)) < 1.0, (top, want)
        assert lit_top(PostTopConfig(pairs=False), level, start, _R, 10.0) is None


def test_a_bar_as_large_as_two_tops_and_three_tops_in_a_row_are_no_pair() -> None:
    cfg, start = PostTopConfig(), np.array([54.0, 60.0])
    bar = _table(3)
    bar[55:66, 48:72] = 150  # two tops' area, no waist: a strip of a page, a lit edge
    assert lit_top(cfg, bar, start, _R, 10.0) is None
    three = _disc(_pair(_table(3), (48, 60), (60, 60), 150), (72, 60), _R, 150)
    assert lit_top(cfg, three, start, _R, 10.0) is None


def test_two_tops_touching_are_two_disc_like_places() -> None:
    cfg = PostTopConfig()
    yy, xx = np.mgrid[:40, :40]
    lum = np.zeros((40, 40), np.float32)
    for cx in (17.4, 22.6):
        lum[(xx - cx) ** 2 + (yy - 20) ** 2 <= 7] = 1.0
    assert disc_like(cfg, lum, 17, 20, 2.6) and disc_like(cfg, lum, 23, 20, 2.6)
    assert not disc_like(replace(cfg, pairs=False), lum, 17, 20, 2.6)


def test_two_tops_touching_are_two_places_to_look_at() -> None:
    x = np.random.default_rng(0).normal(0, 0.05, (3, 80, 80)).astype(np.float32)
    yy, xx = np.mgrid[:80, :80]
    for cx in (30.0, 35.2):  # 2 mm a sample: tops 10.4 mm wide, touching
        x[:, (xx - cx) ** 2 + (yy - 40) ** 2 <= 2.6 ** 2] = 1.0
    cam = SimpleNamespace(height_mm=1000.0, foot_of=lambda p, z: p)
    v = SimpleNamespace(valid=np.full((80, 80), 255, np.uint8), camera=cam,
                        to_mm=lambda p: p * 2.0)
    for cfg, n in ((PostTopConfig(), 2), (PostTopConfig(pairs=False), 0)):
        p = top_places(cfg, x, v, 5.0, 40.0)
        assert len(p.score) == n, (cfg.pairs, p.centre_mm / 2.0)

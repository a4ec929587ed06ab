"""The centre net's post-rich training: crops cut round posts hold a post's target, the post
map's loss is weighed as asked, and the post-rich sampler only adds a dark table and the
posts' layout weight to the hard pins (an ordinary seed stays as ``draw_case(seed)`` draws it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from tabletop.render.variety import TABLE_KINDS, draw_case

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from centre_sampler import DARK_TABLES, pinned_choices, post_rich_choices


def _views():
    from train_centres import View

    top = np.full((400, 400, 3), 120, np.uint8)
    valid = np.ones((400, 400), np.uint8)
    coins = [[40.0 + 30 * i, 60.0, 0, 1] for i in range(10)]
    with_post = np.array([*coins, [320.0, 330.0, 2, 1]], np.float32)
    no_post = np.array(coins, np.float32)
    cond = {"table_family": "wood", "light": "soft", "clutter": "none"}
    return (View({"top0": top, "valid0": valid}, 0, with_post, 100.0, 1, cond),
            View({"top0": top, "valid0": valid}, 0, no_post, 100.0, 2, cond))


def test_post_crops_hold_a_post() -> None:
    from train_centres import POST, sample, wanted_posts

    v, other = _views()
    assert len(wanted_posts(v)) == 1 and len(wanted_posts(other)) == 0
    rng = np.random.default_rng(2)
    _, tb, _ = sample([v, other], rng, 16, post_crops=1.0, with_posts=[v])
    assert all(t[POST].max() > 0.3 for t in tb)
    _, tb, _ = sample([v, other], np.random.default_rng(2), 16)
    assert sum(t[POST].max() > 0.3 for t in tb) < 16  # the usual mix: few round a post


def test_post_loss_weighs_only_the_post_map() -> None:
    from train_centres import POST, sample

    v, _other = _views()
    _, _, w1 = sample([v], np.random.default_rng(4), 4)
    _, _, w3 = sample([v], np.random.default_rng(4), 4, post_loss=3.0)
    assert np.allclose(w3[:, POST], 3.0 * w1[:, POST])
    assert np.array_equal(np.delete(w3, POST, axis=1), np.delete(w1, POST, axis=1))


def test_post_rich_sampler_adds_only_a_dark_table_and_post_weight() -> None:
    for s in range(400, 700):
        assert post_rich_choices(s, 0.6, 0.0, None) == pinned_choices(s, 0.6)
        rich = post_rich_choices(s, 0.6, 0.3, 0.8)
        assert rich["weights"] == {"post": 0.8}
        base = pinned_choices(s, 0.6)
        for k in ("light", "clutter"):
            assert rich.get(k) == base.get(k)
        if rich.get("table") != base.get("table"):
            assert rich["table"] in DARK_TABLES
    dark = sum(post_rich_choices(s, 0.0, 0.25, None).get("table") in DARK_TABLES
               for s in range(1000))
    assert 200 < dark < 300
    assert set(DARK_TABLES) <= set(TABLE_KINDS)


def test_post_weight_lays_more_posts_without_touching_ordinary_cases() -> None:
    plain = sum(p.kind == "post" for s in range(10, 30) for p in draw_case(s).scene.pieces)
    rich = sum(p.kind == "post" for s in range(10, 30)
               for p in draw_case(s, **post_rich_choices(s, 0.0, 0.0, 0.8)).scene.pieces)
    assert rich > 1.5 * plain
    assert draw_case(17).scene == draw_case(17, **post_rich_choices(17, 0.0, 0.0, None)).scene

"""The post judge's training tools: hard cases pinned from the seed, a family left out."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import numpy as np
import pytest

from training import (
    compare_posts,
    make_posts,
    post_cases,
    post_loss,
    post_readings,
    post_thresholds,
    train_posts,
)
from vision.post_features import N_FEATURES


@pytest.mark.parametrize("module", [make_posts, post_loss, post_thresholds, compare_posts,
                                    post_cases, post_readings])
def test_the_training_tools_examples_hold(module) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_the_bench_mix_skips_jungle_tables_which_read_no_posts() -> None:
    cycle = make_posts.BENCH_CYCLE
    jungle = [s for s in range(131000, 131000 + cycle) if s % cycle >= 48 and (s % cycle) % 2]
    assert len(jungle) == 6  # the bench's 12 game tables: Worm Up! and Jungle in turn
    assert all(make_posts.bench_draw(s) is None for s in jungle)


def test_hard_cases_are_pinned_from_the_seed_alone_for_about_their_share() -> None:
    pins = [make_posts.hard_pins(s, 0.5) for s in range(1000, 1400)]
    assert pins == [make_posts.hard_pins(s, 0.5) for s in range(1000, 1400)]
    share = np.mean(["clutter" in p for p in pins])
    assert 0.4 < share < 0.6
    assert {p["clutter"] for p in pins if "clutter" in p} == set(make_posts.HARD_CLUTTER)
    assert {p["light"] for p in pins if "light" in p} == set(make_posts.HARD_LIGHTS)
    assert {p["table"] for p in pins if "table" in p} == set(make_posts.DARK_TABLES)
    assert 0.15 < np.mean(["table" in p for p in pins]) < 0.35


def _data(path: Path, families: tuple[str, ...]) -> Path:
    """A small file of candidates as make_posts.py writes it: posts dark, others pale."""
    rng = np.random.default_rng(3)
    n = 60 * len(families)
    y = np.tile([0, 1], n // 2)
    x = rng.normal(0.0, 0.1, (n, N_FEATURES)) + y[:, None] * -1.0
    np.savez_compressed(
        path, x=x.astype(np.float32), y=y, seed=np.repeat(np.arange(n // 4), 4),
        family=np.repeat(np.array(families), 60), light=np.full(n, "soft"),
        source=np.tile([0, 1, 1, 0], n // 4), heat=np.ones(n), dist=np.zeros(n),
        truth_seed=np.arange(4), truth_family=np.array(families[:1] * 4),
        truth_light=np.full(4, "soft"), truth_mask=np.ones(4, bool),
        truth_net=np.zeros(4, bool))
    return path


def test_a_forest_trained_without_a_family_says_so_beside_its_model(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.npz", ("wood", "felt", "stone"))
    out = tmp_path / "posts_no_felt.yml.gz"
    assert train_posts.main([str(data), "-o", str(out), "--trees", "5", "--without",
                             "felt"]) == 0
    report = json.loads((tmp_path / "posts_no_felt.json").read_text())
    assert report["without"] == "felt"
    assert "felt" not in report["held_out_by_family"]
    assert report["held_out"]["precision"] == 1.0


def test_leaving_out_a_family_the_data_lacks_is_an_error_naming_it(tmp_path: Path) -> None:
    data = _data(tmp_path / "d.npz", ("wood", "felt"))
    with pytest.raises(SystemExit, match="marble"):
        train_posts.main([str(data), "-o", str(tmp_path / "m.yml.gz"), "--without", "marble"])


def test_threshold_pairs_are_read_as_min_score_then_veto() -> None:
    from training.post_thresholds import Pair, parse_pairs

    assert parse_pairs("0.6:0.3") == [Pair(min_score=0.6, veto=0.3)]
    with pytest.raises(ValueError):
        parse_pairs("0.6")


def test_a_training_file_is_replaced_whole_so_a_run_stopped_while_saving_keeps_the_last(
        tmp_path: Path) -> None:
    out = tmp_path / "posts.npz"
    cols = {k: [np.zeros(2)] for k in ("y", "seed", "family", "light", "source", "heat",
                                       "dist")}
    cols["x"] = [np.zeros((2, N_FEATURES))]
    truth = {"truth_seed": [np.zeros(1)], "truth_mask": [np.ones(1, bool)]}
    make_posts.save(out, cols, truth)
    cols["x"].append(np.ones((3, N_FEATURES)))
    make_posts.save(out, cols, truth)
    assert np.load(out)["x"].shape == (5, N_FEATURES)
    assert [p.name for p in tmp_path.iterdir()] == ["posts.npz"]  # no part file left behind


def test_a_render_with_its_table_or_light_pinned_is_kept_under_its_own_name() -> None:
    names = {post_cases.cache_name(45000, None, 0.0, t, li)
             for t in (None, "marble") for li in (None, "hard")}
    assert len(names) == 4
    assert post_cases.cache_name(45000, None, 0.0) == "bench_45000.pkl"  # the caches before

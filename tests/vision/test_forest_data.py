"""The forests' shared training steps (``training/forest_data.py``): loading, a family left
out, the split by scene and the balance of labels, as every train script uses them."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import numpy as np
import pytest

from training import forest_data, train_coin_judge, train_tiles
from training.forest_data import balanced, labelled, load_rows, split_every, split_last
from vision.coin_features import FEATURES
from vision.tile_features import N_FEATURES


def test_the_shared_steps_examples_hold() -> None:
    result = doctest.testmod(forest_data)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("split", [split_last, split_every])
def test_every_row_of_one_scene_falls_on_the_same_side(split) -> None:
    seed = np.random.default_rng(1).integers(0, 40, 500)
    s = split(seed, 0.25)
    assert not np.any(s.train & s.test) and np.all(s.train | s.test)
    for k in np.unique(seed):
        assert len(set(s.test[seed == k].tolist())) == 1
    assert set(np.unique(seed[s.test]).tolist()) == set(s.held.tolist())
    assert 0.15 < len(s.held) / len(s.seeds) < 0.4


def test_the_last_split_holds_out_the_latest_scenes() -> None:
    seed = np.arange(100, 120).repeat(3)
    s = split_last(seed, 0.25)
    assert seed[s.train].max() < seed[s.test].min() == s.first_held == 115


def test_the_rarer_label_is_repeated_to_about_the_others_count_but_ten_times_at_most() -> None:
    y = np.r_[np.ones(50, int), np.zeros(5, int)]
    _, yb = balanced(np.zeros((55, 2)), y)
    assert int((yb == 0).sum()) == 50
    y = np.r_[np.ones(500, int), np.zeros(5, int)]
    _, yb = balanced(np.zeros((505, 2)), y)
    assert int((yb == 0).sum()) == 50


def test_unlabelled_rows_and_the_family_left_out_are_dropped() -> None:
    rows = {"x": np.zeros((4, 1)), "y": np.array([1, -1, 0, 1]),
            "seed": np.arange(4), "family": np.array(["wood", "wood", "felt", "felt"])}
    kept = labelled(rows, rows["family"], "felt", "t")
    assert kept["y"].tolist() == [1]
    with pytest.raises(SystemExit, match="--without marble"):
        labelled(rows, rows["family"], "marble", "t")


def test_a_file_of_other_features_is_refused_naming_the_script_or_the_file(
        tmp_path: Path) -> None:
    data = tmp_path / "few.npz"
    np.savez(data, x=np.zeros((3, 5)), y=np.zeros(3), features=np.array(["a"]))
    with pytest.raises(SystemExit, match="train_x: 5 features, not 7"):
        load_rows([data], ("x", "y"), "train_x", n_features=7)
    with pytest.raises(SystemExit, match="few.npz"):
        load_rows([data], ("x", "y"), "train_x", features=("b",))
    with pytest.raises(SystemExit, match="no column 'seed'"):
        load_rows([data], ("x", "seed"), "train_x")
    (tmp_path / "bad.npz").write_text("not numpy")
    with pytest.raises(SystemExit, match="bad.npz"):
        load_rows([tmp_path / "bad.npz"], ("x",), "train_x")


def _tile_rows(path: Path) -> Path:
    """Squares as make_tiles.py writes them: tiles stand out (feature 0), others do not."""
    rng = np.random.default_rng(5)
    n = 240
    y = np.tile([1, 1, 0], n // 3)
    x = rng.normal(0.0, 0.1, (n, N_FEATURES)) + y[:, None]
    seed = np.repeat(np.arange(n // 6), 6)
    np.savez_compressed(path, x=x.astype(np.float32), y=y, seed=seed,
                        family=np.array(["wood", "felt", "white"])[seed % 3],
                        light=np.full(n, "soft"), clutter=np.full(n, "page"),
                        source=(seed % 4).astype(np.int32))
    return path


def test_a_tile_forest_without_a_family_says_so_and_is_not_measured_on_it(
        tmp_path: Path) -> None:
    out = tmp_path / "tiles.yml.gz"
    assert train_tiles.main([str(_tile_rows(tmp_path / "t.npz")), "-o", str(out),
                             "--trees", "5", "--without", "felt"]) == 0
    report = json.loads((tmp_path / "tiles.json").read_text())
    assert report["without"] == "felt" and out.exists()
    assert set(report["held_out_by_family"]) == {"wood", "white"}
    assert report["held_out"]["tiles_dropped"] == 0.0
    assert report["held_out"]["others_dropped"] == 1.0


def test_the_coin_judge_leaves_a_family_out_too(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    n = 300
    y = np.tile([1, 0, 1], n // 3)
    x = rng.normal(0.0, 0.1, (n, len(FEATURES))) + y[:, None]
    seed = np.repeat(np.arange(n // 5), 5)
    fam = np.array(["wood", "felt", "stone"])[seed % 3]
    cond = np.stack([fam, fam, np.full(n, "soft"), np.full(n, "none")], axis=1)
    data = tmp_path / "c.npz"
    np.savez_compressed(data, x=x.astype(np.float32), y=y, seed=seed,
                        source=np.zeros(n, np.int32), conditions=cond,
                        features=np.array(FEATURES))
    out = tmp_path / "coins.yml.gz"
    assert train_coin_judge.main([str(data), "-o", str(out), "--trees", "5",
                                  "--without", "stone"]) == 0
    report = json.loads((tmp_path / "coins.json").read_text())
    assert report["without"] == "stone"
    assert set(report["held_out_by_table"]) == {"wood", "felt"}

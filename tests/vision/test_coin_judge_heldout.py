"""The coin judge's held-out check: a table family is judged by a forest that never saw it."""

from __future__ import annotations

import numpy as np

from training import coin_judge_heldout
from vision.coin_features import FEATURES


def _rows(path, families: tuple[str, ...], shift: dict[str, float]) -> None:
    """Rows of ``make_coin_judge.py``'s form: coins where the first feature is high, others
    where it is low, each family's rows moved by ``shift`` along the second feature."""
    rng = np.random.default_rng(3)
    xs, ys, seeds, cond = [], [], [], []
    for k, fam in enumerate(families):
        for s in range(6):
            y = rng.integers(0, 2, 30)
            x = rng.normal(0.0, 0.1, (30, len(FEATURES)))
            x[:, 0] += y
            x[:, 1] += shift.get(fam, 0.0)
            xs.append(x)
            ys.append(y)
            seeds.append(np.full(30, 100 * k + s))
            cond.append(np.tile(["t", fam, "soft", "none"], (30, 1)))
    np.savez(path, x=np.concatenate(xs), y=np.concatenate(ys), seed=np.concatenate(seeds),
             source=np.zeros(len(np.concatenate(ys)), int), conditions=np.concatenate(cond),
             features=np.array(FEATURES))


def _figures(out: str) -> dict[str, float]:
    return {k: float(v) for line in out.splitlines() for k, v in
            (w.split("=") for w in line.split()) if k.endswith(("precision", "recall"))}


def test_families_told_by_what_they_share_hold_when_left_out(tmp_path, capsys) -> None:
    _rows(tmp_path / "a.npz", ("wood", "felt", "stone"), {})
    assert coin_judge_heldout.main([str(tmp_path / "a.npz"), "--trees", "20"]) == 0
    f = _figures(capsys.readouterr().out)
    assert f["left_out_recall"] > 0.95 and f["left_out_precision"] > 0.95
    assert abs(f["left_out_recall"] - f["seen_recall"]) < 0.05


def test_a_family_unlike_every_other_shows_in_the_left_out_figure(tmp_path, capsys) -> None:
    # the felt family's rows lie where no other family's do: a forest that never saw felt
    # has nothing to go on there, one that saw it does
    rng = np.random.default_rng(0)
    _rows(tmp_path / "a.npz", ("wood", "felt", "stone"), {"felt": 5.0})
    d = dict(np.load(tmp_path / "a.npz"))
    felt = d["conditions"][:, 1] == "felt"
    d["x"][felt, 0] = rng.normal(0.0, 0.1, felt.sum())  # the first feature tells nothing...
    d["x"][felt, 2] += d["y"][felt] * 1.0  # ...the third does, only there
    np.savez(tmp_path / "a.npz", **d)
    assert coin_judge_heldout.main([str(tmp_path / "a.npz"), "--trees", "20"]) == 0
    f = _figures(capsys.readouterr().out)
    assert f["family_felt_seen_recall"] > 0.9
    assert f["family_felt_left_out_precision"] < 0.8 or f["family_felt_left_out_recall"] < 0.8

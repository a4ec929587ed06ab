"""Trains the coin judge (a random forest of ``cv2.ml``) from ``make_coin_judge.py``'s files.

    .venv/bin/python training/train_coin_judge.py training/data/coins_*.npz \
        -o vision/models/coins.yml.gz

Seconds on one core (no extra to install: OpenCV's own ``cv2.ml``). The forest is trained on
the seeds but every ``1 / --holdout``-th, which take no part and choose the threshold: the
least votes that keep the most coins while dropping the most of what is no coin (the fewest
errors, a false coin and a lost one counting alike), among the candidates the detector's stages
and centre net made there (not the probes at clutter and open table, which only train).
The figures go beside the model (``coins.json``): on the held-out seeds, precision and
recall of the candidates with the judge and with the namer's own veto (kind probability at
least 0.5), per table, light and clutter, and for each table family those of a forest trained
without that family (leave one family out).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forest_data import (
    common_arguments,
    fit,
    labelled,
    load_rows,
    split_every,
)
from training.forests import scores
from vision.coin_features import FEATURES

NAMER_KEEP = 0.5
"""The namer's own veto of coins (``NamerConfig.keep``), the judge's baseline."""


def figures(y: np.ndarray, kept: np.ndarray) -> dict[str, float]:
    """Precision and recall of the candidates kept."""
    tp = int(np.sum(kept & (y == 1)))
    return {"precision": round(tp / max(1, int(kept.sum())), 4),
            "recall": round(tp / max(1, int((y == 1).sum())), 4),
            "coins": int((y == 1).sum()), "others": int((y == 0).sum()),
            "false": int(np.sum(kept & (y == 0))), "lost": int(np.sum(~kept & (y == 1)))}


def namer_kept(x: np.ndarray) -> np.ndarray:
    """Which candidates the namer's veto keeps (its coin probabilities summed)."""
    up, down = FEATURES.index("p_coin_up"), FEATURES.index("p_coin_down")
    return x[:, up] + x[:, down] >= NAMER_KEEP


def best_threshold(y: np.ndarray, s: np.ndarray) -> float:
    """The threshold with the fewest errors (false kept plus true dropped); the middle of the
    widest run of such thresholds."""
    grid = np.round(np.arange(0.05, 0.951, 0.025), 3)
    err = np.array([np.sum((s >= t) & (y == 0)) + np.sum((s < t) & (y == 1)) for t in grid])
    best = np.flatnonzero(err == err.min())
    runs = np.split(best, np.flatnonzero(np.diff(best) > 1) + 1)
    run = max(runs, key=len)
    return float(grid[run[len(run) // 2]])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(ap, trees=100, depth=12, holdout=0.3)
    args = ap.parse_args(argv)
    rows = load_rows(args.data, ("x", "y", "seed", "source", "conditions"), "train_coin_judge",
                     features=FEATURES)
    rows = labelled(rows, rows["conditions"][:, 1], args.without, "train_coin_judge")
    x, y, seed, source, cond = (rows[k] for k in ("x", "y", "seed", "source", "conditions"))
    split = split_every(seed, args.holdout)
    seeds, held, train, test = split.seeds, split.held, split.train, split.test
    step = max(2, round(1.0 / args.holdout))
    rt = fit(args, x[train], y[train])
    st = scores(rt, x[test])
    real = source[test] < 2  # what the detector's stages and centre net put before it
    t = best_threshold(y[test][real], st[real])
    kept, nk = st >= t, namer_kept(x[test])

    def by(col: int) -> dict[str, dict[str, dict[str, float]]]:
        out = {}
        for v in np.unique(cond[test][:, col]):
            m = cond[test][:, col] == v
            out[str(v)] = {"judge": figures(y[test][m], kept[m]),
                           "namer": figures(y[test][m], nk[m])}
        return out

    families = {}
    for fam in np.unique(cond[:, 1]):
        tr = train & (cond[:, 1] != fam)
        te = test & (cond[:, 1] == fam)
        if not te.any() or not np.any(y[tr] == 0):
            continue
        rf = fit(args, x[tr], y[tr])
        families[str(fam)] = figures(y[te], scores(rf, x[te]) >= t)
    report: dict[str, object] = {
        "features": list(FEATURES),
        "seeds": f"{int(seeds[0])}:{int(seeds[-1]) + 1} ({len(seeds)} scenes)",
        "held_out_seeds": f"every {step}th of them ({len(held)} scenes)",
        "rows": {"train": int(train.sum()), "held_out": int(test.sum())},
        "threshold": t,
        "held_out": {"judge": figures(y[test][real], kept[real]),
                     "namer": figures(y[test][real], nk[real])},
        "held_out_by_source": {name: {"judge": figures(y[test][source[test] == k],
                                                       kept[source[test] == k]),
                                      "namer": figures(y[test][source[test] == k],
                                                       nk[source[test] == k])}
                               for k, name in ((0, "stages"), (1, "centre net"),
                                               (2, "probes"))},
        "held_out_by_table": by(0),
        "held_out_by_light": by(2),
        "held_out_by_clutter": by(3),
        "held_out_family_left_out": families,
        "trees": args.trees, "depth": args.depth, "seed": args.seed,
        "without": args.without,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rt.save(str(args.out))
    args.out.with_name(args.out.name.split(".")[0] + ".json").write_text(
        json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: report[k] for k in ("threshold", "held_out", "held_out_by_source")},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Trains the post judge (a random forest of ``cv2.ml``) from ``make_posts.py``'s files.

    .venv/bin/python training/train_posts.py training/data/posts_*.npz \
        -o vision/models/posts.yml.gz

Seconds on one core (no extra to install: OpenCV's own ``cv2.ml``). The figures go beside the
model (``posts.json``): precision and recall of the candidates on the seeds held out of
training (``--holdout``, the last share of the seeds), per table family and light, and for each
table family the same figures of a forest trained without that family (leave one family out).
Recall there is of the candidates (a true post no stage proposed is not counted: see
``candidate_recall``, the share of true posts some candidate found, per source).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forest_data import (
    common_arguments,
    fit,
    fit_and_save,
    labelled,
    leave_one_family_out,
    load_rows,
    split_last,
    subset,
)
from training.forests import scores
from vision.post_features import N_FEATURES, UNLIKE_COLUMN


def figures(y: np.ndarray, s: np.ndarray, threshold: float) -> dict[str, float]:
    """Precision and recall of the candidates at a threshold."""
    p = s >= threshold
    tp = int(np.sum(p & (y == 1)))
    return {"precision": round(tp / max(1, int(p.sum())), 4),
            "recall": round(tp / max(1, int((y == 1).sum())), 4),
            "posts": int((y == 1).sum()), "others": int((y == 0).sum())}


def unlike_rows(x: np.ndarray) -> np.ndarray:
    """Which rows were read in a dark table's unlikeness (:data:`UNLIKE_COLUMN`).

    >>> x = np.zeros((3, N_FEATURES)); x[1, UNLIKE_COLUMN] = 1.0
    >>> unlike_rows(x).tolist()
    [False, True, False]
    """
    return np.asarray(x)[:, UNLIKE_COLUMN] >= 0.5


def contrast_truth(paths: list[Path], n: int) -> np.ndarray:
    """Per true post, whether a place standing out (source 2) found it: the files'
    ``truth_contrast``, all False where a file has none (made before that source)."""
    parts = []
    for path in paths:
        with np.load(path) as f:
            k = len(f["truth_mask"])
            parts.append(f["truth_contrast"].astype(bool) if "truth_contrast" in f.files
                         else np.zeros(k, bool))
    out = np.concatenate(parts) if parts else np.zeros(0, bool)
    return out if len(out) == n else np.zeros(n, bool)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(ap, trees=80, depth=14, holdout=0.2)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--unlike", action="store_true",
                    help="only the rows read in a dark table's unlikeness (the dark judge, "
                         "vision/models/posts_dark.yml.gz: PostJudgeConfig.dark_model)")
    args = ap.parse_args(argv)
    keys = ("x", "y", "seed", "family", "light", "source")
    every = load_rows(args.data, (*keys, "truth_mask", "truth_net"), "train_posts",
                      n_features=N_FEATURES)
    if args.unlike:
        every = {**subset({k: every[k] for k in keys}, unlike_rows(every["x"])),
                 **{k: v for k, v in every.items() if k not in keys}}
    rows = labelled({k: every[k] for k in keys}, every["family"], args.without, "train_posts")
    x, y, family, light, source = (rows[k] for k in ("x", "y", "family", "light", "source"))
    split = split_last(rows["seed"], args.holdout)
    train, test = split.train, split.test
    rt = fit(args, x[train], y[train])
    st = scores(rt, x[test])
    held = figures(y[test], st, args.threshold)
    report: dict[str, object] = {
        "features": N_FEATURES,
        "trained_seeds": f"{int(split.seeds[0])}:{split.first_held}",
        "held_out_seeds": f"{split.first_held}:{int(split.seeds[-1]) + 1}",
        "held_out": held,
        "held_out_by_source": {name: figures(y[test & (source == k)], st[source[test] == k],
                                             args.threshold)
                               for k, name in enumerate(("mask", "net", "contrast", "top"))},
        "held_out_by_family": {str(f): figures(y[test][family[test] == f],
                                               st[family[test] == f], args.threshold)
                               for f in sorted(set(family[test].tolist()))},
        "held_out_by_light": {str(f): figures(y[test][light[test] == f],
                                              st[light[test] == f], args.threshold)
                              for f in sorted(set(light[test].tolist()))},
        "threshold": args.threshold, "trees": args.trees, "depth": args.depth,
        "candidates": {"posts": int((y == 1).sum()), "others": int((y == 0).sum())},
    }
    t_mask, t_net = every["truth_mask"], every["truth_net"]
    t_contrast = contrast_truth(args.data, len(t_mask))
    report["candidate_recall"] = {
        "true_posts": len(t_mask), "mask": round(float(np.mean(t_mask)), 4),
        "net": round(float(np.mean(t_net)), 4),
        "contrast": round(float(np.mean(t_contrast)), 4),
        "any": round(float(np.mean(t_mask | t_net | t_contrast)), 4)}
    report["leave_one_family_out"] = leave_one_family_out(
        args, x, y, family, lambda y_, s_: figures(y_, s_, args.threshold),
        lambda out: bool(np.any(out & (y == 1))))
    return fit_and_save(args, x, y, report)


if __name__ == "__main__":
    sys.exit(main())

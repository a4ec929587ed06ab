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
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forests import forest, scores
from vision.post_features import N_FEATURES


def figures(y: np.ndarray, s: np.ndarray, threshold: float) -> dict[str, float]:
    """Precision and recall of the candidates at a threshold."""
    p = s >= threshold
    tp = int(np.sum(p & (y == 1)))
    return {"precision": round(tp / max(1, int(p.sum())), 4),
            "recall": round(tp / max(1, int((y == 1).sum())), 4),
            "posts": int((y == 1).sum()), "others": int((y == 0).sum())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--trees", type=int, default=80)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--without", default=None,
                    help="leave this table family out of the data altogether (a held-out "
                         "forest for bench/bench_vision_accuracy.py --posts-model --family)")
    args = ap.parse_args(argv)
    parts = [np.load(p) for p in args.data]

    def cat(key: str) -> np.ndarray:
        return np.concatenate([p[key] for p in parts])

    x, y, seed, family, light, source = (cat(k) for k in (
        "x", "y", "seed", "family", "light", "source"))
    if x.shape[1] != N_FEATURES:
        raise SystemExit(f"train_posts: {x.shape[1]} features, not {N_FEATURES}")
    use = y >= 0
    if args.without is not None:
        if not np.any(family == args.without):
            raise SystemExit(f"train_posts: --without {args.without}: no such family in the data")
        use &= family != args.without
    x, y, seed, family, light, source = (a[use] for a in (x, y, seed, family, light, source))
    seeds = np.unique(seed)
    cut = seeds[int(len(seeds) * (1 - args.holdout))]
    train, test = seed < cut, seed >= cut
    rt = forest(x[train], y[train], args.trees, args.depth, args.seed)
    st = scores(rt, x[test])
    held = figures(y[test], st, args.threshold)
    report: dict[str, object] = {
        "features": N_FEATURES,
        "trained_seeds": f"{int(seeds[0])}:{int(cut)}",
        "held_out_seeds": f"{int(cut)}:{int(seeds[-1]) + 1}",
        "held_out": held,
        "held_out_by_source": {name: figures(y[test & (source == k)], st[source[test] == k],
                                             args.threshold)
                               for k, name in ((0, "mask"), (1, "net"))},
        "held_out_by_family": {str(f): figures(y[test][family[test] == f],
                                               st[family[test] == f], args.threshold)
                               for f in sorted(set(family[test].tolist()))},
        "held_out_by_light": {str(f): figures(y[test][light[test] == f],
                                              st[light[test] == f], args.threshold)
                              for f in sorted(set(light[test].tolist()))},
        "threshold": args.threshold, "trees": args.trees, "depth": args.depth,
        "candidates": {"posts": int((y == 1).sum()), "others": int((y == 0).sum())},
    }
    t_mask, t_net = cat("truth_mask"), cat("truth_net")
    report["candidate_recall"] = {
        "true_posts": len(t_mask), "mask": round(float(np.mean(t_mask)), 4),
        "net": round(float(np.mean(t_net)), 4),
        "either": round(float(np.mean(t_mask | t_net)), 4)}
    by_family = {}
    for fam in sorted(set(family.tolist())):
        out = family == fam
        if not np.any(out & (y == 1)):
            continue
        rf = forest(x[~out], y[~out], args.trees, args.depth, args.seed)
        by_family[str(fam)] = figures(y[out], scores(rf, x[out]), args.threshold)
    report["leave_one_family_out"] = by_family
    final = forest(x, y, args.trees, args.depth, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    final.save(str(args.out))
    report["without"] = args.without
    beside = args.out.with_name(args.out.name.split(".")[0] + ".json")
    beside.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

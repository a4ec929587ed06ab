"""Trains the segment judge (a random forest of ``cv2.ml``) from ``make_segments.py``'s files.

    .venv/bin/python training/train_segments.py training/data/segments.npz \
        -o vision/models/segments.yml.gz

Seconds on one core (no extra to install: OpenCV's own ``cv2.ml``). The figures go beside the
model (``segments.json``): precision and recall of the candidates on the seeds held out of
training (``--holdout``, the last share of the seeds), and for each table family the same
figures of a forest trained without that family (leave one family out).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forests import forest, scores
from vision.segment_features import N_FEATURES


def figures(y: np.ndarray, s: np.ndarray, threshold: float) -> dict[str, float]:
    """Precision and recall of the candidates at a threshold."""
    p = s >= threshold
    tp = int(np.sum(p & (y == 1)))
    return {"precision": tp / max(1, int(p.sum())), "recall": tp / max(1, int((y == 1).sum())),
            "segments": int((y == 1).sum()), "others": int((y == 0).sum())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--trees", type=int, default=60)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-families", action="store_true",
                    help="skip the leave-one-family-out figures (a forest per family: most "
                         "of the time on a busy machine)")
    args = ap.parse_args(argv)
    parts = [np.load(p) for p in args.data]
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    seed = np.concatenate([p["seed"] for p in parts])
    family = np.concatenate([p["family"] for p in parts])
    if x.shape[1] != N_FEATURES:
        raise SystemExit(f"train_segments: {x.shape[1]} features, not {N_FEATURES}")
    seeds = np.unique(seed)
    cut = seeds[int(len(seeds) * (1 - args.holdout))]
    train, test = seed < cut, seed >= cut
    rt = forest(x[train], y[train], args.trees, args.depth, args.seed)
    report: dict[str, object] = {
        "trained_seeds": f"{int(seeds[0])}:{int(cut)}",
        "held_out_seeds": f"{int(cut)}:{int(seeds[-1]) + 1}",
        "held_out": figures(y[test], scores(rt, x[test]), args.threshold),
        "threshold": args.threshold, "trees": args.trees, "depth": args.depth,
    }
    by_family = {}
    for fam in [] if args.no_families else sorted(set(family.tolist())):
        out = family == fam
        if not np.any(out & (y == 1)):
            continue
        rf = forest(x[~out], y[~out], args.trees, args.depth, args.seed)
        by_family[fam] = figures(y[out], scores(rf, x[out]), args.threshold)
    report["leave_one_family_out"] = by_family
    final = forest(x, y, args.trees, args.depth, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    final.save(str(args.out))
    args.out.with_name("segments.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

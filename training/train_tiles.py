"""Trains the tile judge (a random forest of ``cv2.ml``) from ``make_tiles.py``'s files.

    .venv/bin/python training/train_tiles.py training/data/tiles_*.npz \
        -o vision/models/tiles.yml.gz

Seconds on one core (no extra to install: OpenCV's own ``cv2.ml``). The figures go beside the
model (``tiles.json``): on the seeds held out of training (``--holdout``, the last share of the
seeds), the share of true tiles the judge would drop and the share of squares that are no tile
it would drop at the run time's veto (``--veto``), in all, per source, per table family and
per clutter; and for each table family the same figures of a forest trained without that
family (leave one family out).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forests import forest, scores
from vision.tile_features import N_FEATURES

SOURCES = ("block", "edged", "net", "faint")


def figures(y: np.ndarray, s: np.ndarray, veto: float) -> dict[str, float]:
    """How many tiles and non-tiles there are and the share of each the veto drops."""
    drop = s < veto
    tiles, others = int((y == 1).sum()), int((y == 0).sum())
    return {"tiles": tiles, "others": others,
            "tiles_dropped": round(float(np.sum(drop & (y == 1))) / max(1, tiles), 4),
            "others_dropped": round(float(np.sum(drop & (y == 0))) / max(1, others), 4)}


def balanced(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows with those of the rarer label repeated (up to ten times) to about as many as
    the other's: the forest's votes then weigh a page's square as much as a tile."""
    rare = int(np.sum(y == 0) < np.sum(y == 1))
    n_rare, n_many = int(np.sum(y == rare)), int(np.sum(y != rare))
    times = min(10, max(1, n_many // max(1, n_rare)))
    idx = np.r_[np.arange(len(y)), np.repeat(np.flatnonzero(y == rare), times - 1)]
    return x[idx], y[idx]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--holdout", type=float, default=0.25)
    ap.add_argument("--veto", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--without", default=None,
                    help="leave this table family out of the data altogether")
    args = ap.parse_args(argv)
    parts = [np.load(p) for p in args.data]

    def cat(key: str) -> np.ndarray:
        return np.concatenate([p[key] for p in parts])

    x, y, seed, family, clutter, source = (cat(k) for k in (
        "x", "y", "seed", "family", "clutter", "source"))
    if x.shape[1] != N_FEATURES:
        raise SystemExit(f"train_tiles: {x.shape[1]} features, not {N_FEATURES}")
    use = y >= 0
    if args.without is not None:
        if not np.any(family == args.without):
            raise SystemExit(f"train_tiles: --without {args.without}: no such family in the data")
        use &= family != args.without
    x, y, seed, family, clutter, source = (a[use] for a in (
        x, y, seed, family, clutter, source))
    seeds = np.unique(seed)
    cut = seeds[int(len(seeds) * (1 - args.holdout))]
    train, test = seed < cut, seed >= cut
    rt = forest(*balanced(x[train], y[train]), args.trees, args.depth, args.seed)
    st = scores(rt, x[test])
    yt = y[test]

    def by(values: np.ndarray) -> dict[str, dict[str, float]]:
        v = values[test]
        return {str(k): figures(yt[v == k], st[v == k], args.veto)
                for k in sorted(set(v.tolist()))}

    report: dict[str, object] = {
        "features": N_FEATURES,
        "trained_seeds": f"{int(seeds[0])}:{int(cut)}",
        "held_out_seeds": f"{int(cut)}:{int(seeds[-1]) + 1}",
        "held_out": figures(yt, st, args.veto),
        "held_out_by_source": {SOURCES[int(k)]: f for k, f in by(source).items()},
        "held_out_by_family": by(family),
        "held_out_by_clutter": by(clutter),
        "veto": args.veto, "trees": args.trees, "depth": args.depth,
        "squares": {"tiles": int((y == 1).sum()), "others": int((y == 0).sum())},
    }
    out_fam = {}
    for fam in sorted(set(family.tolist())):
        out = family == fam
        if not np.any(out & (y == 0)) or not np.any(~out & (y == 0)):
            continue
        rf = forest(*balanced(x[~out], y[~out]), args.trees, args.depth, args.seed)
        out_fam[str(fam)] = figures(y[out], scores(rf, x[out]), args.veto)
    report["leave_one_family_out"] = out_fam
    final = forest(*balanced(x, y), args.trees, args.depth, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    final.save(str(args.out))
    report["without"] = args.without
    beside = args.out.with_name(args.out.name.split(".")[0] + ".json")
    beside.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
)
from training.forests import scores
from vision.tile_features import N_FEATURES

SOURCES = ("block", "edged", "net", "faint")


def figures(y: np.ndarray, s: np.ndarray, veto: float) -> dict[str, float]:
    """How many tiles and non-tiles there are and the share of each the veto drops."""
    drop = s < veto
    tiles, others = int((y == 1).sum()), int((y == 0).sum())
    return {"tiles": tiles, "others": others,
            "tiles_dropped": round(float(np.sum(drop & (y == 1))) / max(1, tiles), 4),
            "others_dropped": round(float(np.sum(drop & (y == 0))) / max(1, others), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(ap, trees=100, depth=12, holdout=0.25)
    ap.add_argument("--veto", type=float, default=0.1)
    args = ap.parse_args(argv)
    rows = load_rows(args.data, ("x", "y", "seed", "family", "clutter", "source"),
                     "train_tiles", n_features=N_FEATURES)
    rows = labelled(rows, rows["family"], args.without, "train_tiles")
    x, y, family = rows["x"], rows["y"], rows["family"]
    split = split_last(rows["seed"], args.holdout)
    train, test = split.train, split.test
    rt = fit(args, x[train], y[train])
    st = scores(rt, x[test])
    yt = y[test]

    def by(values: np.ndarray) -> dict[str, dict[str, float]]:
        v = values[test]
        return {str(k): figures(yt[v == k], st[v == k], args.veto)
                for k in sorted(set(v.tolist()))}

    report: dict[str, object] = {
        "features": N_FEATURES,
        "trained_seeds": f"{int(split.seeds[0])}:{split.first_held}",
        "held_out_seeds": f"{split.first_held}:{int(split.seeds[-1]) + 1}",
        "held_out": figures(yt, st, args.veto),
        "held_out_by_source": {SOURCES[int(k)]: f for k, f in by(rows["source"]).items()},
        "held_out_by_family": by(family),
        "held_out_by_clutter": by(rows["clutter"]),
        "veto": args.veto, "trees": args.trees, "depth": args.depth,
        "squares": {"tiles": int((y == 1).sum()), "others": int((y == 0).sum())},
    }
    report["leave_one_family_out"] = leave_one_family_out(
        args, x, y, family, lambda y_, s_: figures(y_, s_, args.veto),
        lambda out: bool(np.any(out & (y == 0)) and np.any(~out & (y == 0))))
    return fit_and_save(args, x, y, report)


if __name__ == "__main__":
    sys.exit(main())

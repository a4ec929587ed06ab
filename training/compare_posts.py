"""Is a retrained post judge better than the committed one? Both judge the same held-out rows.

    .venv/bin/python training/compare_posts.py --train A.npz B.npz --test C.npz [--trees 200]

The rows are ``make_posts.py``'s; the ``--test`` files' seeds must be ones neither forest saw
(the committed forest's training seeds are in ``vision/models/posts.json``). The committed
forest (``--model``) judges every test row as it is; a forest of ``--trees`` trained on the
``--train`` files (``-o``: saved there) judges them too. For each: the candidates' precision
and recall at each ``--thresholds`` (the detector's ``min_score``), the true posts and the
others under each ``--vetoes`` (the forest sure it is none), and at the first threshold the
same by table family, light and source. Rows of the test files' seeds that also appear in the
training files are refused.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forest_data import load_rows
from training.forests import forest, scores
from vision.forest import load_forest, yes_share
from vision.post_features import N_FEATURES
from vision.post_judge import MODELS

KEYS = ("x", "y", "seed", "family", "light", "source")
SOURCES = {0: "mask", 1: "net", 2: "contrast", 3: "top"}


def pr(y: np.ndarray, s: np.ndarray, threshold: float) -> str:
    """``P=.. R=.. (kept posts/posts, kept others)`` of the candidates at a threshold.

    >>> pr(np.array([1, 1, 0, 0]), np.array([0.9, 0.2, 0.6, 0.1]), 0.5)
    'P=0.500 R=0.500 (1/2, 1 others)'
    """
    keep = s >= threshold
    tp, fp = int(np.sum(keep & (y == 1))), int(np.sum(keep & (y == 0)))
    return (f"P={tp / max(1, tp + fp):.3f} R={tp / max(1, int(np.sum(y == 1))):.3f} "
            f"({tp}/{int(np.sum(y == 1))}, {fp} others)")


def report(name: str, y: np.ndarray, s: np.ndarray, rows: dict[str, np.ndarray],
           thresholds: list[float], vetoes: list[float]) -> None:
    """Prints one forest's figures on the test rows."""
    for t in thresholds:
        print(f"{name} at {t}: {pr(y, s, t)}")
    print(f"{name} under veto: " + ", ".join(
        f"{v}: posts {int(np.sum((s < v) & (y == 1)))} others {int(np.sum((s < v) & (y == 0)))}"
        for v in vetoes))
    t = thresholds[0]
    for key in ("family", "light", "source"):
        for v in sorted(set(rows[key].tolist())):
            m = rows[key] == v
            label = SOURCES.get(int(v), str(v)) if key == "source" else str(v)
            print(f"   {name} {key}={label}: {pr(y[m], s[m], t)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", nargs="+", type=Path, required=True)
    ap.add_argument("--test", nargs="+", type=Path, required=True)
    ap.add_argument("--model", type=Path, default=MODELS / "posts.yml.gz")
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--thresholds", type=lambda t: [float(v) for v in t.split(",")],
                    default=[0.5, 0.6])
    ap.add_argument("--vetoes", type=lambda t: [float(v) for v in t.split(",")],
                    default=[0.2, 0.3])
    ap.add_argument("-o", "--out", type=Path, default=None, help="save the retrained forest")
    args = ap.parse_args(argv)
    train = load_rows(args.train, KEYS, "compare_posts", n_features=N_FEATURES)
    test = load_rows(args.test, KEYS, "compare_posts", n_features=N_FEATURES)
    both = sorted(set(train["seed"].tolist()) & set(test["seed"].tolist()))
    if both:
        print(f"compare_posts: test seeds also in training: {both[:5]}", file=sys.stderr)
        return 2
    tr, te = train["y"] >= 0, test["y"] >= 0
    rows = {k: v[te] for k, v in test.items()}
    y = rows["y"]
    print(f"train {len(np.unique(train['seed']))} seeds, {int(np.sum(train['y'] == 1))} posts "
          f"{int(np.sum(train['y'] == 0))} others; test {len(np.unique(rows['seed']))} seeds, "
          f"{int(np.sum(y == 1))} posts {int(np.sum(y == 0))} others")
    committed = yes_share(load_forest(args.model, N_FEATURES, "the post judge"), rows["x"],
                          N_FEATURES)
    report("committed", y, committed, rows, args.thresholds, args.vetoes)
    rt = forest(train["x"][tr].astype(np.float32), train["y"][tr].astype(np.int32),
                args.trees, args.depth, args.seed)
    report("retrained", y, scores(rt, rows["x"]), rows, args.thresholds, args.vetoes)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        rt.save(str(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Is a retrained tile judge better than the committed one? Both measured on the same rows.

    .venv/bin/python training/compare_tiles.py training/data/tiles_42100.npz [--balance]

The rows are ``make_tiles.py``'s (seeds the committed forest never saw). The committed forest
(``vision/models/tiles.yml.gz``) judges every row as it is; forests of the same size trained
on these rows are judged four-fold by seed (each quarter of the seeds by a forest trained on
the other three), unbalanced and balanced (:func:`training.forest_data.balanced`). For each:
the true tiles and the other squares dropped at vetoes 0.1, 0.2 and 0.3, and of the squares
the centre net's fits placed (sources net and faint), how many the judge is sure of (votes
``--sure`` and up: :attr:`vision.tile_judge.TileJudgeConfig.sure`, where a tile stands
though the namer does not see it), tiles and others apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forest_data import balanced, load_rows
from training.forests import forest, scores
from vision.forest import load_forest, yes_share
from vision.tile_features import N_FEATURES
from vision.tile_judge import FAINT, MODELS, NET

VETOES = (0.1, 0.2, 0.3)


def figures(y: np.ndarray, s: np.ndarray, source: np.ndarray, sure: float) -> str:
    """One line: the squares, those dropped at each veto, and the net's squares judged sure."""
    net = np.isin(source, (NET, FAINT))
    drops = " ".join(f"{v}:{int(np.sum((s < v) & (y == 1)))}/{int(np.sum((s < v) & (y == 0)))}"
                     for v in VETOES)
    return (f"tiles {int(np.sum(y == 1))} others {int(np.sum(y == 0))}; dropped tiles/others "
            f"{drops}; net tiles sure {int(np.sum(net & (y == 1) & (s >= sure)))} of "
            f"{int(np.sum(net & (y == 1)))}, net others sure "
            f"{int(np.sum(net & (y == 0) & (s >= sure)))} of {int(np.sum(net & (y == 0)))}")


def four_fold(x: np.ndarray, y: np.ndarray, seed: np.ndarray, trees: int, depth: int,
              balance: bool) -> np.ndarray:
    """Each row's votes from a forest trained on the other three quarters of the seeds."""
    out = np.zeros(len(y))
    seeds = np.unique(seed)
    for k in range(4):
        held = np.isin(seed, seeds[k::4])
        xt, yt = (balanced(x[~held], y[~held]) if balance else (x[~held], y[~held]))
        out[held] = scores(forest(xt, yt, trees, depth, 1), x[held])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--model", type=Path, default=MODELS / "tiles.yml.gz")
    ap.add_argument("--trees", type=int, default=150)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--sure", type=float, default=0.8)
    args = ap.parse_args(argv)
    rows = load_rows(args.data, ("x", "y", "seed", "source"), "compare_tiles",
                     n_features=N_FEATURES)
    keep = rows["y"] >= 0
    x, y, seed, source = (rows[k][keep] for k in ("x", "y", "seed", "source"))
    print(f"{len(np.unique(seed))} seeds")
    committed = yes_share(load_forest(args.model, N_FEATURES, "the tile judge"), x, N_FEATURES)
    print("committed:", figures(y, committed, source, args.sure))
    for balance in (False, True):
        s = four_fold(x, y, seed, args.trees, args.depth, balance)
        print(f"retrained{' balanced' if balance else ''}, four-fold:",
              figures(y, s, source, args.sure))
    return 0


if __name__ == "__main__":
    sys.exit(main())

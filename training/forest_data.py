"""What every forest's train script does alike before and after its own figures: load the rows
its ``make_*.py`` wrote, keep the labelled ones (and leave a table family out: ``--without``),
split the scenes into seeds that train and seeds held out, balance the labels, and save the
forest with its figures beside it.

    >>> import numpy as np
    >>> s = split_last(np.array([5, 5, 6, 7, 8, 9]), holdout=0.4)
    >>> s.train.tolist(), s.first_held
    ([True, True, True, True, False, False], 8)
    >>> split_every(np.array([1, 2, 3, 4, 5, 6]), holdout=0.3).test.tolist()
    [False, False, True, False, False, True]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training.forests import forest, scores

Rows = dict[str, np.ndarray]
"""Columns of equal length: ``x`` (N, F) features, ``y`` (N,) labels (1, 0, or -1: left out),
``seed`` (N,) the scene each row came from, and whatever conditions the maker wrote."""


def common_arguments(ap: argparse.ArgumentParser, trees: int, depth: int, holdout: float,
                     without: bool = True) -> None:
    """The arguments every train script takes: the data files, ``-o``, the forest's size, the
    held-out share, the seed, ``--balance`` (train on :func:`balanced` rows) and
    (``without``) ``--without``, a table family to leave out."""
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--trees", type=int, default=trees)
    ap.add_argument("--depth", type=int, default=depth)
    ap.add_argument("--holdout", type=float, default=holdout)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--balance", action="store_true",
                    help="repeat the rarer label's rows to about the other's count (balanced)")
    if without:
        ap.add_argument("--without", default=None,
                        help="leave this table family out of the data altogether (a held-out "
                             "forest for bench/bench_vision_accuracy.py)")


def load_rows(paths: Sequence[Path], keys: Sequence[str], script: str,
              n_features: int | None = None,
              features: Sequence[str] | None = None) -> Rows:
    """The columns ``keys`` of every file in ``paths``, one after another.

    Raises SystemExit naming the script (and the file) when a file was made with other
    features: ``n_features`` columns of ``x``, or the names a file's ``features`` lists."""
    parts = []
    for path in paths:
        try:
            parts.append(np.load(path))
        except (OSError, ValueError) as exc:
            raise SystemExit(f"{script}: {path}: not a training file ({exc})") from None
    for part, path in zip(parts, paths, strict=True):
        if features is not None and tuple(part["features"]) != tuple(features):
            raise SystemExit(f"{path}: made with other features than {script}'s")
        missing = [k for k in keys if k not in part.files]
        if missing:
            raise SystemExit(f"{script}: {path}: no column {missing[0]!r}")
    rows = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    if n_features is not None and rows["x"].shape[1] != n_features:
        raise SystemExit(f"{script}: {rows['x'].shape[1]} features, not {n_features}")
    return rows


def subset(rows: Rows, use: np.ndarray) -> Rows:
    """The rows where ``use`` holds."""
    return {k: v[use] for k, v in rows.items()}


def labelled(rows: Rows, family: np.ndarray, without: str | None, script: str) -> Rows:
    """The rows with a label (``y >= 0``) and, with ``without``, none of that table family
    (``family``, (N,) one per row). Raises SystemExit when no row is of that family."""
    use = rows["y"] >= 0
    if without is not None:
        if not np.any(family == without):
            raise SystemExit(f"{script}: --without {without}: no such family in the data")
        use &= family != without
    return subset(rows, use)


@dataclass(frozen=True)
class Split:
    """Which rows train and which are held out, by the scene (seed) they came from: every
    row of one scene on the same side.

    Attributes:
        train: (N,) bool.
        test: (N,) bool, ``~train``.
        seeds: The distinct seeds, ascending.
        held: The held-out seeds.
    """

    train: np.ndarray
    test: np.ndarray
    seeds: np.ndarray
    held: np.ndarray

    @property
    def first_held(self) -> int:
        """The lowest held-out seed."""
        return int(self.held[0])


def split_last(seed: np.ndarray, holdout: float) -> Split:
    """The last ``holdout`` share of the distinct seeds held out (scenes made later)."""
    seeds = np.unique(seed)
    cut = seeds[int(len(seeds) * (1 - holdout))]
    test = seed >= cut
    return Split(~test, test, seeds, seeds[seeds >= cut])


def split_every(seed: np.ndarray, holdout: float) -> Split:
    """Every ``round(1 / holdout)``-th distinct seed held out (each kind of scene, drawn in
    turn by the maker, on both sides)."""
    seeds = np.unique(seed)
    step = max(2, round(1.0 / holdout))
    held = seeds[step - 1::step]
    test = np.isin(seed, held)
    return Split(~test, test, seeds, held)


def balanced(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows with those of the rarer label repeated (up to ten times) to about as many as
    the other's: the forest's votes then weigh a rare kind as much as the common one.

    >>> xb, yb = balanced(np.zeros((5, 1)), np.array([1, 1, 1, 1, 0]))
    >>> int((yb == 0).sum()), int((yb == 1).sum())
    (4, 4)
    """
    rare = int(np.sum(y == 1) < np.sum(y == 0))
    n_rare, n_many = int(np.sum(y == rare)), int(np.sum(y != rare))
    times = min(10, max(1, n_many // max(1, n_rare)))
    idx = np.r_[np.arange(len(y)), np.repeat(np.flatnonzero(y == rare), times - 1)]
    return x[idx], y[idx]


def fit(args: argparse.Namespace, x: np.ndarray, y: np.ndarray) -> cv2.ml.RTrees:
    """A forest of the size :func:`common_arguments` read (``trees``, ``depth``, ``seed``) on
    rows ``x`` with labels ``y``, :func:`balanced` first with ``--balance``."""
    if args.balance:
        x, y = balanced(x, y)
    return forest(x, y, args.trees, args.depth, args.seed)


def save_with_figures(model: cv2.ml.RTrees, out: Path, report: dict[str, object]) -> Path:
    """Saves ``model`` to ``out`` and ``report`` as JSON beside it (``tiles.yml.gz`` ->
    ``tiles.json``); returns the JSON's path."""
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    beside = out.with_name(out.name.split(".")[0] + ".json")
    beside.write_text(json.dumps(report, indent=1) + "\n")
    return beside


def leave_one_family_out(args: argparse.Namespace, x: np.ndarray, y: np.ndarray,
                         family: np.ndarray,
                         figures: Callable[[np.ndarray, np.ndarray], dict[str, float]],
                         worth: Callable[[np.ndarray], bool]) -> dict[str, dict[str, float]]:
    """For each table family, ``figures(labels, scores)`` of its rows as judged by a forest
    (:func:`fit`) trained on the other families' rows; a family whose mask of rows ``worth``
    does not accept (nothing of the kind to judge) is left out of the report."""
    report = {}
    for fam in sorted(set(family.tolist())):
        out = family == fam
        if not worth(out):
            continue
        rf = fit(args, x[~out], y[~out])
        report[str(fam)] = figures(y[out], scores(rf, x[out]))
    return report


def fit_and_save(args: argparse.Namespace, x: np.ndarray, y: np.ndarray,
                 report: dict[str, object]) -> int:
    """The forest of every row saved to ``args.out`` with ``report`` (and ``--without``)
    beside it, the report printed; the script's exit code."""
    final = fit(args, x, y)
    report["without"] = args.without
    save_with_figures(final, args.out, report)
    print(json.dumps(report, indent=1))
    return 0

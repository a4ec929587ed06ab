"""Every reading the post judge scores in a detection, with its score and what the judge saw:
a diagnostic of why a flat dark patch passes and a true post is doubted.

    .venv/bin/python training/post_readings.py --devscenes /work/shared/devscenes
    .venv/bin/python training/post_readings.py --seeds 136000:136004 --table checks-large \
        --light hard --cache /tmp/post_cases

The full detector runs as the bench runs it (the devscenes with their own set of pieces:
``bench.bench_vision_accuracy.DEVSCENE_PIECES``); each time it asks the judge
(:func:`vision.post_reading.judge_scores`, the dark mask's readings and the centre net's alike),
the reading's foot, the judge's share of votes and the summary features
(:data:`vision.post_features.SUMMARY`: the wall's and the top's levels, the table round it, how
much of the outline stands out) are printed, with ``true`` (a post within ``--hit-mm``),
``near`` (within ``--miss-mm``) or ``false``. The last lines give, per label, the range of each
feature, so the real photographs' posts can be set beside the renders' (the judge learnt only
from renders).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.post_candidates as post_candidates
import vision.post_reading as post_reading
from training.make_posts import seed_range, true_posts
from training.post_cases import rendered
from vision import Detector, DetectorConfig
from vision.post_features import ACROSS, ALONG, SUMMARY, post_features

SHOWN: tuple[str, ...] = ("wall_level", "top_level", "top_spread", "ring_level", "ring_spread",
                          "outlined", "unlike")
"""The summary features printed per reading."""


def label(foot_mm: np.ndarray, posts_mm: np.ndarray, hit_mm: float, miss_mm: float) -> str:
    """``true``, ``near`` or ``false`` by the distance to the nearest true post.

    >>> label(np.array([0.0, 3.0]), np.array([[0.0, 0.0]]), 4.0, 10.0)
    'true'
    >>> label(np.array([0.0, 30.0]), np.zeros((0, 2)), 4.0, 10.0)
    'false'
    """
    if not len(posts_mm):
        return "false"
    d = float(np.min(np.hypot(*(posts_mm - foot_mm).T)))
    return "true" if d <= hit_mm else ("near" if d <= miss_mm else "false")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devscenes", type=Path, default=None, help="the devscenes' folder")
    ap.add_argument("--seeds", type=seed_range, default=None, help="A:B (renders, no hand)")
    ap.add_argument("--table", default=None, help="pin the renders' table kind")
    ap.add_argument("--light", default=None, help="pin the renders' light")
    ap.add_argument("--cache", type=Path, default=None, help="a folder keeping the renders")
    ap.add_argument("--hit-mm", type=float, default=4.0)
    ap.add_argument("--miss-mm", type=float, default=10.0)
    args = ap.parse_args(argv)
    log: list[tuple[np.ndarray, np.ndarray, float]] = []
    judge_scores = post_reading.judge_scores

    def logged(cfg, level, prep, feet_px, against, plain=None):  # type: ignore[no-untyped-def]
        s = judge_scores(cfg, level, prep, feet_px, against, plain)
        feet = np.asarray(feet_px, float).reshape(-1, 2)
        f = post_features(cfg, level, prep.view, feet, against, plain)
        log.extend(zip(prep.view.to_mm(feet), f, s, strict=True))
        return s

    post_reading.judge_scores = logged  # the detector's own calls, both stages
    post_candidates.judge_scores = logged
    n_grid = len(ALONG) * len(ACROSS)
    ranges: dict[str, list[np.ndarray]] = defaultdict(list)

    def report(name: str, detector: Detector, image: np.ndarray, posts_mm: np.ndarray) -> None:
        log.clear()
        detector.detect(image)
        for foot, f, s in log:
            what = label(foot, posts_mm, args.hit_mm, args.miss_mm)
            summary = dict(zip(SUMMARY, f[n_grid:], strict=True))
            ranges[what].append(np.array([float(s)] + [summary[k] for k in SHOWN]))
            print(f"{name} {what} score={float(s):.2f} at {np.round(foot, 1).tolist()} "
                  + " ".join(f"{k}={summary[k]:.2f}" for k in SHOWN), flush=True)

    if args.devscenes is not None:
        from bench.bench_vision_accuracy import DEVSCENE_PIECES, devscene_cases
        for case in devscene_cases(args.devscenes):
            posts = np.array([[p["x"], p["y"]] for p in case.truth if p["kind"] == "post"]
                             ).reshape(-1, 2)
            report(case.name, Detector(case.calibration, DEVSCENE_PIECES,
                                       config=DetectorConfig()), case.image, posts)
    for seed in args.seeds or ():
        r = rendered(seed, args.cache, table=args.table, light=args.light)
        shown, hidden = true_posts(r)
        report(str(seed), Detector(r.calibration()), r.image, np.r_[shown, hidden])
    for what, rows in sorted(ranges.items()):
        a = np.array(rows)
        print(f"{what} ({len(a)}): " + ", ".join(
            f"{k} {lo:.2f}-{hi:.2f}" for k, lo, hi in zip(("score", *SHOWN), a.min(axis=0),
                                                         a.max(axis=0), strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

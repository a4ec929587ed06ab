"""The full detector's post precision and recall on renders of dark tables, with the post
stage's noise for the unlikeness measured at a post's scale and with the frame's pixel noise
alone (:attr:`vision.post_level.PostLevelConfig.noise_mm` 0): a check of that one change.

    .venv/bin/python training/post_level_check.py --seeds 175900:175916 --cache /tmp/renders

Each seed is drawn as ``training/post_loss.py`` draws it with ``--post-weight 0.8
--hard-share 1.0`` (hard clutter and lights pinned), its table pinned to one of
:data:`training.make_posts.DARK_TABLES` in turn (``--all-tables``: the table drawn as it
comes). A post is found when a reading stands within the accuracy bench's 12 mm of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_vision_accuracy import nearest_pairs
from training.make_posts import DARK_TABLES, seed_range, true_posts
from training.post_cases import rendered
from vision import Detector, DetectorConfig
from vision.post_level import PostLevelConfig

MATCH_MM = 12.0


def counts(found: np.ndarray, shown: np.ndarray, hidden: np.ndarray) -> tuple[int, int, int]:
    """(true posts found, true posts in full view, false readings) as the bench pairs them
    (a reading paired with a hidden post is neither).

    >>> counts(np.array([[0.0, 0.0], [50.0, 0.0]]), np.array([[1.0, 0.0]]), np.zeros((0, 2)))
    (1, 1, 1)
    """
    pairs = nearest_pairs(found, np.r_[shown, hidden], MATCH_MM)
    hit = sum(1 for _, j, _ in pairs if j < len(shown))
    return hit, len(shown), len(found) - len(pairs)


def compare(seeds: Sequence[int], cache: Path | None, tables: Sequence[str | None],
            configs: dict[str, DetectorConfig]) -> None:
    """Reads each seed's render (drawn as this module's doc says, its table pinned to
    ``tables`` in turn, None: drawn) with each detector configuration, and prints a line a
    seed and each configuration's totals (``NAME_post_recall=...`` lines)."""
    total = {k: np.zeros(3, int) for k in configs}
    for i, seed in enumerate(seeds):
        r = rendered(seed, cache, 0.8, 1.0, tables[i % len(tables)])
        shown, hidden = true_posts(r)
        line = []
        for name, cfg in configs.items():
            res = Detector(r.calibration(), config=cfg).detect(r.image)
            found = np.array([p.centre_mm for p in res.scene.pieces if p.kind == "post"]
                             ).reshape(-1, 2)
            c = counts(found, shown, hidden)
            total[name] += c
            line.append(f"{name} {c[0]}/{c[1]} false {c[2]}")
        cond = r.conditions
        print(f"# {seed} {cond['table']} {cond['light']} {cond['clutter']}: " + "; ".join(line),
              flush=True)
    for name, (hit, n, false) in total.items():
        print(f"{name}_post_recall={hit / max(n, 1):.3f} {name}_post_precision="
              f"{hit / max(hit + false, 1):.3f} {name}_posts={n} {name}_false={false}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--all-tables", action="store_true")
    args = ap.parse_args(argv)
    base = DetectorConfig()
    levels = {"pixel": PostLevelConfig(noise_mm=0.0), "post-scale": PostLevelConfig()}
    compare(args.seeds, args.cache, [None] if args.all_tables else list(DARK_TABLES),
            {name: replace(base, posts=replace(base.posts, level=level))
             for name, level in levels.items()})
    return 0

if __name__ == "__main__":
    sys.exit(main())

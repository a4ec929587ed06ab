"""Posts found with one detector setting and another on the same renders: an A/B, run by hand.

    .venv/bin/python training/post_ab.py --seeds 243000:243040 [--hand] [--cache DIR] \\
        --off centres.posts.touching=False

Renders each seed as ``bench/bench_vision_accuracy.py`` draws it (``--hand``: a hand over each,
as its ``render_hand`` cases; without, read from ``--cache`` as ``training/post_cases.py``
keeps them), detects it with the default detector (``on``) and with the fields ``--off`` names
set (``off``), pairs the posts found with the true ones as the bench does (nearest first,
within 12 mm; a hidden post takes its reading and counts neither way), and prints the scenes
where the two differ and the totals: posts in full view, found (true), false, foot mean.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_vision_accuracy import nearest_pairs
from training.make_posts import seed_range, true_posts
from training.post_cases import rendered
from vision import Detector, DetectorConfig

MATCH_MM = 12.0


def with_field(obj: object, path: str, value: object) -> object:
    """``obj`` (a frozen dataclass) with the field at the dotted ``path`` set to ``value``.

    >>> from vision.post_candidates import PostCandidateConfig
    >>> from vision.centre_proposals import CentreProposalConfig
    >>> c = with_field(CentreProposalConfig(), "posts.touching", False)
    >>> c.posts.touching, CentreProposalConfig().posts.touching
    (False, True)
    """
    head, _, rest = path.partition(".")
    if not rest:
        return replace(obj, **{head: value})
    return replace(obj, **{head: with_field(getattr(obj, head), rest, value)})


def score(render, config: DetectorConfig) -> tuple[int, int, int, list[float]]:
    """Posts in full view, those found, false posts, and the found ones' foot errors (mm)."""
    shown, hidden = true_posts(render)
    res = Detector(render.calibration(), config=config).detect(render.image)
    found = np.array([p.centre_mm for p in res.scene.pieces if p.kind == "post"]).reshape(-1, 2)
    pairs = nearest_pairs(found, np.r_[shown, hidden], MATCH_MM)
    hits = [d for _, j, d in pairs if j < len(shown)]
    return len(shown), len(hits), len(found) - len(pairs), hits


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("--hand", action="store_true", help="a hand over each (never cached)")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--off", action="append", default=[],
                    help="FIELD.PATH=VALUE of DetectorConfig for the 'off' detector")
    args = ap.parse_args(argv)
    off = DetectorConfig()
    for item in args.off:
        path, _, value = item.partition("=")
        off = with_field(off, path, ast.literal_eval(value))
    configs = {"on": DetectorConfig(), "off": off}
    tot = {k: [0, 0, 0, []] for k in configs}
    for seed in args.seeds:
        if args.hand:
            from tabletop.render.variety import draw_case
            r = draw_case(seed, hand=True).render()
        else:
            r = rendered(seed, args.cache)
        got = {k: score(r, c) for k, c in configs.items()}
        for k, (n, hit, false, errs) in got.items():
            t = tot[k]
            t[0] += n
            t[1] += hit
            t[2] += false
            t[3] += errs
        if got["on"][1:3] != got["off"][1:3]:
            cond = r.conditions
            print(f"# {seed} {cond['table']} {cond['light']} {cond['clutter']}: posts "
                  f"{got['on'][0]}, on found/false {got['on'][1]}/{got['on'][2]}, off "
                  f"{got['off'][1]}/{got['off'][2]}", flush=True)
    for k, (n, hit, false, errs) in tot.items():
        p = hit / max(hit + false, 1)
        print(f"{k}_posts={n} {k}_found={hit} {k}_false={false} {k}_precision={p:.4f} "
              f"{k}_recall={hit / max(n, 1):.4f} {k}_foot_mean_mm={np.mean(errs or [0]):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

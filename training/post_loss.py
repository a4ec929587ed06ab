"""Where is each missed post lost, and where does each false post come from? A diagnostic.

    .venv/bin/python training/post_loss.py --seeds 87000:87040

Renders each seed of the renderer's variety (as ``bench/bench_vision_accuracy.py`` does, no
hand), detects it with the full detector, and gathers every post candidate as the judge's
training does (``training/make_posts.py``: the dark mask's readings under the loose gates, the
feet read at the centre net's post peaks), each with the judge's score. Every true post in full
view that the scene misses (none within the bench's 12 mm) is put down to:

- ``no-candidate``: no candidate within ``--hit-mm`` of its foot (``near`` gives the nearest
  candidate's distance: a foot read too far, in its shadow);
- ``judged-off``: a candidate there, scored under the veto (the forest sure it is none);
- ``unsure``: the best candidate there scored between the veto and ``min_score`` (it stands
  only where the hand-set gates pass it);
- ``later``: a candidate there the forest is sure of, lost after the judge (the namer, a post
  already found over it, a hand's cells).

Every false post (paired with no truth, shown or hidden) is listed with its nearest
candidate's source and score, the nearest true post (a shadow of it?) and the nearest clutter.
The counts by cause and by condition end the output.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_vision_accuracy import nearest_pairs
from training.make_posts import candidates, seed_range, true_posts
from training.post_cases import rendered
from vision import Detector
from vision.post_features import N_FEATURES, UNLIKE_COLUMN
from vision.post_judge import PostJudgeConfig, judge_for

MATCH_MM = 12.0
"""The accuracy bench's tolerance for a post."""


def nearest(p: np.ndarray, pts: np.ndarray) -> tuple[float, int]:
    """Distance to and index of the nearest of ``pts`` (inf, -1 when there are none)."""
    if not len(pts):
        return math.inf, -1
    d = np.hypot(*(pts - p).T)
    i = int(np.argmin(d))
    return float(d[i]), i


def cause(d: float, score: float, hit_mm: float, judge: PostJudgeConfig) -> str:
    """The step a missed post was lost at, from its nearest candidate's distance and score.

    >>> j = PostJudgeConfig()
    >>> cause(9.0, 0.9, 4.0, j), cause(1.0, 0.1, 4.0, j), cause(1.0, 0.3, 4.0, j)
    ('no-candidate', 'judged-off', 'unsure')
    >>> cause(1.0, 0.7, 4.0, j)
    'later'
    """
    if d > hit_mm:
        return "no-candidate"
    if score < judge.veto:
        return "judged-off"
    return "unsure" if score < judge.min_score else "later"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("--hit-mm", type=float, default=4.0)
    ap.add_argument("--least", type=float, default=0.1, help="least heat of a net peak")
    ap.add_argument("--model", type=Path, default=None, help="the judge's forest")
    ap.add_argument("--cache", type=Path, default=None,
                    help="a folder keeping the renders (training/post_cases.py)")
    ap.add_argument("--post-weight", type=float, default=None,
                    help="lay posts this often (None: the bench's usual mix)")
    ap.add_argument("--hard-share", type=float, default=0.0,
                    help="pin hard clutter, lights and dark tables as make_posts.py does")
    ap.add_argument("--table", default=None, help="pin this table kind (e.g. checks-large)")
    ap.add_argument("--light", default=None, help="pin this light (e.g. dim-warm)")
    args = ap.parse_args(argv)
    jc = PostJudgeConfig() if args.model is None else PostJudgeConfig(model=args.model)
    judge = judge_for(jc, N_FEATURES, UNLIKE_COLUMN)
    causes: Counter[str] = Counter()
    by_cond: Counter[tuple[str, str]] = Counter()
    false_by: Counter[str] = Counter()
    for seed in args.seeds:
        r = rendered(seed, args.cache, args.post_weight, args.hard_share, args.table,
                     args.light)
        cal = r.calibration()
        shown, hidden = true_posts(r)
        res = Detector(cal).detect(r.image)
        found = np.array([p.centre_mm for p in res.scene.pieces if p.kind == "post"]
                         ).reshape(-1, 2)
        cands = candidates(r.image, cal, args.least)
        feet = np.concatenate([c[1] for c in cands]) if cands else np.zeros((0, 2))
        source = np.concatenate([np.full(len(c[1]), c[2]) for c in cands]) if cands else \
            np.zeros(0, int)
        heat = np.concatenate([np.full(len(c[1]), c[3]) for c in cands]) if cands else \
            np.zeros(0)
        score = judge.scores(np.concatenate([c[0] for c in cands])) if cands else np.zeros(0)
        cond = r.conditions
        head = f"{seed} {cond['table']}/{cond['table_family']} {cond['light']} {cond['clutter']}"
        lines = []
        # paired as the bench pairs them (nearest first; a hidden post takes its reading)
        pairs = nearest_pairs(found, np.r_[shown, hidden], MATCH_MM)
        used = np.zeros(len(found), bool)
        used[[i for i, _, _ in pairs]] = True
        met = {j for _, j, _ in pairs}
        for j, t in enumerate(shown):
            if j in met:
                continue
            d, _ = nearest(t, found)
            near = np.hypot(*(feet - t).T) if len(feet) else np.zeros(0)
            at = near <= args.hit_mm
            best = float(score[at].max()) if at.any() else 0.0
            top = int(np.flatnonzero(at)[np.argmax(score[at])]) if at.any() else -1
            src = "-" if top < 0 else ("mask", "net", "contrast", "top")[int(source[top])]
            hot = 0.0 if top < 0 else float(heat[top])
            dc = float(near.min()) if len(near) else math.inf
            c = cause(dc, best, args.hit_mm, jc)
            causes[c] += 1
            for k in ("table_family", "light", "clutter"):
                by_cond[(f"{k}={cond[k]}", c)] += 1
            lines.append(f"  miss {c}: at {np.round(t, 1).tolist()} near={dc:.1f} mm "
                         f"score={best:.2f} from {src} heat={hot:.2f} found_d={d:.1f}")
        for k in np.nonzero(~used)[0]:
            f = found[k]
            dc, ic = nearest(f, feet)
            dt, _ = nearest(f, shown)
            clutter = [(math.dist(f, x["centre_mm"]), x["kind"]) for x in r.distractors]
            dk, kind = min(clutter, default=(math.inf, "-"))
            what = kind if dk <= 40.0 else ("post-shadow" if dt <= 45.0 else "table")
            false_by[what] += 1
            src = "?" if ic < 0 or dc > 2.0 else ("mask", "net", "contrast", "top")[int(source[ic])]
            sc = score[ic] if ic >= 0 else 0.0
            lines.append(f"  false {what}: at {np.round(f, 1).tolist()} from {src} "
                         f"score={sc:.2f} post_d={dt:.1f} clutter={kind}@{dk:.0f}")
        print(f"# {head}: {len(shown)} posts, {len(found)} found", flush=True)
        for ln in lines:
            print(ln, flush=True)
    print("missed by cause: " + ", ".join(f"{k}={v}" for k, v in causes.most_common()))
    print("false by what: " + ", ".join(f"{k}={v}" for k, v in false_by.most_common()))
    for (c, k), v in sorted(by_cond.items()):
        print(f"  {c} {k}={v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

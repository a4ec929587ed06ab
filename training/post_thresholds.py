"""Chooses the post judge's pair of thresholds end to end: the full detector's post precision
and recall at each ``min_score`` / ``veto`` pair, on renders and on the devscenes.

    .venv/bin/python training/post_thresholds.py --seeds 45000:45040 \
        --cache training/data/post_cache --pairs 0.5:0.2,0.5:0.3,0.6:0.3 \
        [--post-weight 0.8 --hard-share 1.0] [--model vision/models/posts.yml.gz] \
        [--devscenes ../shared/devscenes]

A reading stands where the forest gives it ``min_score`` or more, or where the hand-set gates
pass it and it has ``veto`` or more (:class:`vision.post_judge.PostJudgeConfig`). The renders
(the renderer's variety, no hand, as ``bench/bench_vision_accuracy.py`` draws them, or with
``--post-weight`` / ``--hard-share`` as ``training/make_posts.py`` draws its seeds) are made
once and kept in ``--cache`` (a folder, :mod:`training.post_cases`), so pairs and forests are
compared on the same frames; the seeds must be ones the forest took no part in (its training
seeds are in ``posts.json``). The devscenes are for reporting the pair chosen as a whole,
never for choosing it. Counting
is the accuracy bench's (a post within 12 mm; hidden posts not counted). One line per pair and
per source (``render``, ``dev``), and per table family and light for the renders.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_vision_accuracy import (  # noqa: E402
    DEVSCENE_PIECES,
    Case,
    Tally,
    devscene_cases,
    score,
)
from training.make_posts import seed_range  # noqa: E402
from training.post_cases import rendered  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.centre_proposals import CentreProposalConfig  # noqa: E402
from vision.post_judge import PostJudgeConfig  # noqa: E402
from vision.posts import PostConfig  # noqa: E402


@dataclass(frozen=True)
class Pair:
    """A reading stands at ``min_score``, or at ``veto`` where the gates pass it."""

    min_score: float
    veto: float


def parse_pairs(text: str) -> list[Pair]:
    """``"0.5:0.2,0.6:0.3"`` -> the pairs.

    >>> parse_pairs("0.5:0.2,0.6:0.35")
    [Pair(min_score=0.5, veto=0.2), Pair(min_score=0.6, veto=0.35)]
    """
    out = []
    for part in text.split(","):
        a, b = part.split(":")
        out.append(Pair(float(a), float(b)))
    return out


def cached_renders(seeds: range, cache: Path | None, post_weight: float | None = None,
                   hard_share: float = 0.0) -> list[Case]:
    """The renders of ``seeds`` (no hand) as the bench scores them, kept in ``cache``."""
    out = []
    for seed in seeds:
        r = rendered(seed, cache, post_weight, hard_share)
        truth = [{**p.to_json(), "occluded": bool(tr.occluded or tr.visible_fraction < 1)}
                 for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
        out.append(Case(f"case-{seed}", r.image, r.calibration(), truth,
                        bool(r.hand_mask.any()), dict(r.conditions)))
    return out


def post_tally(cases: list[Case], posts: PostConfig, pieces=None,
               by: tuple[str, ...] = (), max_gain: float | None = None) -> dict[str, Tally]:
    """The bench's counts of every case read with ``posts``: ``all`` and per condition
    (``max_gain``: the centre net's post places read again stretched by at most this gain,
    :class:`vision.post_candidates.PostCandidateConfig`; None: as committed)."""
    out: dict[str, Tally] = defaultdict(Tally)
    centres = CentreProposalConfig()
    if max_gain is not None and centres.posts is not None:
        centres = replace(centres, posts=replace(centres.posts, max_gain=max_gain))
    for case in cases:
        det = Detector(case.calibration, pieces,
                       config=DetectorConfig(kinds=case.kinds, posts=posts, centres=centres))
        res = det.detect(case.image)
        t = score(res.scene, case.truth, case.hand, 0.0)
        out["all"].add(t)
        for c in by:
            out[f"{c}={case.conditions.get(c, '?')}"].add(t)
    return out


def line(name: str, t: Tally) -> str:
    """``name P=.. R=.. (found/truth, false)`` of the posts."""
    found, truth = t.found["post"], t.truth["post"]
    paired, false = t.paired["post"], t.spurious["post"]
    p = paired / max(1, paired + false)
    r = paired / max(1, truth)
    return f"{name} P={p:.3f} R={r:.3f} ({paired}/{truth}, {false} false, {found} read)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--devscenes", type=Path, default=None)
    ap.add_argument("--pairs", type=parse_pairs, default=parse_pairs("0.5:0.2"))
    ap.add_argument("--model", type=Path, default=None, help="the forest (default: committed)")
    ap.add_argument("--post-weight", type=float, default=None,
                    help="lay posts this often (None: the bench's usual mix)")
    ap.add_argument("--hard-share", type=float, default=0.0,
                    help="pin hard clutter, lights and dark tables as make_posts.py does")
    ap.add_argument("--max-gain", type=float, default=None,
                    help="read faint places again stretched by at most this gain (1: never; "
                         "default: as committed)")
    args = ap.parse_args(argv)
    renders = cached_renders(args.seeds, args.cache, args.post_weight, args.hard_share)
    dev = devscene_cases(args.devscenes) if args.devscenes and args.devscenes.is_dir() else []
    for pair in args.pairs:
        judge = PostJudgeConfig(min_score=pair.min_score, veto=pair.veto)
        if args.model is not None:
            judge = PostJudgeConfig(model=args.model, min_score=pair.min_score, veto=pair.veto)
        posts = PostConfig(judge=judge)
        head = f"min_score={pair.min_score} veto={pair.veto}"
        got = post_tally(renders, posts, by=("table_family", "light", "clutter"),
                         max_gain=args.max_gain)
        print(line(f"{head} render", got["all"]), flush=True)
        for k in sorted(got):
            if k != "all":
                print("   " + line(k, got[k]))
        if dev:
            print(line(f"{head} dev", post_tally(dev, posts, DEVSCENE_PIECES,
                                                 max_gain=args.max_gain)["all"]),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

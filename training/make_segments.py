"""Training data for the segment judge: candidate discs from rendered Worm Up! tables, labelled
by the renderer's truth.

    .venv/bin/python training/make_segments.py --seeds 65200:65500 -o training/data/segments.npz

Each seed is a table of the renderer's variety laying Worm Up!'s pieces
(``tabletop.render.variety.draw_game_case(seed, "worm-up")``: every table kind, light and
clutter). Its frame goes through the detector's own first stages (prepare, tiles masked out)
and :func:`vision.segments.segment_candidates`; each candidate's features
(:mod:`vision.segment_features`) are labelled 1 when a segment in full view lies within
``--hit-mm`` of it, 0 when no segment at all lies within ``--miss-mm`` (between the two, or
by a half-hidden segment: left out). The file holds ``x`` (N, F), ``y`` (N,), ``seed`` (N,)
and ``family`` (N, the table's family) for held-out figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabletop.render.variety import draw_game_case
from vision import Detector, DetectorConfig
from vision.prepare import prepare
from vision.segment_features import candidate_images, disc_features
from vision.segments import segment_candidates
from vision.tiles import detect_tiles
from vision.topview import halve


def seed_range(text: str) -> range:
    """``A:B`` -> range(A, B)."""
    a, b = text.split(":")
    return range(int(a), int(b))


def candidates_of(image: np.ndarray, calibration, ) -> tuple[np.ndarray, np.ndarray]:
    """``(features, feet_mm)`` of the candidates the detector would judge in one frame."""
    det = Detector(calibration, config=DetectorConfig.for_game("worm-up", memory=None))
    cfg = det.config
    prep = prepare(cfg.prepare, det.view, image, det._valid, everywhere=True,
                   half_bgr=halve(image))
    _, tmask = detect_tiles(cfg.tiles, prep)
    cand = segment_candidates(cfg.segments, prep, tmask)
    feats = disc_features(candidate_images(prep, cand.mask), cand.centres_px, cand.r_px)
    seen = det.view.to_mm(cand.centres_px) if len(cand.centres_px) else np.zeros((0, 2))
    return feats, det.view.camera.foot_of(seen, 0.0)


def labels(feet_mm: np.ndarray, shown: list[tuple[float, float]],
           half_hidden: list[tuple[float, float]], hit_mm: float, miss_mm: float
           ) -> np.ndarray:
    """1 (a segment), 0 (none), -1 (left out) for each candidate foot (N, 2)."""
    out = np.full(len(feet_mm), -1, np.int32)
    for i, f in enumerate(feet_mm):
        d_shown = min((math.dist(f, t) for t in shown), default=math.inf)
        d_any = min(d_shown, min((math.dist(f, t) for t in half_hidden), default=math.inf))
        if d_shown <= hit_mm and d_any == d_shown:
            out[i] = 1
        elif d_any > miss_mm:
            out[i] = 0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--hit-mm", type=float, default=4.0)
    ap.add_argument("--miss-mm", type=float, default=8.0)
    args = ap.parse_args(argv)
    xs, ys, seeds, families = [], [], [], []
    t0 = time.perf_counter()
    for seed in args.seeds:
        case = draw_game_case(seed, "worm-up")
        r = case.render()
        shown, half = [], []
        for p, tr in zip(r.scene.pieces, r.truth, strict=True):
            if p.kind == "segment":
                (half if tr.occluded or tr.visible_fraction < 0.95 else shown).append(
                    p.centre_mm)
        feats, feet = candidates_of(r.image, r.calibration())
        y = labels(feet, shown, half, args.hit_mm, args.miss_mm)
        keep = y >= 0
        xs.append(feats[keep])
        ys.append(y[keep])
        seeds.append(np.full(int(keep.sum()), seed))
        families.append(np.full(int(keep.sum()), case.conditions["table_family"]))
        print(f"# {seed} {case.conditions['table']}: {int((y == 1).sum())} segments, "
              f"{int((y == 0).sum())} others ({time.perf_counter() - t0:.0f} s)", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, x=np.concatenate(xs), y=np.concatenate(ys),
                        seed=np.concatenate(seeds), family=np.concatenate(families))
    return 0


if __name__ == "__main__":
    sys.exit(main())

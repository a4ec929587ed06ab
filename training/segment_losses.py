"""Where Worm Up! segments are lost, stage by stage, on tables pinned by kind and light.

    .venv/bin/python training/segment_losses.py --seeds 144000:144006 \
        --tables felt-red,cloth-red,gingham-red --lights soft,hard

Each seed renders the trust bench's Worm Up! start (``bench/bench_trust.py``: three worms of
seven touching segments side by side, red, yellow and blue, four posts) with that bench's own
camera and looks (:func:`bench_trust._looks`, the table and light pinned), and reads it with the
detector asked for Worm Up!. For every segment in view it says at which stage it was lost:

- ``mask``: less than half of its disc passed the colour mask (:mod:`vision.segment_mask`);
- ``candidate``: no candidate disc within 4 mm (:func:`vision.segments.segment_candidates`);
- ``judge``: a candidate there, but the judge's votes under its threshold (or a surer
  neighbour took it);
- ``colour``: found, named another colour;
- ``found``: found with its colour.

And how many segments were read where none lies (``phantom``). Prints one line a case and the
totals per colour and stage as ``name=value`` lines.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tabletop.render import render_scene  # noqa: E402
from training.make_segments import candidate_stage  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.segment_judge import judge_for  # noqa: E402
from vision.segment_mask import segment_mask  # noqa: E402

HIT_MM = 4.0


def start_scene(rng: np.random.Generator):
    """The trust bench's Worm Up! start, its worms shifted and bent a little by ``rng``."""
    import bench_trust as bt

    seg = bt.SEG
    worms = {}
    for i, colour in enumerate(("red", "yellow", "blue")):
        x0 = 50.0 + 50.0 * i + float(rng.uniform(-8, 8))
        pts, heading = [], math.pi / 2
        p = np.array([x0, -(seg / 2 + 2.0) - seg * 6])
        for _ in range(7):
            pts.append((float(p[0]), float(p[1])))
            heading += math.radians(float(rng.uniform(-3, 3)))
            p = p + seg * np.array([math.cos(heading), math.sin(heading)])
        worms[colour] = pts
    return bt._up_scene(worms)


def stages(image: np.ndarray, calibration, domes: bool = True) -> dict[str, object]:
    """What each stage gave on one frame: mask, candidates (feet, mm), scores, reading
    (``domes`` False: without the candidates found by their outline)."""
    config = DetectorConfig.for_game("worm-up", memory=None)
    if not domes:
        config = replace(config, segments=replace(config.segments, domes=None))
    det = Detector(calibration, config=config)
    cfg = det.config
    prep, cand, feats, feet = candidate_stage(det, image)
    score = judge_for(cfg.segments.judge).scores(feats) if len(feats) else np.zeros(0)
    mask = segment_mask(cfg.segments.mask, prep)
    reading = det.detect(image)
    return {"det": det, "prep": prep, "mask": mask, "cand_feet": feet, "score": score,
            "cand": cand, "reading": reading}


def lost_at(truth, st: dict[str, object]) -> list[tuple[str, str]]:
    """(colour, stage) for each segment of ``truth`` (Pieces)."""
    det, mask = st["det"], st["mask"]
    reading = st["reading"]
    segs = [p for p in reading.scene.pieces if p.kind == "segment"]
    feet, score = st["cand_feet"], st["score"]
    r = st["cand"].r_px
    out = []
    for p in truth:
        px = det.view.to_px(np.array([p.centre_mm]))[0]
        disc = np.zeros(mask.shape, np.uint8)
        cv2.circle(disc, (round(px[0]), round(px[1])), max(1, round(0.8 * r)), 255, -1)
        share = np.count_nonzero(mask[disc > 0]) / max(1, np.count_nonzero(disc))
        found = [q for q in segs if math.dist(q.centre_mm, p.centre_mm) <= HIT_MM]
        d = np.hypot(*(feet - np.array(p.centre_mm)).T) if len(feet) else np.zeros(0)
        if found:
            stage = "found" if any(q.color == p.color for q in found) else "colour"
        elif len(d) and d.min() <= HIT_MM:
            stage = f"judge({score[int(np.argmin(d))]:.2f})"
        elif share < 0.5:
            stage = f"mask({share:.2f})"
        else:
            stage = f"candidate({share:.2f})"
        out.append((p.color, stage))
    return out


def main(argv: list[str] | None = None) -> int:
    import bench_trust as bt

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="A:B")
    ap.add_argument("--tables", required=True, help="comma-separated table kinds")
    ap.add_argument("--lights", default="", help="comma-separated light kinds (default: drawn)")
    ap.add_argument("--save", type=Path, default=None, help="a folder for the frames")
    ap.add_argument("--no-domes", action="store_true",
                    help="without the candidates found by their outline (as before them)")
    args = ap.parse_args(argv)
    a, b = (int(v) for v in args.seeds.split(":"))
    tables = args.tables.split(",")
    lights = [x for x in args.lights.split(",") if x] or [None]
    totals: Counter[str] = Counter()
    for seed in range(a, b):
        for table in tables:
            for light in lights:
                looks = bt._looks(seed, table, light)
                rng = np.random.default_rng(seed)
                scene = start_scene(rng)
                pose = bt.worm_up(seed).pose
                r = render_scene(scene, pose, looks, bt.PIECES)
                st = stages(r.image, r.calibration(), domes=not args.no_domes)
                shown = [p for p, tr in zip(r.scene.pieces, r.truth, strict=True)
                         if p.kind == "segment" and not tr.occluded
                         and tr.visible_fraction >= 0.95]
                res = lost_at(shown, st)
                segs = [q for q in st["reading"].scene.pieces if q.kind == "segment"]
                phantom = sum(all(math.dist(q.centre_mm, t.centre_mm) > 8.0
                                  for t in r.scene.pieces if t.kind == "segment") for q in segs)
                by = Counter(f"{c}.{s.split('(')[0]}" for c, s in res)
                totals.update(by)
                totals["phantom"] += phantom
                lost = [f"{c}:{s}" for c, s in res if s != "found"]
                print(f"# {seed} {table} {light or looks_name(looks)}: found "
                      f"{by_total(by, 'found')}/{len(res)} phantom {phantom} "
                      f"{' '.join(lost)}", flush=True)
                if args.save is not None:
                    args.save.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(args.save / f"{seed}-{table}-{light}.jpg"), r.image)
    for k in sorted(totals):
        print(f"{k}={totals[k]}")
    return 0


def by_total(by: Counter[str], stage: str) -> int:
    return sum(v for k, v in by.items() if k.endswith("." + stage))


def looks_name(looks) -> str:
    return "drawn"


if __name__ == "__main__":
    sys.exit(main())

"""Training data for the segment judge: candidate discs from rendered Worm Up! tables, labelled
by the renderer's truth.

    .venv/bin/python training/make_segments.py --seeds 50500:50600 -o training/data/segments.npz

Each seed is a table of the renderer's variety laying Worm Up!'s pieces
(``tabletop.render.variety.draw_game_case(seed, "worm-up")``: every table kind, light and
clutter). A share of the seeds (``--setups``) shows instead a Worm Up! start on that table, in
that light and camera (:func:`setup_scene`): worms of several colours, each a row of touching
segments, lying side by side, whose shadows fall on the next worm; the variety's other pieces
stay where they do not touch a worm. Its frame goes through the detector's own first stages
(prepare, tiles masked out) and :func:`vision.segments.judged_view` (the segment stage's own
path: under a blind, the view with its bands of light divided out, as ``detect_segments``
reads it); each candidate's features (:mod:`vision.segment_features`) are labelled 1 when a
segment in full view lies within ``--hit-mm`` of it, 0 when no segment at all lies within
``--miss-mm`` (between the two, or by a half-hidden segment: left out). The file holds ``x``
(N, F), ``y`` (N,), ``seed`` (N,) and ``family`` (N, the table's family) for held-out figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_trust import LIGHTS, relit

from tabletop.render.variety import draw_game_case, view_region
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.prepare import prepare
from vision.segments import judged_view
from vision.tiles import detect_tiles
from vision.topview import halve


def seed_range(text: str) -> range:
    """``A:B`` -> range(A, B)."""
    a, b = text.split(":")
    return range(int(a), int(b))


def candidates_of(image: np.ndarray, calibration, ) -> tuple[np.ndarray, np.ndarray]:
    """``(features, feet_mm)`` of the candidates the detector would judge in one frame."""
    det = Detector(calibration, config=DetectorConfig.for_game("worm-up", memory=None))
    _, _, feats, feet = candidate_stage(det, image)
    return feats, feet


def candidate_stage(det: Detector, image: np.ndarray):
    """``(prep, candidates, features, feet_mm)``: the segment candidates ``det`` would judge
    in one frame, as its own stages make them (:func:`vision.segments.judged_view`, the path
    of ``detect_segments``: under a blind, the view with its bands of light divided out;
    ``prep`` is the view the segment stage reads)."""
    cfg = det.config
    prep = prepare(cfg.prepare, det.view, image, det._valid, everywhere=True,
                   half_bgr=halve(image))
    _, tmask = detect_tiles(cfg.tiles, prep)
    seen = judged_view(cfg.segments, prep, tmask)
    cand = seen.candidates
    at = det.view.to_mm(cand.centres_px) if len(cand.centres_px) else np.zeros((0, 2))
    return seen.prep, cand, seen.features, det.view.camera.foot_of(at, 0.0)


def setup_scene(scene: Scene, region, rng: np.random.Generator, colours: list[str],
                diameter_mm: float) -> Scene | None:
    """A Worm Up! start laid over a case's table: 2-5 worms of distinct colours, each a row of
    4-8 touching segments (bent by a few degrees at each), 24-70 mm apart side by side, at a
    random place and angle inside ``region`` (a shapely polygon, mm); the case's other pieces
    that keep clear of them stay. None when the start does not fit in the view."""
    from shapely.geometry import Point

    n = int(rng.integers(2, min(5, len(colours)) + 1))
    chosen = [colours[int(i)] for i in rng.permutation(len(colours))[:n]]
    gap = float(rng.uniform(24.0, 70.0))
    a = float(rng.uniform(0, 2 * math.pi))
    c = region.centroid
    cx, cy = float(c.x) + float(rng.uniform(-60, 60)), float(c.y) + float(rng.uniform(-60, 60))
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    segs: list[Piece] = []
    for i, colour in enumerate(chosen):
        p = np.array([cx, cy]) + (i - (n - 1) / 2) * gap * across - 70.0 * along
        heading = a
        for _ in range(int(rng.integers(4, 9))):
            segs.append(Piece("segment", round(float(p[0]), 2), round(float(p[1]), 2),
                              color=colour))
            heading += math.radians(float(rng.uniform(-4.0, 4.0)))
            p = p + (diameter_mm + float(rng.uniform(0.0, 0.3))) * np.array(
                [math.cos(heading), math.sin(heading)])
    if not all(region.contains(Point(q.x_mm, q.y_mm)) for q in segs):
        return None
    keep = [q for q in scene.pieces if q.kind != "segment" and min(
        math.dist(q.centre_mm, s.centre_mm) for s in segs) > 45.0]
    return Scene((*keep, *segs))


def aim_glare(settings, pose, at_mm: tuple[float, float]):
    """``settings`` with the lamp moved so that its mirror image in the table (the glare's
    spot) lies on the table point ``at_mm``: the lamp on the reflection of the camera's ray
    to that point (the worms under the brightest of the glare, where they wash out most)."""
    v = np.asarray(pose.centre_mm, float) - np.array([at_mm[0], at_mm[1], 0.0])
    v /= np.linalg.norm(v)
    return replace(settings, light_dir_deg=math.degrees(math.atan2(-v[1], -v[0])) % 360.0,
                   light_elevation_deg=math.degrees(math.asin(float(v[2]))))


RELIGHTS = ("dim", "off")
"""The trust bench's changes of light between a game's rounds (``bench_trust.LIGHTS``: a lamp
dimmed, or switched off leaving the window's light), laid over a case's own light by
``bench_trust.relit`` (a blind's stripes stay, dimmer or softer)."""


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
    ap.add_argument("--setups", type=float, default=0.5,
                    help="share of the seeds showing a Worm Up! start (setup_scene)")
    ap.add_argument("--tables", default="",
                    help="comma-separated table kinds pinned in turn, one per seed (default: "
                         "drawn), e.g. the cloths and felts of the segments' own colours")
    ap.add_argument("--lights", default="",
                    help="comma-separated light kinds pinned in turn (default: drawn), e.g. "
                         "the hard lamps whose shadows stand out from a coloured cloth")
    ap.add_argument("--spot", type=float, default=0.0,
                    help="share of the seeds whose lamp is moved so that its glare's spot "
                         "lies on a segment (aim_glare; with --lights glare)")
    ap.add_argument("--clutter", default="",
                    help="comma-separated clutter kinds pinned in turn, one per seed (default: "
                         "drawn), e.g. the dice, pencils and mugs of a segment's colour")
    ap.add_argument("--relight", type=float, default=0.0,
                    help="share of the seeds whose light is changed as the trust bench "
                         "changes it between rounds (RELIGHTS: dim or off, in turn)")
    args = ap.parse_args(argv)
    tables = [t for t in args.tables.split(",") if t]
    lights = [t for t in args.lights.split(",") if t]
    clutter = [t for t in args.clutter.split(",") if t]
    xs, ys, seeds, families = [], [], [], []
    t0 = time.perf_counter()
    for seed in args.seeds:
        pinned = {"table": tables[seed % len(tables)]} if tables else {}
        if lights:
            pinned["light"] = lights[(seed // max(1, len(tables))) % len(lights)]
        if clutter:
            pinned["clutter"] = clutter[seed % len(clutter)]
        case = draw_game_case(seed, "worm-up", **pinned)
        rng = np.random.default_rng([seed, 4242])
        if rng.uniform() < args.setups:
            start = setup_scene(case.scene, view_region(case.pose), rng,
                                list(case.pieces.segment_colours),
                                case.pieces.segment_diameter_mm)
            if start is not None:
                case = replace(case, scene=start)
        segs = [p for p in case.scene.pieces if p.kind == "segment"]
        if segs and rng.uniform() < args.spot:
            at = segs[int(rng.integers(len(segs)))].centre_mm
            case = replace(case, settings=aim_glare(case.settings, case.pose, at))
        if args.relight and rng.uniform() < args.relight:
            change = RELIGHTS[seed % len(RELIGHTS)]
            case = replace(case, settings=relit(case.settings, LIGHTS[change]))
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

"""Rows for the coin judge: every coin candidate the detector puts before the namer on the
renderer's randomised tables, with its features (:mod:`vision.coin_features`) and whether a
true coin stands there.

    .venv/bin/python training/make_coin_judge.py --seeds 41000:41300 -o training/data/coins_a.npz

Each seed's scene (``tabletop.render.variety.draw_case``) is read by the real detector with the
judge off (the namer's own veto); every call of :func:`vision.namer.name_detections` (the coin
stage's candidates and the centre net's fitted ones alike) gives rows. A candidate whose foot is
within :data:`YES_MM` of a true coin is one (label 1), one farther than :data:`NO_MM` from every
true coin is none (0); between, it is left out (-1). ``--only`` keeps the seeds whose scene shows
a condition, e.g. ``--only clutter=dice --only table=varnished-oak`` (any of them), plus every
``--every``-th seed (the rest of the variety). True coins in full view that no candidate came
near (lost before the namer) are counted per seed (``lost``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.centre_proposals as centre_mod  # noqa: E402
import vision.detector as detector_mod  # noqa: E402
import vision.namer as namer_mod  # noqa: E402
from vision.centre_proposals import CentreProposalConfig  # noqa: E402
from vision.centres import MODEL  # noqa: E402
from vision.coin_features import FEATURES, coin_features  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402
from vision.namer import NamerConfig  # noqa: E402

YES_MM = 3.0
"""A candidate this close to a true coin's foot is a coin."""

NO_MM = 8.0
"""One farther than this from every true coin is none (the accuracy bench's tolerance)."""

_ROWS: list[tuple[np.ndarray, np.ndarray, int]] = []
_ORIGINAL = namer_mod.name_detections


def _recording(source: int):
    def wrapped(namer, frame_bgr, calibration, dets, *args, **kw):
        coin = np.flatnonzero(dets.kind == "coin")
        if len(coin):  # each candidate once (the same detections named again)
            seen = [c for _, c, _ in _ROWS]
            if seen:
                had = np.concatenate(seen)
                coin = np.array([i for i in coin if np.hypot(
                    *(had - dets.centre_mm[i]).T).min() > 0.01], int)
        if len(coin):
            p = namer.probabilities(frame_bgr, calibration, dets.centre_mm[coin])
            radius = _RADIUS[0]
            f = coin_features(frame_bgr, calibration, dets.seen_mm[coin], p, radius)
            _ROWS.append((f, dets.centre_mm[coin].copy(), source))
        return _ORIGINAL(namer, frame_bgr, calibration, dets, *args, **kw)
    return wrapped


_RADIUS = [9.525]


def _wanted(seed: int, only: list[tuple[str, str]], every: int) -> bool:
    from tabletop.render.variety import draw_case

    if every and seed % every == 0:
        return True
    cond = draw_case(seed).conditions
    return any(cond.get(k) == v for k, v in only)


PROBES = 8
"""Places on the table away from every piece and clutter, read as candidates, per scene."""


def _probes(det: Detector, case, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of candidates no stage proposed (source 2): each clutter item's top (a die, a mug,
    a pencil, a card) and four places 8 mm round it, read as a coin's top would be read there,
    and :data:`PROBES` places on the open table. What a stage may put before the judge on
    another table, where its own gates let it through."""
    cam = det.view.camera
    thick = det.config.coins.thickness_mm
    seen: list[np.ndarray] = []
    ring = np.array([[0.0, 0.0], [8.0, 0.0], [-8.0, 0.0], [0.0, 8.0], [0.0, -8.0]])
    from tabletop.render.variety import draw_case

    items = _DISTRACTORS.get(case.name) or draw_case(seed).distractors
    for it in items:
        c = np.asarray(it["centre_mm"], float)[None] + ring
        seen.append(cam.seen_at(c, float(it.get("height_mm", 0.0))))
    pieces = np.array([[p["x"], p["y"]] for p in case.truth], float).reshape(-1, 2)
    others = np.r_[pieces, np.array([it["centre_mm"] for it in items], float).reshape(-1, 2)]
    if len(pieces):
        rng = np.random.default_rng(seed)
        lo, hi = pieces.min(axis=0) - 60.0, pieces.max(axis=0) + 60.0
        pts = rng.uniform(lo, hi, (4 * PROBES, 2))
        far = np.hypot(*(pts[:, None] - others[None]).transpose(2, 0, 1)).min(axis=1) > 25.0
        seen.append(pts[far][:PROBES])
    if not seen:
        return np.zeros((0, len(FEATURES)), np.float32), np.zeros((0, 2))
    seen_mm = np.concatenate(seen)
    foot = cam.foot_of(seen_mm, thick)
    px = case.calibration.to_image(seen_mm).reshape(-1, 2)
    w, h = case.calibration.image_size
    ok = (px[:, 0] > 40) & (px[:, 0] < w - 40) & (px[:, 1] > 40) & (px[:, 1] < h - 40)
    seen_mm, foot = seen_mm[ok], foot[ok]
    p = det.namer.probabilities(case.image, case.calibration, foot)
    return coin_features(case.image, case.calibration, seen_mm, p, _RADIUS[0]), foot


_DISTRACTORS: dict[str, tuple] = {}
"""The clutter of the scenes :func:`_with_clutter` made, by name."""


def _with_clutter(seed: int, kind: str):
    """The scene of ``seed`` with raised clutter of ``kind`` laid 25-40 mm from one of its
    coins (clear of every piece), as ``bench_vision_accuracy.render_cases`` makes a case; None
    when no place is free."""
    from dataclasses import replace as _replace

    from bench.bench_vision_accuracy import Case
    from tabletop.render.clutter import make_clutter
    from tabletop.render.variety import draw_case

    case = draw_case(seed)
    rng = np.random.default_rng(seed + 7919)
    coins = [p for p in case.scene.pieces if p.kind == "coin"]
    pieces = np.array([[p.x_mm, p.y_mm] for p in case.scene.pieces], float).reshape(-1, 2)
    items = []
    for _ in range(30):
        if not coins or len(items) >= 2:
            break
        c = coins[int(rng.integers(len(coins)))]
        a = rng.uniform(0, 2 * np.pi)
        at = (c.x_mm + rng.uniform(25, 40) * np.cos(a), c.y_mm + rng.uniform(25, 40) * np.sin(a))
        item = make_clutter(kind, rng, at, float(rng.uniform(0, 360)))
        b = np.array(item.footprint.bounds)
        d = np.hypot(*(pieces - np.array(item.footprint.centroid.coords[0])).T)
        if d.min() < 12.0 + 0.5 * max(b[2] - b[0], b[3] - b[1]):
            continue
        if any(item.footprint.distance(o.footprint) < 5.0 for o in items):
            continue
        items.append(item)
    if not items:
        return None
    case = _replace(case, props=case.props + tuple(p for it in items for p in it.props),
                    distractors=case.distractors + tuple(e for it in items for e in it.items))
    _DISTRACTORS[case.name] = case.distractors
    r = case.render()
    truth = [{**p.to_json(), "occluded": bool(tr.occluded or tr.visible_fraction < 1)}
             for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
    return Case(case.name, r.image, r.calibration(), truth, bool(r.hand_mask.any()),
                {**case.conditions, "clutter": f"near-{kind}"})


def _cat(v: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    return np.concatenate(v) if v else np.zeros(shape)


def _save(out: Path, xs: list, ys: list, seeds: list, srcs: list, near: list, conds: list,
          lost_rows: list) -> None:
    """Writes the rows made so far."""
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out, x=_cat(xs, (0, len(FEATURES))).astype(np.float32), y=_cat(ys, (0,)).astype(int),
        seed=_cat(seeds, (0,)).astype(int), source=_cat(srcs, (0,)).astype(int),
        near_mm=_cat(near, (0,)), conditions=_cat(conds, (0, 4)).astype(str),
        lost=np.array(lost_rows, int).reshape(-1, 3), features=np.array(FEATURES))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="FROM:TO")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--only", action="append", default=[], metavar="CONDITION=VALUE")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--near", default=None, metavar="KIND",
                    help="raised clutter of this kind (dice, mug, pencil, phone) laid beside "
                         "the scene's coins too (hard cases: a die among a worm's coins)")
    ap.add_argument("--coin-heat", type=float, default=None,
                    help="the centre net's coin peaks down to this heat (more candidates that "
                         "are no coin, and faint coins); default: the net's own threshold")
    args = ap.parse_args(argv)
    from bench.bench_vision_accuracy import render_cases

    a, b = (int(v) for v in args.seeds.split(":"))
    only = [tuple(w.split("=", 1)) for w in args.only]
    detector_mod.name_detections = _recording(0)
    centre_mod.name_detections = _recording(1)
    xs, ys, seeds, srcs, near, conds, lost_rows = [], [], [], [], [], [], []
    t0 = time.time()
    centres = CentreProposalConfig()
    if args.coin_heat is not None:
        least = dict(json.loads(MODEL.with_suffix(".json").read_text())["thresholds"])
        least["coin"] = args.coin_heat
        centres = replace(centres, finder=replace(centres.finder, least=least))
    for s in range(a, b):
        if only and not _wanted(s, only, args.every):
            continue
        case = render_cases(1, s)[0] if args.near is None else _with_clutter(s, args.near)
        if case is None:
            continue
        _ROWS.clear()
        det = Detector(case.calibration, None, config=DetectorConfig(
            kinds=case.kinds, namer=NamerConfig(coin_judge=None), centres=centres))
        _RADIUS[0] = det.config.coins.radius_mm
        det.detect(case.image)
        truth = np.array([[p["x"], p["y"]] for p in case.truth if p["kind"] == "coin"],
                         float).reshape(-1, 2)
        vis = np.array([not p["occluded"] for p in case.truth if p["kind"] == "coin"], bool)
        cand = np.zeros((0, 2))
        probe_f, probe_c = _probes(det, case, s)
        if len(probe_c):
            _ROWS.append((probe_f, probe_c, 2))
        for f, c, src in _ROWS:
            d = (np.hypot(*(c[:, None] - truth[None]).transpose(2, 0, 1)).min(axis=1)
                 if len(truth) else np.full(len(c), np.inf))
            y = np.where(d <= YES_MM, 1, np.where(d > NO_MM, 0, -1))
            xs.append(f)
            ys.append(y)
            seeds.append(np.full(len(c), s))
            srcs.append(np.full(len(c), src))
            near.append(d)
            conds.append(np.array([[case.conditions["table"], case.conditions["table_family"],
                                    case.conditions["light"], case.conditions["clutter"]]]
                                  * len(c)).reshape(-1, 4))
            if src != 2:
                cand = np.r_[cand, c]
        lost = 0
        for t in truth[vis]:
            if not len(cand) or np.hypot(*(cand - t).T).min() > YES_MM:
                lost += 1
        lost_rows.append((s, int(vis.sum()), lost))
        if len(lost_rows) % 10 == 0:  # what is made so far survives an interruption
            _save(args.out, xs, ys, seeds, srcs, near, conds, lost_rows)
        n = sum(len(f) for f, _, _ in _ROWS)
        print(f"{case.name} {case.conditions['table']} {case.conditions['light']} "
              f"{case.conditions['clutter']}: candidates {n}, coins {int(vis.sum())}, "
              f"lost before the namer {lost} ({time.time() - t0:.0f} s)", flush=True)
    _save(args.out, xs, ys, seeds, srcs, near, conds, lost_rows)
    print(f"{args.out}: {sum(len(v) for v in ys)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where is each missed coin lost after the centre net? A diagnostic, run by hand.

``.venv/bin/python bench/coin_loss.py SEED N [--family F] [--dev DIR] [--games]
[--list S1,S2,...]`` renders ``N`` scenes of the renderer's variety from ``SEED`` (as
``bench/bench_vision_accuracy.py`` does; ``--games``: its Worm Up! and Jungle tables;
``--list``: those seeds' renders),
detects each, and for every true coin (wholly in view) that the detector's scene misses says
at which step of :func:`vision.centre_proposals.propose_centres` it was lost:

- ``no-peak(H)``: no centre-net peak within 6 mm of it (``H``: the most coin heat the net
  gives within 4 mm of it);
- ``explained``: its peak lies on a piece already found (``explained_mask``; which kind);
- ``invalid``: its peak lies outside the play area; ``budget``: past ``max_each``;
- ``fit``: no rim fit placed it (grey far rim, steepest edges, colour: NaN);
- ``shift``: the fit moved past ``max_shift``;
- ``onto``: the fit moved onto a piece already found; ``dup``: within a radius of another;
- ``namer-seen``: the namer gave it less than ``seen`` at its foot (read_found);
- ``namer-keep``: dropped by ``name_detections``; ``far``: kept, but more than 8 mm off;
- ``judge-<fit>(V)``: the coin judge gives it ``V``, less than it needs;
- ``?``: none of these (lost after the proposals).

Per scene a line, then the counts by step and by table. The false coins of the scene (not
paired with any truth, occluded or not) are listed too, each with where it came from
(``stage`` or ``centres``) and the true piece nearest it (its kind and distance, ``table``
beyond 40 mm), and the coins found whose suit is misread (``true>read``); at the end the
counts of those false coins by source and nearest piece, and the suits' confusion (true
suit -> read suit, over the coins found), and the coins found more than ``OFF_MM`` from
their true foot (``off``: the distance and where the coin came from).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.detector as detector_mod  # noqa: E402
from bench.bench_vision_accuracy import (  # noqa: E402
    DEVSCENE_PIECES,
    TOLERANCE_MM,
    devscene_cases,
    game_cases,
    nearest_pairs,
    render_cases,
)
from vision.centre_proposals import _free, propose_centres  # noqa: E402
from vision.coin_colour import colour_rim_centres  # noqa: E402
from vision.coins import far_edge_centres  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402
from vision.namer import kind_probabilities  # noqa: E402
from vision.proposals import explained_mask  # noqa: E402
from vision.rim_fit import rim_centres  # noqa: E402

_CAPTURED: dict = {}
OFF_MM = 1.2
"""A coin found this far (mm) from its true foot is listed as off centre (``off``)."""


def _capture(*args, **kw):
    out = propose_centres(*args, **kw)
    _CAPTURED["args"], _CAPTURED["out"] = args, out
    return out


def trace(args: tuple, truth_mm: np.ndarray) -> list[str]:
    """For each true coin (foot, mm) the step of propose_centres that loses it."""
    (finder, namer, frame, cal, prep, dets, coins, tiles, cfg, _kinds, half_bgr) = args
    from vision.centre_proposals import local_views

    peaks = finder.find(frame, half_bgr)["coin"]
    view = prep.view
    s = view.px_per_mm
    r = coins.radius_mm * s
    explained = explained_mask(prep, dets, coins.radius_mm, tiles.side_mm, cfg.margin_mm)
    free = _free(prep, explained, peaks, cfg.max_each)
    seen_truth = view.to_px(view.camera.seen_at(truth_mm, coins.thickness_mm))
    out = []
    ppx = view.to_px(peaks.centre_mm) if len(peaks.score) else np.zeros((0, 2))
    for t_mm, t_px in zip(truth_mm, seen_truth, strict=True):
        if not len(ppx):
            out.append("no-peak")
            continue
        d = np.hypot(*(ppx - t_px).T) / s
        j = int(np.argmin(d))
        if d[j] > 6:
            out.append(f"no-peak({_heat_near(finder, frame, half_bgr, t_mm, coins):.2f})")
            continue
        p = ppx[j]
        xi, yi = round(p[0]), round(p[1])
        h, w = explained.shape
        if not (0 <= xi < w and 0 <= yi < h) or not prep.valid[yi, xi]:
            out.append("invalid")
            continue
        if explained[yi, xi]:
            if len(dets):
                dd = np.hypot(*(dets.seen_mm - view.to_mm(p[None])[0]).T)
                k = int(np.argmin(dd))
                out.append(f"explained-{dets.kind[k]}@{dd[k]:.0f}mm")
            else:
                out.append("explained")
            continue
        if not np.any(np.all(np.isclose(free, p), axis=1)):
            out.append("budget")
            continue
        shade, top = local_views(prep, frame, p[None], np.array([cfg.coin_window * r]))
        away = view.outward_px(p[None])
        f = far_edge_centres(shade, p[None], away, r, 1.0)[0]
        how = "far"
        if not np.all(np.isfinite(f)):
            f = rim_centres(shade, p[None], away, r)[0]
            how = "rim"
        if not np.all(np.isfinite(f)):
            f = colour_rim_centres(top, p[None], away, r)[0]
            how = "colour"
        if not np.all(np.isfinite(f)):
            out.append("fit")
            continue
        if np.hypot(*(f - p)) > cfg.max_shift * r:
            out.append(f"shift-{how}")
            continue
        fi = np.rint(f).astype(int)
        if explained[min(max(fi[1], 0), h - 1), min(max(fi[0], 0), w - 1)]:
            out.append(f"onto-{how}")
            continue
        seen_mm = view.to_mm(f[None])
        foot = view.camera.foot_of(seen_mm, coins.thickness_mm)
        err = float(np.hypot(*(foot[0] - t_mm)))
        pc = float(kind_probabilities(namer.probabilities(frame, cal, foot))["coin"][0])
        if pc < cfg.seen:
            out.append(f"namer-seen({pc:.2f},{how},err{err:.1f})")
            continue
        if err > TOLERANCE_MM["coin"]:
            out.append(f"far-{how}({err:.1f})")
            continue
        votes = _judge_votes(namer, frame, cal, seen_mm, foot)
        if votes is not None and votes[0] < votes[1]:
            out.append(f"judge-{how}({votes[0]:.2f},p{pc:.2f})")
            continue
        out.append(f"?-{how}(err{err:.1f},p{pc:.2f})")
    return out


def _heat_near(finder, frame, half_bgr, foot_mm: np.ndarray, coins) -> float:
    """The centre net's most coin heat within 4 mm of a coin's seen top."""
    from vision.centres import view_px_to_heat

    cv = finder.view
    seen = cv.camera.seen_at(foot_mm[None], coins.thickness_mm)
    heat = finder.heat(frame, half_bgr)[0]
    x, y = view_px_to_heat(cv.to_px(seen))[0]
    k = max(1, round(4 * cv.px_per_mm / 2))
    h, w = heat.shape
    win = heat[max(0, round(y) - k):min(h, round(y) + k + 1),
               max(0, round(x) - k):min(w, round(x) + k + 1)]
    return float(win.max()) if win.size else 0.0


def _judge_votes(namer, frame, cal, seen_mm: np.ndarray, foot_mm: np.ndarray
                 ) -> tuple[float, float] | None:
    """The coin judge's votes for a coin seen at ``seen_mm`` (1, 2), its foot at ``foot_mm``,
    and the least that keeps it; None where there is no judge."""
    from vision.coin_judge import coin_judge_for

    cfg = namer.cfg.coin_judge
    if cfg is None:
        return None
    judge = coin_judge_for(cfg)
    p = namer.probabilities(frame, cal, foot_mm)
    return float(judge.scores(frame, cal, seen_mm, p)[0]), float(judge.threshold)


def _nearest_other(truth: list[dict], xy: np.ndarray) -> str:
    """The true piece nearest a false coin: its kind (and colour or suit) and distance."""
    if not truth:
        return "nothing"
    t = np.array([[p["x"], p["y"]] for p in truth], float)
    d = np.hypot(*(t - xy).T)
    k = int(np.argmin(d))
    what = truth[k]["kind"] + ("-hidden" if truth[k].get("occluded") else "")
    return f"{what}@{d[k]:.0f}mm" if d[k] < 40 else "table"



def _cases_where(n: int, seed: int, where: dict[str, str]) -> list:
    """The renders of the seeds ``seed`` to ``seed + n`` whose conditions match ``where``
    (rendered one at a time, as :func:`render_cases` does)."""
    from tabletop.render.variety import draw_case

    out = []
    for s in range(seed, seed + n):
        if all(draw_case(s).conditions.get(k) == v for k, v in where.items()):
            out += render_cases(1, s)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--family", default=None)
    ap.add_argument("--where", action="append", default=[], metavar="CONDITION=VALUE",
                    help="only the seeds whose render shows this (e.g. clutter=dice); "
                         "N seeds are looked through")
    ap.add_argument("--list", default=None, metavar="S1,S2,...",
                    help="these seeds' renders (SEED and N ignored)")
    ap.add_argument("--games", action="store_true",
                    help="the Worm Up! and Jungle tables (as --games of the accuracy bench)")
    ap.add_argument("--dev", type=Path, default=None,
                    help="the devscenes' folder instead of renders (SEED N: the N from SEED)")
    a = ap.parse_args()
    detector_mod.propose_centres = _capture
    steps: Counter = Counter()
    suits: Counter = Counter()
    phantoms: Counter = Counter()
    offs: Counter = Counter()
    by_table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    if a.dev is not None:
        cases, pieces = devscene_cases(a.dev)[a.seed:a.seed + a.n], DEVSCENE_PIECES
    elif a.list:
        cases, pieces = [c for s in a.list.split(",") for c in render_cases(1, int(s))], None
    elif a.games:
        cases, pieces = game_cases(a.n, a.seed), None
    elif a.where:
        cases, pieces = _cases_where(a.n, a.seed, dict(w.split("=", 1) for w in a.where)), None
    else:
        cases, pieces = render_cases(a.n, a.seed, family=a.family), None
    for case in cases:
        _CAPTURED.clear()
        kinds = case.kinds if case.kinds is not None else DetectorConfig().kinds
        det = Detector(case.calibration, pieces, config=DetectorConfig(kinds=kinds))
        res = det.detect(case.image)
        tru = [p for p in case.truth if p["kind"] == "coin"]
        t_all = np.array([[p["x"], p["y"]] for p in tru], float).reshape(-1, 2)
        vis = np.array([not p.get("occluded") for p in tru], bool)
        d = np.array([[p.x_mm, p.y_mm] for p in res.scene.pieces if p.kind == "coin"],
                     float).reshape(-1, 2)
        pairs = nearest_pairs(d, t_all, TOLERANCE_MM["coin"])
        read = [p.suit for p in res.scene.pieces if p.kind == "coin"]
        misread = []
        for i, j, _ in pairs:
            if vis[j]:
                suits[(tru[j].get("suit"), read[i])] += 1
                if read[i] != tru[j].get("suit"):
                    misread.append(f"{tru[j].get('suit')}>{read[i]}")
        hit = {j for _, j, _ in pairs}
        miss = [j for j in range(len(t_all)) if vis[j] and j not in hit]
        false = sorted(set(range(len(d))) - {i for i, _, _ in pairs})
        why = trace(_CAPTURED["args"], t_all[miss]) if miss and "args" in _CAPTURED else []
        steps.update(w.split("(")[0].split("@")[0] for w in why)
        tb = by_table[case.conditions["table"]]
        tb[0] += int(vis.sum())
        tb[1] += len(miss)
        cent = _CAPTURED.get("out")
        src = []
        for i in false:
            c = "stage"
            if cent is not None and len(cent) and np.hypot(
                    *(cent.centre_mm - d[i]).T).min() < 0.01:
                c = "centres"
            near = _nearest_other(case.truth, d[i])
            phantoms[f"{c}:{near.split('@')[0]}"] += 1
            src.append(f"({d[i][0]:.0f},{d[i][1]:.0f}){c}:{near}")
        off = []
        for i, j, dist in pairs:
            if vis[j] and dist > OFF_MM:
                c = "stage"
                if cent is not None and len(cent) and np.hypot(
                        *(cent.centre_mm - d[i]).T).min() < 0.01:
                    c = "centres"
                off.append(f"{dist:.1f}{c}")
                offs[c] += 1
        print(f"{case.name} {case.conditions['table']} {case.conditions['light']} "
              f"{case.conditions['clutter']}: coins {int(vis.sum())} miss {len(miss)} "
              f"{' '.join(why)} | false {len(false)} {' '.join(src)}"
              f"{' | suit ' + ' '.join(misread) if misread else ''}"
              f"{' | off ' + ' '.join(off) if off else ''}", flush=True)
    print("steps:", dict(steps.most_common()))
    print("phantoms (source:nearest true piece):", dict(phantoms.most_common()))
    print(f"off past {OFF_MM} mm (source):", dict(offs.most_common()))
    print("tables:", {k: f"{v[1]}/{v[0]}" for k, v in sorted(by_table.items())})
    print("suits (true -> read):", {f"{t}->{r}": n for (t, r), n in sorted(
        suits.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1])))})
    return 0


if __name__ == "__main__":
    sys.exit(main())

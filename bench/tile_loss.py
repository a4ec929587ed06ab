"""Where is each missed tile lost, and where does each false tile come from? A diagnostic.

``.venv/bin/python bench/tile_loss.py SEED N [--family F] [--dev DIR] [--hands] [--table T]
[--light L] [--clutter C]`` renders ``N`` scenes of the renderer's variety from ``SEED`` (as
``bench/bench_vision_accuracy.py`` does; ``--table``, ``--light``, ``--clutter`` pin those
choices of every scene), detects each, and for every true tile (wholly in view) that the
detector's scene misses says at which step of the centre net's tile proposals it was lost:

- ``no-peak``: no centre-net tile peak (down to the faint candidates' heat) within 10 mm of
  its top face; a step prefixed ``faint-`` lost a peak under the net's own threshold, fitted
  under the stricter rules (``sides``: measured on too few of its sides);
- ``explained``: its peak lies on a piece already found (which kind, how far);
- ``invalid``: its peak lies outside the play area; ``budget``: past ``max_each``;
- ``fit``: neither the stages' edge fit nor the colour square fit placed it (with the
  colour fit's own reason, :func:`vision.tile_fit.fit_square` relaxed one check at a time);
- ``overlap``: the fit lies on pieces already found; ``runs``: its sides run past its corners;
- ``cloth``: its place is found again round it on a lattice (:mod:`vision.tile_pattern`);
- ``judged-off``: the tile judge (:mod:`vision.tile_judge`) gave it fewer votes than its veto;
- ``namer-seen``: the namer's share and the judge's votes together did not keep it
  (:func:`vision.tile_judge.seen_as_tiles`); ``far``: fitted more than 20 mm off;
  ``sheet-or-back``: no step above refuses the fit, yet :func:`vision.tile_candidates.
  fit_tiles` places none (a sheet's corner, or the back's cross placed it elsewhere);
  ``?``: none of these (lost after the proposals, or beaten by a hotter fit).

Per scene a line (``read as a hand``: the frame was called one, and the centre net's pieces
under the hand's cells were left out), then the counts by step and by table. The false
tiles of the scene (not paired with any truth, occluded or not) are listed too, each with
where it came from (``stage`` or ``centres``) and what truly lies there (``coin``, a hidden
tile, ``none``), and so are the paired tiles whose angle is more than a degree off
(``turned``, with where each came from), and so are the paired tiles whose face or suit is
misread (``face``: true face/suit -> read).
"""

from __future__ import annotations

import argparse
import dataclasses
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
    Case,
    angle_diff,
    devscene_cases,
    nearest_pairs,
    render_cases,
)
from vision.centre_proposals import (  # noqa: E402
    _free_tiles,
    faint_tiles,
    local_views,
    propose_centres,
)
from vision.centres import view_px_to_heat  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402
from vision.namer import kind_probabilities  # noqa: E402
from vision.proposals import _tile_angle_px, explained_mask  # noqa: E402
from vision.square_polish import face_side_px  # noqa: E402
from vision.tile_backs import back_square  # noqa: E402
from vision.tile_candidates import (  # noqa: E402
    BACKS,
    PATTERN,
    _angles,
    _cloth,
    faint_fit,
    fit_tiles,
    overlap,
)
from vision.tile_features import tile_features  # noqa: E402
from vision.tile_fit import fit_square, runs_past  # noqa: E402
from vision.tile_judge import FAINT, NET, judge_for, seen_as_tiles  # noqa: E402
from vision.tiles import _Block, refine_block  # noqa: E402

_CAPTURED: dict = {}

RELAXED = {"share": {"min_share": 0.0}, "rms": {"max_rms": 1.0},
           "strength": {"min_strength": 0.0}, "shift": {"max_shift": 1.0},
           "turn": {"max_turn_deg": 90.0}, "pair": {"pair_tolerance": 0.2}}
"""The colour fit's checks, each relaxed alone to name the one that rejects a tile."""


def _capture(*args, **kw):
    out = propose_centres(*args, **kw)
    _CAPTURED["args"], _CAPTURED["out"] = args, out
    return out


def _why_fit(top: np.ndarray, p: np.ndarray, side: float, away: np.ndarray,
             ang: float | None, cfg) -> str:
    """Which one check of the colour fit, relaxed alone, lets a fit through."""
    names = [n for n, kw in RELAXED.items()
             if fit_square(top, p, side, away, [] if ang is None else [ang],
                           dataclasses.replace(cfg, **kw)) is not None]
    return "fit-" + ("+".join(names) if names else "none")


def trace(args: tuple, truth: list[dict], namer_seen: float) -> list[str]:
    """For each true tile (dicts with x, y) the step of the tile proposals that loses it
    (``faint-``: its peak is under the net's own threshold, fitted under stricter rules)."""
    (finder, namer, frame, cal, prep, dets, coins, tiles, cfg, _kinds, half_bgr) = args
    sure = finder.least["tile"]
    peaks = faint_tiles(finder, frame, half_bgr, cfg.faint_tile)["tile"]
    heat = finder.heat(frame, half_bgr)[1]
    view = prep.view
    s = view.px_per_mm
    side = tiles.side_mm * s
    explained = explained_mask(prep, dets, coins.radius_mm, tiles.side_mm, cfg.margin_mm,
                               dict(cfg.reach_mm))
    free, weak = _free_tiles(prep, explained, peaks, sure, cfg)
    ppx = view.to_px(peaks.centre_mm) if len(peaks.score) else np.zeros((0, 2))
    face_px = face_side_px(view.camera, side, tiles.thickness_mm)
    out = []
    for q in truth:
        t_mm = np.array([[q["x"], q["y"]]], float)
        t_px = view.to_px(view.camera.seen_at(t_mm, tiles.thickness_mm))[0]
        d = np.hypot(*(ppx - t_px).T) / s if len(ppx) else np.array([1e9])
        j = int(np.argmin(d))
        if d[j] > 10:
            hx, hy = view_px_to_heat(finder.view.to_px(view.to_mm(t_px[None])))[0]
            ys, xs = np.mgrid[0:heat.shape[0], 0:heat.shape[1]]
            near = np.hypot(xs - hx, ys - hy) <= 2.5
            out.append(f"no-peak(heat{float(heat[near].max()) if near.any() else -1:.2f})")
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
        at = np.flatnonzero(np.all(np.isclose(free, p), axis=1))
        if not len(at):
            out.append("budget" + ("-faint" if peaks.score[j] < sure else ""))
            continue
        unsure = bool(weak[at[0]])
        pre = "faint-" if unsure else ""
        shade, top = local_views(prep, frame, p[None], np.array([cfg.tile_window * side]))
        def wide(c, half):
            return local_views(prep, frame, c[None], np.array([half]))[0]

        placed = fit_tiles(view, shade, top, prep.bright, explained, p[None], side,
                           tiles.gap_mm * s, cfg.fit, np.array([unsure]), face_px=face_px,
                           wide=wide)
        if placed:
            c = np.array(placed[0].centre_px)
            vote = placed[0].vote
            foot = view.camera.foot_of(view.to_mm(c[None]), tiles.thickness_mm)
            err = float(np.hypot(*(foot[0] - t_mm[0])))
            pt = float(kind_probabilities(namer.probabilities(frame, cal, foot))["tile"][0])
            if not seen_as_tiles(tiles.judge, np.array([pt]), np.array([vote]),
                                 namer_seen)[0]:
                out.append(f"{pre}namer-seen({pt:.2f},v{vote:.2f},err{err:.1f})")
                continue
            if err > TOLERANCE_MM["tile"]:
                out.append(f"{pre}far({err:.1f})")
                continue
            out.append(f"{pre}?(err{err:.1f},p{pt:.2f},v{vote:.2f})")
            continue
        # why fit_tiles placed none: its steps one at a time
        fcfg = faint_fit(cfg.fit) if unsure else cfg.fit
        ang = _tile_angle_px(shade, p, side)
        away = view.outward_px(p[None])[0]
        fine, how = None, "stage"
        if ang is not None:
            fine = refine_block(shade, prep.bright, _Block((float(p[0]), float(p[1])), ang, 1,
                                                           1, side), side, away,
                                tiles.gap_mm * s)
        if fine is None and not unsure:
            bk = back_square(top, p, side, _angles(top, p, side, ang, fcfg.modes), BACKS)
            if bk is not None:
                how = "back"
                fine = _Block((float(bk.centre_px[0]), float(bk.centre_px[1])), bk.angle_px,
                              1, 1, side)
        if fine is None:
            how = "colour"
            sq = fit_square(top, p, side, away, [] if ang is None else [ang], fcfg)
            if sq is None:
                out.append(pre + _why_fit(top, p, side, away, ang, fcfg))
                continue
            if unsure and sum(n >= fcfg.places / 2 for n in sq.counts) < fcfg.faint_sides:
                out.append(f"{pre}sides{sq.counts}")
                continue
            fine = _Block((float(sq.centre_px[0]), float(sq.centre_px[1])), sq.angle_px, 1, 1,
                          side)
        c = np.array(fine.centre_px)
        if overlap(explained, c, fine.angle_px, side) > cfg.fit.max_overlap:
            out.append(f"{pre}overlap-{how}")
            continue
        runs = runs_past(top, c, fine.angle_px, side, cfg.fit)
        if runs >= cfg.fit.max_runs or (unsure and runs > cfg.fit.faint_runs):
            out.append(f"{pre}runs-{how}({runs})")
            continue
        if cfg.fit.judge is not None:
            vote = float(judge_for(cfg.fit.judge).scores(tile_features(
                shade, top, c, fine.angle_px, side, FAINT if unsure else NET)[None])[0])
            if vote < cfg.fit.judge.veto:
                out.append(f"{pre}judged-off({vote:.2f},{how})")
                continue
        if _cloth(PATTERN, s, shade, wide, c, fine.angle_px, side, explained, []):
            out.append(f"{pre}cloth-{how}")
            continue
        out.append(f"{pre}sheet-or-back-{how}")
    return out


def pinned_case(seed: int, **pin) -> Case:
    """The render of ``seed`` with the table, light or clutter pinned (``draw_case``'s
    keywords; None: drawn as usual), as :func:`render_cases` makes its cases."""
    from tabletop.render.variety import draw_case

    drawn = draw_case(seed, **pin)
    r = drawn.render()
    truth = [{**p.to_json(), "occluded": bool(tr.occluded or tr.visible_fraction < 1)}
             for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
    return Case(drawn.name, r.image, r.calibration(), truth, bool(r.hand_mask.any()),
                dict(drawn.conditions))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--family", default=None)
    ap.add_argument("--hands", action="store_true", help="scenes with a hand over the table")
    ap.add_argument("--table", default=None, help="pin the table kind (variety.TABLE_KINDS)")
    ap.add_argument("--light", default=None, help="pin the light (variety.LIGHT_KINDS)")
    ap.add_argument("--clutter", default=None, help="pin the clutter (variety.CLUTTER_KINDS)")
    ap.add_argument("--dev", type=Path, default=None,
                    help="the devscenes' folder instead of renders (SEED N: the N from SEED)")
    a = ap.parse_args()
    detector_mod.propose_centres = _capture
    steps: Counter = Counter()
    false_kinds: Counter = Counter()
    turned: Counter = Counter()
    faces: Counter = Counter()
    paired_n = 0
    by_table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    if a.dev is not None:
        cases, pieces = devscene_cases(a.dev)[a.seed:a.seed + a.n], DEVSCENE_PIECES
    elif a.table or a.light or a.clutter:
        cases = (pinned_case(a.seed + k, hand=a.hands, table=a.table, light=a.light,
                             clutter=a.clutter) for k in range(a.n))
        pieces = None
    else:
        cases = (c for k in range(a.n)  # one at a time: each line as soon as it is read
                 for c in render_cases(1, a.seed + k, hand=a.hands, family=a.family))
        pieces = None
    for case in cases:
        _CAPTURED.clear()
        det = Detector(case.calibration, pieces, config=DetectorConfig(kinds=case.kinds))
        res = det.detect(case.image)
        tru = [p for p in case.truth if p["kind"] == "tile"]
        t_all = np.array([[p["x"], p["y"]] for p in tru], float).reshape(-1, 2)
        vis = np.array([not p.get("occluded") for p in tru], bool)
        d = np.array([[p.x_mm, p.y_mm] for p in res.scene.pieces if p.kind == "tile"],
                     float).reshape(-1, 2)
        pairs = nearest_pairs(d, t_all, TOLERANCE_MM["tile"])
        hit = {j for _, j, _ in pairs}
        miss = [j for j in range(len(t_all)) if vis[j] and j not in hit]
        false = sorted(set(range(len(d))) - {i for i, _, _ in pairs})
        why = []
        if miss and "args" in _CAPTURED:
            why = [f"{w}@({tru[j]['x']:.0f},{tru[j]['y']:.0f})" for w, j in zip(
                trace(_CAPTURED["args"], [tru[j] for j in miss], _CAPTURED["args"][8].seen),
                miss, strict=True)]
        steps.update(w.split("(")[0].split("@")[0] for w in why)
        tb = by_table[case.conditions["table"]]
        tb[0] += int(vis.sum())
        tb[1] += len(miss)
        tb[2] += len(false)
        cent = _CAPTURED.get("out")
        others = [p for p in case.truth if p["kind"] != "tile"] + [
            p for p in tru if p.get("occluded")]
        src = []
        for i in false:
            c = "stage"
            if cent is not None and len(cent) and np.hypot(
                    *(cent.centre_mm - d[i]).T).min() < 0.01:
                c = "centres"
            what = "none"
            if others:
                od = [np.hypot(p["x"] - d[i][0], p["y"] - d[i][1]) for p in others]
                k = int(np.argmin(od))
                if od[k] < 30:
                    what = others[k]["kind"] + ("-hidden" if others[k]["kind"] == "tile"
                                                else "") + f"@{od[k]:.0f}"
            false_kinds[f"{c}:{what.split('@')[0]}"] += 1
            src.append(f"({d[i][0]:.0f},{d[i][1]:.0f}){c}:{what}")
        ang = [p.angle_deg or 0.0 for p in res.scene.pieces if p.kind == "tile"]
        dets_t = [p for p in res.scene.pieces if p.kind == "tile"]
        misread = []
        for i, j, _ in pairs:
            if vis[j] and (dets_t[i].face, dets_t[i].suit) != (tru[j].get("face"),
                                                                 tru[j].get("suit")):
                c = "stage"
                if cent is not None and len(cent) and np.hypot(
                        *(cent.centre_mm - d[i]).T).min() < 0.01:
                    c = "centres"
                faces[c] += 1
                misread.append(f"({d[i][0]:.0f},{d[i][1]:.0f}){c}:{tru[j].get('face')}"
                               f"/{tru[j].get('suit')}->{dets_t[i].face}/{dets_t[i].suit}")
        off = []
        for i, j, _ in pairs:
            if not vis[j]:
                continue
            paired_n += 1
            e = angle_diff(ang[i], float(tru[j]["angle_deg"]) % 90)
            if e > 1.0:
                c = "stage"
                if cent is not None and len(cent) and np.hypot(
                        *(cent.centre_mm - d[i]).T).min() < 0.01:
                    c = "centres"
                turned[c] += 1
                off.append(f"({d[i][0]:.0f},{d[i][1]:.0f}){c}:{e:.1f}deg")
        print(f"{case.name} {case.conditions['table']} {case.conditions['light']} "
              f"{case.conditions['clutter']}{' (read as a hand)' if res.scene.hand else ''}: "
              f"tiles {int(vis.sum())} miss {len(miss)} "
              f"{' '.join(why)} | false {len(false)} {' '.join(src)}"
              + (f" | turned {' '.join(off)}" if off else "")
              + (f" | face {' '.join(misread)}" if misread else ""), flush=True)
    print("steps:", dict(steps.most_common()))
    print("false:", dict(false_kinds.most_common()))
    print(f"turned past 1 degree: {dict(turned.most_common())} of {paired_n} paired")
    print(f"face or suit misread: {dict(faces.most_common())} of {paired_n} paired")
    print("tables (truth/miss/false):",
          {k: f"{v[0]}/{v[1]}/{v[2]}" for k, v in sorted(by_table.items())})
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which whole scenes lose coins or tiles, and at which step? A diagnostic, run by hand.

``.venv/bin/python bench/scene_sweep.py SEED N [--hand] [--family F] [--light L]
[--table KIND] [--all] [--list S1,S2,...]`` renders the renderer's variety one seed at a time
(as ``bench/bench_vision_accuracy.py`` does; ``--hand``: a hand over each; ``--table``: every
scene on that table kind, e.g. ``cloth-black``, where ``--family`` only keeps the seeds that
drew one of its family), detects each, and
prints one line a scene as soon as it is read (only the scenes with coin or tile recall below
1, unless ``--all``): its conditions, the coins and tiles missed of those in view, whether the
frame was called a hand, whether the table was read as pale (``Prepared.pale``) and the
prepared table's noise, and where each missed coin and tile was lost
(:func:`bench.coin_loss.trace`, :func:`bench.tile_loss.trace`: ``no-peak``, ``fit``,
``judge``...; ``hand`` where a frame read as a hand left the centre net's piece out).
At the end the counts of the causes over every scene.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.detector as detector_mod  # noqa: E402
from bench import coin_loss, tile_loss  # noqa: E402
from bench.bench_vision_accuracy import TOLERANCE_MM, nearest_pairs, render_cases  # noqa: E402
from tabletop.render.variety import TABLE_KINDS  # noqa: E402
from vision.centre_proposals import propose_centres  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402

_CAPTURED: dict = {}


def _capture(*args, **kw):
    out = propose_centres(*args, **kw)
    _CAPTURED["args"], _CAPTURED["out"] = args, out
    return out


def _missed(scene, truth: list[dict], kind: str) -> tuple[int, list[dict]]:
    """The true pieces of ``kind`` wholly in view, and those of them the scene lacks."""
    det = np.array([[p.x_mm, p.y_mm] for p in scene.pieces if p.kind == kind],
                   float).reshape(-1, 2)
    tru = [p for p in truth if p["kind"] == kind]
    xy = np.array([[p["x"], p["y"]] for p in tru], float).reshape(-1, 2)
    hit = {j for _, j, _ in nearest_pairs(det, xy, TOLERANCE_MM[kind])}
    vis = [j for j, p in enumerate(tru) if not p.get("occluded")]
    return len(vis), [tru[j] for j in vis if j not in hit]


def _under_hand(det: Detector, res, truth: list[dict]) -> list[bool]:
    """Whether each true piece lies under the cells of a frame read as a hand."""
    if not res.scene.hand or det._hand_cells is None or not truth:
        return [False] * len(truth)
    xy = np.array([[p["x"], p["y"]] for p in truth], float)
    px = det.calibration.to_image(xy).reshape(-1, 2)
    return list(det.hand_grid.covers(det._hand_cells, px))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--hand", action="store_true")
    ap.add_argument("--family", default=None)
    ap.add_argument("--light", default=None, help="only the seeds under this light")
    ap.add_argument("--table", default=None, choices=TABLE_KINDS, metavar="KIND",
                    help="every scene on this table kind (tabletop.render.variety.TABLE_KINDS)")
    ap.add_argument("--all", action="store_true", help="a line for every scene")
    ap.add_argument("--list", default=None, metavar="S1,S2,...",
                    help="these seeds' renders (SEED and N ignored; e.g. the stone tables "
                         "under glare picked from draw_case's conditions)")
    a = ap.parse_args()
    detector_mod.propose_centres = _capture
    from tabletop.render.variety import draw_case

    causes: Counter = Counter()
    scenes = bad = 0
    seeds = ([int(v) for v in a.list.split(",") if v] if a.list
             else range(a.seed, a.seed + a.n))
    for s in seeds:
        cond = draw_case(s, hand=a.hand, table=a.table).conditions
        if (a.family is not None and cond["table_family"] != a.family) or (
                a.light is not None and cond["light"] != a.light):
            continue
        case = render_cases(1, s, hand=a.hand, table=a.table)[0]
        _CAPTURED.clear()
        det = Detector(case.calibration, None, config=DetectorConfig(kinds=case.kinds))
        res = det.detect(case.image)
        scenes += 1
        nc, mc = _missed(res.scene, case.truth, "coin")
        nt, mt = _missed(res.scene, case.truth, "tile")
        if not (mc or mt) and not a.all:
            continue
        bad += bool(mc or mt)
        why: list[str] = []
        args = _CAPTURED.get("args")
        if args is not None:
            hc = _under_hand(det, res, mc)
            ht = _under_hand(det, res, mt)
            cx = np.array([[p["x"], p["y"]] for p in mc], float).reshape(-1, 2)
            if len(cx):
                for h, w in zip(hc, coin_loss.trace(args, cx), strict=True):
                    why.append("coin:" + ("hand" if h else w))
            if mt:
                cfg = args[8]
                for h, w in zip(ht, tile_loss.trace(args, mt, cfg.seen), strict=True):
                    why.append("tile:" + ("hand" if h else w))
        for w in why:
            causes[w.split("(")[0].split("@")[0]] += 1
        prep_note = ""
        if args is not None:
            prep = args[4]
            prep_note = f" pale={int(prep.pale)} noise={getattr(prep, 'noise', float('nan')):.2f}"
        c = case.conditions
        print(f"{s} ({c['table']} {c['light']} {c['clutter']} {c.get('gap_worm', '?')} "
              f"{'hand' if case.hand else 'nohand'}) coins {nc - len(mc)}/{nc} tiles "
              f"{nt - len(mt)}/{nt} read_hand={int(res.scene.hand)}{prep_note} | "
              + " ".join(why), flush=True)
    print(f"scenes={scenes} failing={bad}")
    print("causes:", dict(causes.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

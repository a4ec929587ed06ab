"""The centre net's faint coin candidates on renders, each with what its gate reads: a
diagnostic, run by hand, to choose ``CentreProposalConfig.faint_seen`` and ``faint_votes``.

``.venv/bin/python training/faint_coin_cases.py S1,S2,... [-o rows.tsv]`` renders each seed
as the accuracy bench draws it (:func:`bench.bench_vision_accuracy.render_cases`), detects it
with every faint coin candidate that its fit placed let through to the gate
(:func:`vision.centre_proposals.faint_coins`), and prints a row a candidate: the seed, table,
light, the namer's coin probability at its foot, the coin judge's votes, and the distance to
the nearest true coin (any, hidden or not) and what true piece or clutter lies nearest.
A candidate within 3 mm of a true coin wholly in view that the scene read without it lacks is
``gain`` (``dup`` where the scene has it already, ``hidden`` where that coin is not wholly in
view); one beyond 8 mm of every coin is ``false`` (3-8 mm: ``near``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.centre_proposals as cp  # noqa: E402
from bench.bench_vision_accuracy import render_cases  # noqa: E402
from vision.coin_judge import coin_judge_for  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402
from vision.namer import kind_probabilities  # noqa: E402
from vision.proposals import read_found  # noqa: E402

_ROWS: list[tuple[np.ndarray, float, float]] = []


def _all_faint(namer, frame_bgr, calibration, prep, found_c, coins, tiles, cfg, top=None):
    """Every fitted faint candidate, recorded with its namer share and votes; none stand."""
    found = read_found(namer, frame_bgr, calibration, prep, found_c, [], coins, tiles, 0.0, top)
    if len(found):
        p = namer.probabilities(frame_bgr, calibration, found.centre_mm)
        pc = kind_probabilities(p)["coin"]
        v = coin_judge_for(namer.cfg.coin_judge).scores(frame_bgr, calibration, found.seen_mm, p)
        _ROWS.extend(zip(found.centre_mm, pc, v, strict=True))
    return found[np.zeros(len(found), bool)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds")
    a = ap.parse_args()
    cp.faint_coins = _all_faint
    for s in [int(v) for v in a.seeds.split(",") if v]:
        case = render_cases(1, s)[0]
        _ROWS.clear()
        det = Detector(case.calibration, None, config=DetectorConfig(kinds=case.kinds))
        res = det.detect(case.image)
        found = np.array([[p.x_mm, p.y_mm] for p in res.scene.pieces if p.kind == "coin"],
                         float).reshape(-1, 2)
        coins = [t for t in case.truth if t["kind"] == "coin"]
        cxy = np.array([[t["x"], t["y"]] for t in coins], float).reshape(-1, 2)
        others = [t for t in case.truth if t["kind"] != "coin"]
        c = case.conditions
        for xy, pc, v in _ROWS:
            d = np.hypot(*(cxy - xy).T) if len(cxy) else np.array([np.inf])
            j = int(np.argmin(d))
            hidden = bool(len(coins) and coins[j].get("occluded"))
            lacked = (len(coins) and not hidden and (
                not len(found) or np.hypot(*(found - cxy[j]).T).min() > 6.0))
            what = ("gain" if lacked else "hidden" if hidden else "dup") if d[j] <= 3 else (
                "false" if d[j] > 8 else "near")
            near = "-"
            if others:
                o = np.array([[t["x"], t["y"]] for t in others], float)
                k = int(np.argmin(np.hypot(*(o - xy).T)))
                near = f"{others[k]['kind']}@{np.hypot(*(o[k] - xy)):.0f}"
            print(f"{s}\t{c['table']}\t{c['light']}\t{c['clutter']}\t{pc:.3f}\t{v:.3f}\t"
                  f"{d[j]:.1f}\t{what}\t{near}", flush=True)
        print(f"# {s} done: {len(_ROWS)} faint", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

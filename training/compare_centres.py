"""Two centre nets on the same renders, the whole detector: coins, tiles and posts found and
false, per scene and in total. A check run by hand before a net is committed.

``.venv/bin/python training/compare_centres.py --seeds 207000:207012 --light dim-warm
--tables gingham-red,checks-small --model NEW.onnx`` renders each seed's case (the light and
the table pinned, one of ``--tables`` a seed in turn; none given: the case as drawn), reads it
with the committed net and with ``--model`` (each scene rendered once), and prints a line a
scene (``coins found/in view false``, ``tiles ...``) and the totals. Seeds must be fresh: none a
net was trained or chosen on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_vision_accuracy import TOLERANCE_MM, nearest_pairs  # noqa: E402
from vision.centre_proposals import CentreProposalConfig  # noqa: E402
from vision.centres import CentresConfig  # noqa: E402
from vision.detector import Detector, DetectorConfig  # noqa: E402

KINDS = ("coin", "tile", "post")


def counts(pieces, truth) -> dict[str, tuple[int, int, int]]:
    """Per kind: (found of those wholly in view, in view, false)."""
    out = {}
    for kind in KINDS:
        tru = [(p, t) for p, t in truth if p.kind == kind]
        t_mm = np.array([[p.x_mm, p.y_mm] for p, _ in tru], float).reshape(-1, 2)
        vis = np.array([not t.occluded and t.visible_fraction >= 1.0 for _, t in tru], bool)
        hidden = ~vis
        d = np.array([[p.x_mm, p.y_mm] for p in pieces if p.kind == kind],
                     float).reshape(-1, 2)
        pairs = nearest_pairs(d, t_mm, TOLERANCE_MM[kind])
        found = sum(1 for _, j, _ in pairs if vis[j])
        paired_hidden = sum(1 for _, j, _ in pairs if hidden[j])
        out[kind] = (found, int(vis.sum()), len(d) - found - paired_hidden)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="a:b, fresh render seeds")
    ap.add_argument("--light", default=None)
    ap.add_argument("--tables", default=None, help="tables to pin, one a seed in turn")
    ap.add_argument("--model", required=True, help="the centre net to compare (.onnx)")
    a = ap.parse_args(argv)
    from tabletop.render.variety import draw_case

    lo, hi = (int(v) for v in a.seeds.split(":"))
    tables = a.tables.split(",") if a.tables else [None]
    configs = {"committed": CentresConfig(), "new": CentresConfig(model=Path(a.model))}
    total = {name: {k: [0, 0, 0] for k in KINDS} for name in configs}
    for i, seed in enumerate(range(lo, hi)):
        pins = {k: v for k, v in (("light", a.light), ("table", tables[i % len(tables)])) if v}
        case = draw_case(seed, **pins)
        r = case.render()
        cal = r.calibration()
        truth = list(zip(r.scene.pieces, r.truth, strict=True))
        cells = []
        for name, finder in configs.items():
            det = Detector(cal, config=DetectorConfig(
                centres=CentreProposalConfig(finder=finder)))
            got = counts(det.detect(r.image).scene.pieces, truth)
            for k in KINDS:
                for j in range(3):
                    total[name][k][j] += got[k][j]
            cells.append(name + " " + " ".join(f"{k}s {f}/{n} false {x}"
                                               for k, (f, n, x) in got.items()))
        print(f"{seed} {case.conditions['table']} {case.conditions['light']} "
              f"{case.conditions['clutter']}: " + " | ".join(cells), flush=True)
    for name, kinds in total.items():
        print(f"total {name}: " + " ".join(f"{k}s {f}/{n} false {x}"
                                           for k, (f, n, x) in kinds.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

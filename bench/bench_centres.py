"""Cost of the learned centre net on still frames, one core.

Run by hand: ``.venv/bin/python bench/bench_centres.py [--frames N] [--seed S]``. Renders
``N`` scenes of the renderer's variety at 1280x720 (seeds from ``S``, none used in training)
and times, each several times, the centre net's pass alone (input, forward, peaks:
``centres_net_*``, after one untimed call) and the whole still-frame detection with and without it
(``detect_with_centres_*``, ``detect_without_centres_*``), wall and CPU milliseconds, median
and p95, as ``name=value`` lines.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletop.render.variety import draw_case  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.centre_proposals import CentreProposalConfig  # noqa: E402
from vision.centres import CentreFinder, CentresConfig  # noqa: E402


def _times(fn, repeat: int) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Wall and CPU ms of ``repeat`` calls after a first, untimed one (``cv2.dnn`` plans its
    layers on the first input of a size: once per camera)."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return wall, cpu


def _print(name: str, wall: list[float], cpu: list[float]) -> None:
    for what, v in (("wall", wall), ("cpu", cpu)):
        print(f"{name}_{what}_ms_p50={np.percentile(v, 50):.2f}")
        print(f"{name}_{what}_ms_p95={np.percentile(v, 95):.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--seed", type=int, default=93000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    net_w, net_c, with_w, with_c, without_w, without_c = [], [], [], [], [], []
    for k in range(args.frames):
        case = draw_case(args.seed + k, hand=False, size=(1280, 720))
        r = case.render()
        cal, img = r.calibration(), np.ascontiguousarray(r.image)
        finder = CentreFinder(CentresConfig(reuse=None), cal)  # a whole pass each time
        w, c = _times(lambda f=finder, i=img: f.find(i), args.repeat)
        net_w += w
        net_c += c
        for centres, ws, cs in ((True, with_w, with_c), (False, without_w, without_c)):
            cfg = DetectorConfig(kinds=("tile", "coin", "post"), memory=None,
                                 still_change=None,
                                 centres=CentreProposalConfig(finder=CentresConfig(reuse=None))
                                 if centres else None)
            det = Detector(cal, config=cfg)
            w, c = _times(lambda d=det, i=img: d.detect(i), args.repeat)
            ws += w
            cs += c
    _print("centres_net", net_w, net_c)
    _print("detect_with_centres", with_w, with_c)
    _print("detect_without_centres", without_w, without_c)
    return 0


if __name__ == "__main__":
    sys.exit(main())

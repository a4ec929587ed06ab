"""Milliseconds of one Worm Up! detection, and of its segment stages, on tables where segments
are hard to see.

Run by hand: ``.venv/bin/python bench/bench_worm_up_speed.py [--seed S] [--frames N]
[--tables felt-red,oak,...]``. Each table (pinned, the light and layout drawn from ``--seed``,
as the accuracy bench's game tables are: ``tabletop.render.variety.draw_game_case``) is rendered
once and detected ``--frames`` times by a detector asked for Worm Up!'s kinds, every time a full
detection (the reuse of still frames and of the centre net's heat off); OpenCV and numpy are held
to one thread. Prints, per table and as the mean over the tables (``_mean``):

- ``ms_worm_up_detect_<table>`` / ``cpu_ms_worm_up_detect_<table>``: one detection, wall / CPU
  (process time: on a busy shared machine the fairer figure), medians over the frames;
- ``ms_segments_<table>`` / ``cpu_ms_segments_<table>``: the segment stage's own time, wall
  (the detector's ``segments`` timing) / CPU, medians;
- ``cpu_ms_segment_domes_<table>``: CPU time of the outline search alone
  (:func:`vision.segment_domes.dome_centres` on that frame's inputs), median;
- ``segments_found_<table>``: segments read (the last frame), beside ``segments_true_<table>``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import vision.detector as detector_module  # noqa: E402
import vision.segments as segments_stage  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.segment_domes import dome_centres  # noqa: E402

TABLES = ("felt-red", "gingham-red", "cloth-blue", "oak")
"""Tables of a segment's own colour (the outline search's work) and a plain saturated wood."""


def worm_up_config() -> DetectorConfig:
    """Worm Up!'s kinds, every detection a full one (no still-frame reuse, no heat reuse)."""
    from bench_vision_speed import full

    return full(DetectorConfig.for_game("worm-up", still_change=None))


def measure_table(table: str, seed: int, frames: int) -> dict[str, float]:
    """The figures of one pinned table (see the module doc), keyed without the table's name."""
    from tabletop.render.variety import draw_game_case

    r = draw_game_case(seed, "worm-up", table=table).render()
    det = Detector(r.calibration(), config=worm_up_config())
    inputs: list[tuple] = []

    def keep_inputs(cfg, bgr, coloured, radius):  # the outline search's inputs, as called
        inputs.append((cfg, bgr, coloured, radius))
        return dome_centres(cfg, bgr, coloured, radius)

    stage_cpu: list[float] = []

    def timed_segments(*args, **kw):  # the segment stage's CPU time, as called
        c0 = time.process_time()
        out = segments_stage.detect_segments(*args, **kw)
        stage_cpu.append(time.process_time() - c0)
        return out

    segments_stage.dome_centres = keep_inputs
    detector_module.detect_segments = timed_segments
    try:
        res = det.detect(r.image)  # warm up (models loaded)
        walls, cpus, stage = [], [], []
        for _ in range(frames):
            t0, c0 = time.perf_counter(), time.process_time()
            res = det.detect(r.image)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            stage.append(res.timings_ms.get("segments", 0.0) / 1000.0)
    finally:
        segments_stage.dome_centres = dome_centres
        detector_module.detect_segments = segments_stage.detect_segments
    domes = []
    for cfg, bgr, coloured, radius in inputs[-frames:]:
        c0 = time.process_time()
        dome_centres(cfg, bgr, coloured, radius)
        domes.append(time.process_time() - c0)
    found = sum(1 for p in res.scene.pieces if p.kind == "segment")
    true = sum(1 for p in r.scene.pieces if p.kind == "segment")
    return {"ms_worm_up_detect": 1000 * float(np.median(walls)),
            "cpu_ms_worm_up_detect": 1000 * float(np.median(cpus)),
            "ms_segments": 1000 * float(np.median(stage)),
            "cpu_ms_segments": 1000 * float(np.median(stage_cpu[-frames:])),
            "cpu_ms_segment_domes": 1000 * float(np.median(domes)) if domes else 0.0,
            "segments_found": float(found), "segments_true": float(true)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=77, help="the layout's and light's seed")
    ap.add_argument("--frames", type=int, default=3, help="detections per table")
    ap.add_argument("--tables", default=",".join(TABLES), help="comma-separated tables")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    tables = [t for t in args.tables.split(",") if t]
    sums: dict[str, float] = {}
    for table in tables:
        figs = measure_table(table, args.seed, args.frames)
        for k, v in figs.items():
            print(f"{k}_{table}={v:.1f}", flush=True)
            sums[k] = sums.get(k, 0.0) + v
    for k, v in sums.items():
        if not k.startswith("segments_"):
            print(f"{k}_mean={v / len(tables):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Frames per second of vision on one core, for a typical 30-piece scene.

Run by hand: ``.venv/bin/python bench/bench_vision_speed.py [--frames N]``. The scene is
rendered (``tabletop.render``) at 1280x720 and 1920x1080 with 30 pieces (worms of coins,
tiles, posts); OpenCV is held to one thread. Prints ``fps_1280x720=``, ``fps_1920x1080=``
(Worm Derby's kinds: tiles, coins, posts; no tokens), the same with every kind
(``fps_all_kinds_*``), and the mean time of each stage (``ms_<stage>_<size>=``).
``fps_cpu_*`` counts the process's CPU time instead of the wall clock: on a busy machine it
is the fairer figure for "one core" (wall-clock stage times then include waiting).
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
sys.path.insert(0, str(ROOT / "bench"))

from vision import Detector, DetectorConfig  # noqa: E402


def frames_for(size: tuple[int, int], seed: int = 77):
    """A rendered 30-piece scene at ``size`` and its exact calibration."""
    from bench_vision_accuracy import random_scene

    from tabletop.render import CameraPose, RenderSettings, render_scene

    rng = np.random.default_rng(seed)
    scene = random_scene(rng, 30)
    pose = CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=12, image_size=size,
                                 hfov_deg=66)
    r = render_scene(scene, pose, RenderSettings(seed=seed, table="wood", supersample=1))
    return r.image.copy(), r.calibration(), len(scene)


def measure(img: np.ndarray, cal, config: DetectorConfig, frames: int
            ) -> tuple[float, float, dict[str, float]]:
    """(wall-clock fps, CPU-time fps, mean ms per stage)."""
    det = Detector(cal, config=config)
    det.detect(img)  # warm up
    stages: dict[str, float] = {}
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(frames):
        res = det.detect(img)
        for k, v in res.timings_ms.items():
            stages[k] = stages.get(k, 0.0) + v / frames
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    return frames / dt, frames / max(dc, 1e-9), stages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=30)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for size in ((1280, 720), (1920, 1080)):
        tag = f"{size[0]}x{size[1]}"
        img, cal, n = frames_for(size)
        fps, fps_cpu, stages = measure(img, cal, DetectorConfig.for_game("worm-derby"),
                                       args.frames)
        print(f"pieces_{tag}={n}")
        print(f"fps_{tag}={fps:.2f}")
        print(f"fps_cpu_{tag}={fps_cpu:.2f}")
        for k, v in stages.items():
            print(f"ms_{k}_{tag}={v:.2f}")
        fps_all, _, _ = measure(img, cal, DetectorConfig(), max(5, args.frames // 3))
        print(f"fps_all_kinds_{tag}={fps_all:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

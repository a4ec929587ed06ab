"""Frames per second of vision on one core, for a typical 30-piece scene.

Run by hand: ``.venv/bin/python bench/bench_vision_speed.py [--frames N]``. The scene is
rendered (``tabletop.render``) at 1280x720 and 1920x1080 with 30 pieces (worms of coins,
tiles, posts); OpenCV and numpy are held to one thread. Prints ``fps_1280x720=`` and
``fps_1920x1080=`` (Worm Derby's kinds: tiles, coins, posts; no tokens), the same with every
kind (``fps_all_kinds_*``), and the mean time of each stage (``ms_<stage>_<size>=``).
``fps_cpu_*`` counts the process's CPU time instead of the wall clock: on a busy machine it
is the fairer figure for "one core" (wall-clock stage times then include waiting). The frames
run in five blocks: each fps is the blocks' median, ``fps_slowest_block_*`` the slowest's.

Those figures are full detections (the detector's reuse of still frames is off). In live use
most frames show a still table: ``fps_still_*`` / ``fps_still_cpu_*`` feed the same scene
rendered with fresh sensor noise frame after frame, with the reuse on (the default).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# one core: OpenCV is held to one thread below, numpy's BLAS here (before numpy loads), as the
# command line does
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from vision import Detector, DetectorConfig  # noqa: E402


def frames_for(size: tuple[int, int], seed: int = 77, noise_seed: int | None = None):
    """A rendered 30-piece scene at ``size`` and its exact calibration (``noise_seed``: the
    same scene and table with other sensor noise)."""
    from bench_vision_accuracy import random_scene

    from tabletop.render import CameraPose, RenderSettings, render_scene

    rng = np.random.default_rng(seed)
    scene = random_scene(rng, 30)
    pose = CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=12, image_size=size,
                                 hfov_deg=66)
    r = render_scene(scene, pose, RenderSettings(
        seed=seed if noise_seed is None else noise_seed, table="wood", table_seed=seed % 4,
        supersample=1))
    return r.image.copy(), r.calibration(), len(scene)


def measure(img: np.ndarray | list[np.ndarray], cal, config: DetectorConfig, frames: int,
            blocks: int = 5) -> tuple[float, float, float, dict[str, float]]:
    """(wall-clock fps, CPU-time fps, slowest block's wall-clock fps, mean ms per stage); the
    frames run in ``blocks`` blocks and the fps are their medians (a shared machine's other
    work lands in some blocks only); a list of images is cycled."""
    imgs = img if isinstance(img, list) else [img]
    det = Detector(cal, config=config)
    det.detect(imgs[0])  # warm up
    stages: dict[str, float] = {}
    per = max(1, frames // blocks)
    walls, cpus = [], []
    n = 0
    for _ in range(blocks):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(per):
            n += 1
            res = det.detect(imgs[n % len(imgs)])
            for k, v in res.timings_ms.items():
                stages[k] = stages.get(k, 0.0) + v
        walls.append(per / (time.perf_counter() - t0))
        cpus.append(per / max(time.process_time() - c0, 1e-9))
    stages = {k: v / n for k, v in stages.items()}
    return float(np.median(walls)), float(np.median(cpus)), min(walls), stages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=50)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for size in ((1280, 720), (1920, 1080)):
        tag = f"{size[0]}x{size[1]}"
        img, cal, n = frames_for(size)
        fps, fps_cpu, low, stages = measure(
            img, cal, DetectorConfig.for_game("worm-derby", still_change=None), args.frames)
        print(f"pieces_{tag}={n}")
        print(f"fps_{tag}={fps:.2f}")
        print(f"fps_cpu_{tag}={fps_cpu:.2f}")
        print(f"fps_slowest_block_{tag}={low:.2f}")
        for k, v in stages.items():
            print(f"ms_{k}_{tag}={v:.2f}")
        fps_all, _, _, _ = measure(img, cal, DetectorConfig(still_change=None),
                                   max(5, args.frames // 3), blocks=1)
        print(f"fps_all_kinds_{tag}={fps_all:.2f}")
        noisy = [img] + [frames_for(size, noise_seed=1000 + k)[0] for k in range(3)]
        fps_s, fps_s_cpu, _, _ = measure(noisy, cal, DetectorConfig.for_game("worm-derby"),
                                         args.frames * 3)
        print(f"fps_still_{tag}={fps_s:.2f}")
        print(f"fps_still_cpu_{tag}={fps_s_cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

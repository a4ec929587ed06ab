"""Frames per second of vision on one core, for a typical 30-piece scene.

Run by hand: ``.venv/bin/python bench/bench_vision_speed.py [--frames N]``. The scene is
rendered (``tabletop.render``) at 1280x720 and 1920x1080 with 30 pieces (worms of coins,
tiles, posts); OpenCV and numpy are held to one thread. Prints ``fps_1280x720=`` and
``fps_1920x1080=`` (Worm Derby's kinds: tiles, coins, posts; no tokens), the same with every
kind (``fps_all_kinds_*``), and the mean time of each stage (``ms_<stage>_<size>=``).
``fps_cpu_*`` counts the process's CPU time instead of the wall clock: on a busy machine it
is the fairer figure for "one core" (wall-clock stage times then include waiting). The frames
run in five blocks: each fps is the blocks' median, ``fps_slowest_block_*`` the slowest's.

Those figures are full detections (the detector's reuse of still frames is off, the
centre net reads all of the view every frame and the namer every piece: :func:`full`). In live use
most frames show a still table: ``fps_still_*`` / ``fps_still_cpu_*`` feed the same scene
rendered with fresh sensor noise frame after frame, with the reuse on (the default).

Many pieces (issue 12): ``ms_30_pieces_1280x720`` and ``ms_100_pieces_<size>`` (1280x720,
1920x1080, 3840x2160) are full detections (:func:`full`) of ``random_scene`` layouts (three
seeds, their mean), ``ratio_100_to_30_1280x720`` their quotient; each with ``cpu_`` beside
it (process time). ``ms_stabiliser_emit_{30,100}_pieces``: the stabiliser's own time over a
still period up to the frame it passes the scene on.

Live timing (issue 12, the player's view), at 1280x720 with the live configuration (reuse of
still frames on, the table memory on): ``fps_watch_*`` is the rate of the hand-and-change
watch on a handled table (a hand over it in every frame, each frame new: every frame is a
full detection). ``still_to_verdict_{p95,median}_ms_1280x720`` run a real camera's timing: a
hand moves a coin and lifts off the table, then the table stays still; frames come every
33.3 ms, the real :class:`vision.Detector` and :class:`vision.Stabiliser` take the frames
as the live pipeline does: when free, the frames that came meanwhile are rechecked in order
(:meth:`vision.Detector.recheck`: a few ms each; each showing the same table is one more still
frame) and the newest is detected (a changed frame among them skips the rest), and the
figure is the time from the first frame of the still table to the end of the frame on which
the stabiliser passes the scene (the frames it waits for, plus the compute, plus the
confirmation of the scene by the table before the hand, as the live pipeline does).
``stabiliser_frames_waited_1280x720`` is how many frame periods that took beyond the first.
``cpu_`` figures drive the same clock with each frame's CPU time instead of its wall time (on
a shared machine the fairer one). ``_if_2_still_frames``: the same with a stabiliser that
wants two agreeing frames instead of its default. ``cpu_still_to_verdict_*_with_pictures``:
the same (CPU clock) with the live pipeline's pictures as well: each detected frame drawn and
made the live JPEG (the verdict's own frame after its verdict, as the pipeline does), and the
small JPEG kept with the verdict: what the player waits for. ``[cpu_]verdict_frame_median_ms``
and ``[cpu_]confirm_median_ms``: the detection of the first still frame and the confirmation,
the two costs in the verdict's time (the rest is the frames waited for);
``verdict_frames_read_locally_*``: the share of those first still frames read only round what
changed (:mod:`vision.local_read`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
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

from vision import Detector, DetectorConfig, Stabiliser  # noqa: E402

FRAME_MS = 1000.0 / 30.0
"""A 30 fps camera's frame period."""


def full(config: DetectorConfig) -> DetectorConfig:
    """``config`` with the centre net reading all of the view every frame (its reuse of the
    heat where the view did not change, :mod:`vision.centres_reuse`, off) and every piece read
    again (:mod:`vision.reading_memo` off): a frame detected again and again is then a full
    detection each time, as the fps and pieces figures mean."""
    config = replace(config, reading_memo=None)
    if config.centres is None:
        return config
    return replace(config, centres=replace(config.centres,
                                           finder=replace(config.centres.finder, reuse=None)))


def frames_for(size: tuple[int, int], seed: int = 77, noise_seed: int | None = None,
               n_pieces: int = 30):
    """A rendered ``n_pieces`` scene at ``size`` and its exact calibration (``noise_seed``: the
    same scene and table with other sensor noise)."""
    from bench_vision_accuracy import random_scene

    from tabletop.render import CameraPose, RenderSettings, render_scene

    rng = np.random.default_rng(seed)
    scene = random_scene(rng, n_pieces)
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


def ms_per_detection(img: np.ndarray, cal, config: DetectorConfig, frames: int
                     ) -> tuple[float, float]:
    """(wall, CPU) milliseconds of one detection of ``img``: the medians over ``frames``."""
    det = Detector(cal, config=config)
    det.detect(img)  # warm up
    walls, cpus = [], []
    for _ in range(frames):
        t0, c0 = time.perf_counter(), time.process_time()
        det.detect(img)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return 1000.0 * float(np.median(walls)), 1000.0 * float(np.median(cpus))


def many_pieces(frames: int, seeds: tuple[int, ...] = (77, 78, 79)) -> None:
    """Prints the 30- and 100-piece figures (means over ``seeds``' layouts)."""
    config = full(DetectorConfig.for_game("worm-derby", still_change=None))
    got: dict[str, float] = {}
    for n, sizes in ((30, ((1280, 720),)), (100, ((1280, 720), (1920, 1080), (3840, 2160)))):
        for size in sizes:
            tag = f"{n}_pieces_{size[0]}x{size[1]}"
            runs = max(3, frames // (4 if size[0] > 2000 else 1))
            ms = [ms_per_detection(*frames_for(size, seed, n_pieces=n)[:2], config, runs)
                  for seed in seeds]
            got[f"ms_{tag}"] = float(np.mean([m[0] for m in ms]))
            got[f"cpu_ms_{tag}"] = float(np.mean([m[1] for m in ms]))
            print(f"ms_{tag}={got[f'ms_{tag}']:.2f}")
            print(f"cpu_ms_{tag}={got[f'cpu_ms_{tag}']:.2f}")
    for clock in ("", "cpu_"):
        ratio = got[f"{clock}ms_100_pieces_1280x720"] / got[f"{clock}ms_30_pieces_1280x720"]
        print(f"ratio_{clock}100_to_30_1280x720={ratio:.2f}")
    for n in (30, 100):
        wall, cpu = stabiliser_ms(n)
        print(f"ms_stabiliser_emit_{n}_pieces={wall:.2f}")
        print(f"cpu_ms_stabiliser_emit_{n}_pieces={cpu:.2f}")


def stabiliser_ms(n_pieces: int, runs: int = 20) -> tuple[float, float]:
    """(wall, CPU) ms the stabiliser takes over the frames of one still period of a
    ``random_scene`` of ``n_pieces`` (each piece jittered by sensor noise), up to and with
    the frame it passes the scene on: its part of the still-to-verdict time."""
    from bench_vision_accuracy import random_scene

    from tabletop.scene import Scene

    rng = np.random.default_rng(5)
    scene = random_scene(np.random.default_rng(77), n_pieces)
    still = Stabiliser().still_frames
    frames = [Scene(tuple(p.moved_to(p.x_mm + rng.normal(0, 0.2), p.y_mm + rng.normal(0, 0.2))
                          for p in scene.pieces)) for _ in range(still)]
    walls, cpus = [], []
    for _ in range(runs):
        stab = Stabiliser()
        t0, c0 = time.perf_counter(), time.process_time()
        out = [stab.update(f) for f in frames]
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        assert out[-1] is not None
    return 1000.0 * float(np.median(walls)), 1000.0 * float(np.median(cpus))


def hand_lift_frames(size: tuple[int, int], seed: int, n_pieces: int = 30, before: int = 4,
                     handled: int = 10, after: int = 12
                     ) -> tuple[list[np.ndarray], int, object]:
    """Frames of a hand moving a coin and lifting off: ``before`` frames of the still table,
    ``handled`` with a hand (at the coin, then rising and drawing back towards the camera's
    side, still in view on the last), ``after`` of the still table with the coin moved; each
    frame with its own sensor noise. Returns the frames, the index of the first frame of the
    still table (``before + handled``), and the calibration."""
    from bench_vision_accuracy import random_scene

    from tabletop.render import CameraPose, RenderSettings, render_scene
    from tabletop.scene import Scene

    rng = np.random.default_rng(seed)
    scene = random_scene(rng, n_pieces)
    coins = [i for i, p in enumerate(scene.pieces) if p.kind == "coin"]
    coin = min(coins, key=lambda i: abs(scene.pieces[i].y_mm))  # the middlemost coin
    p = scene.pieces[coin]
    moved = Scene(tuple(q.moved_to(p.x_mm + 30.0, p.y_mm) if i == coin else q
                        for i, q in enumerate(scene.pieces)))
    pose = CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=12, image_size=size,
                                 hfov_deg=66)
    from_deg = 90.0  # the arm comes from the camera's side of the table (+y, image bottom)
    back = np.array([np.cos(np.radians(from_deg)), np.sin(np.radians(from_deg))])
    target = np.array(moved.pieces[coin].centre_mm)
    frames: list[np.ndarray] = []
    cal = None
    for k in range(before + handled + after):
        j = k - before
        sc, hand = (scene, {}) if j < 0 else (moved, {})
        if 0 <= j < handled:  # at the coin, then up and back
            t = j / max(1, handled - 1)
            at = target + back * 150.0 * t
            hand = {"hand": True, "hand_target_mm": (float(at[0]), float(at[1])),
                    "hand_from_deg": from_deg, "hand_height_mm": float(35.0 + 150.0 * t)}
        r = render_scene(sc, pose, RenderSettings(seed=seed * 1000 + k, table="wood",
                                                  table_seed=seed % 4, supersample=1, **hand))
        frames.append(r.image.copy())
        cal = r.calibration()
    return frames, before + handled, cal


def live_run(frames: list[np.ndarray], first_still: int, cal, clock: str,
             still_frames: int | None = None, pictures: bool = False,
             parts: dict[str, list[float]] | None = None) -> tuple[float, int]:
    """One live run over ``frames`` (30 fps; when free, the frames that came meanwhile are
    rechecked in order and the newest detected), timed by ``clock``
    (``"wall"`` or ``"cpu"``), the stabiliser wanting ``still_frames`` agreeing frames (None:
    its default). ``pictures``: the live pipeline's pictures too (each detected frame drawn
    and made the live JPEG, after its verdict if it has one; the verdict's own small JPEG).
    ``parts``: gets the ms (by ``clock``) of the first still frame's detection
    (``"verdict_frame"``) and of the confirmation (``"confirm"``). Returns the ms from the
    first still frame's arrival to the verdict (inf when none came) and the frame periods
    waited."""
    from live.pipeline import SNAPSHOT_WIDTH, encode_jpeg
    from vision import annotate
    from vision.confirm import Confirmer

    config = DetectorConfig.for_game("worm-derby")
    det = Detector(cal, config=config)
    stab = Stabiliser() if still_frames is None else Stabiliser(still_frames=still_frames)
    confirmer = Confirmer(cal, det.pieces, kinds=config.kinds)  # as the live pipeline
    known = None  # the table before the hand, accepted
    tick = time.perf_counter if clock == "wall" else time.process_time
    parts = {} if parts is None else parts
    now, i = 0.0, 0
    while i < len(frames):
        arrived = i * FRAME_MS
        now = max(now, arrived)
        t0 = tick()
        local = det.local_reads
        result = det.detect(frames[i])
        if i == first_still:
            parts.setdefault("verdict_frame", []).append(1000.0 * (tick() - t0))
            parts.setdefault("read_locally", []).append(float(det.local_reads > local))
        out = stab.update(result.scene)
        if out is not None and i >= first_still and known is not None:
            t1 = tick()
            out = confirmer.confirm(frames[i], out, known).scene
            parts.setdefault("confirm", []).append(1000.0 * (tick() - t1))
        if out is not None and i >= first_still and pictures:
            encode_jpeg(frames[i], SNAPSHOT_WIDTH, 75)  # kept with the verdict
        now += 1000.0 * (tick() - t0)
        if pictures and not (out is not None and i >= first_still):  # (after a verdict:
            t0 = tick()  # not waited for)
            encode_jpeg(annotate(frames[i], result), 960)
            now += 1000.0 * (tick() - t0)
        if out is not None and i < first_still:
            known = out
        if out is not None and i >= first_still:
            return now - first_still * FRAME_MS, i - first_still
        # the frames that came meanwhile are rechecked in order (as live.pipeline does: each
        # showing the same table is a still frame seen); at the first that does not, or once
        # none is left, the newest frame that has arrived is detected, else the next
        j = i + 1
        while j < min(len(frames) - 1, int(now // FRAME_MS)):
            t0 = tick()
            again = det.recheck(frames[j])
            out = None if again is None else stab.update(again.scene)
            now += 1000.0 * (tick() - t0)
            if again is None:
                break
            if out is not None and j < first_still:
                known = out
            if out is not None and j >= first_still:
                if known is not None:
                    t0 = tick()
                    confirmer.confirm(frames[j], out, known)
                    parts.setdefault("confirm", []).append(1000.0 * (tick() - t0))
                    if pictures:
                        encode_jpeg(frames[j], SNAPSHOT_WIDTH, 75)
                    now += 1000.0 * (tick() - t0)
                return now - first_still * FRAME_MS, j - first_still
            j += 1
        i = max(i + 1, min(len(frames) - 1, int(now // FRAME_MS)))
        if i == len(frames) - 1 and int(now // FRAME_MS) > i and out is None:
            break
    return math.inf, len(frames) - first_still


def watch(seqs: list, frames_n: int, tag: str) -> None:
    """Prints the watch's rate on the hand frames of ``seqs`` (each frame new, cycled)."""
    walls, cpus = [], []
    for frames, first, cal in seqs:
        det = Detector(cal, config=DetectorConfig.for_game("worm-derby"))
        hands = frames[4:first]  # (``before`` is 4)
        for k in range(max(len(hands), frames_n // len(seqs))):
            t0, c0 = time.perf_counter(), time.process_time()
            det.detect(hands[k % len(hands)])
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
    print(f"fps_watch_{tag}={1.0 / float(np.median(walls)):.2f}")
    print(f"fps_watch_cpu_{tag}={1.0 / float(np.median(cpus)):.2f}")
    print(f"fps_watch_slowest_frame_{tag}={1.0 / float(np.max(walls)):.2f}")


def live(frames_n: int, seeds: tuple[int, ...] = (77, 78, 79, 80)) -> None:
    """Prints the watch rate (1280x720, 1920x1080) and the still-to-verdict figures
    (1280x720)."""
    watch([hand_lift_frames((1920, 1080), seed) for seed in seeds[:2]], frames_n // 2,
          "1920x1080")
    size = (1280, 720)
    tag = f"{size[0]}x{size[1]}"
    seqs = [hand_lift_frames(size, seed) for seed in seeds]
    watch(seqs, frames_n, tag)
    print(f"stabiliser_still_frames={Stabiliser().still_frames}")
    for still, suffix, clocks in ((None, "", ("wall", "cpu")),
                                  (2, "_if_2_still_frames", ("wall", "cpu")),
                                  (None, "_with_pictures", ("cpu",))):
        for clock, prefix in (("wall", ""), ("cpu", "cpu_")):
            if clock not in clocks:
                continue
            lat, waited = [], []
            parts: dict[str, list[float]] = {}
            for _ in range(max(1, frames_n // 10)):
                for frames, first, cal in seqs:
                    ms, n = live_run(frames, first, cal, clock, still,
                                     pictures=suffix == "_with_pictures", parts=parts)
                    lat.append(ms)
                    waited.append(n)
            if not suffix:  # what the verdict's time is made of
                for k, v in parts.items():
                    if k == "read_locally":
                        if clock == "wall":
                            print(f"verdict_frames_read_locally_{tag}={np.mean(v):.2f}")
                        continue
                    print(f"{prefix}{k}_median_ms_{tag}={float(np.median(v)):.1f}")
            p95 = float(np.percentile(lat, 95, method="higher"))  # (inf: some never came)
            print(f"{prefix}still_to_verdict_p95_ms_{tag}{suffix}={p95:.1f}")
            print(f"{prefix}still_to_verdict_median_ms_{tag}{suffix}={float(np.median(lat)):.1f}")
            if clock == "wall":
                print(f"stabiliser_frames_waited_{tag}{suffix}={float(np.median(waited)):.0f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=50)
    ap.add_argument("--only", choices=("fps", "pieces", "live"), default=None,
                    help="one part only (default: all)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.only in (None, "live"):
        live(args.frames)
    if args.only in (None, "pieces"):
        many_pieces(max(5, args.frames // 5))
    if args.only == "live" or args.only == "pieces":
        return 0
    for size in ((1280, 720), (1920, 1080)):
        tag = f"{size[0]}x{size[1]}"
        img, cal, n = frames_for(size)
        fps, fps_cpu, low, stages = measure(
            img, cal, full(DetectorConfig.for_game("worm-derby", still_change=None)), args.frames)
        print(f"pieces_{tag}={n}")
        print(f"fps_{tag}={fps:.2f}")
        print(f"fps_cpu_{tag}={fps_cpu:.2f}")
        print(f"fps_slowest_block_{tag}={low:.2f}")
        for k, v in stages.items():
            print(f"ms_{k}_{tag}={v:.2f}")
        fps_all, _, _, _ = measure(img, cal, full(DetectorConfig(still_change=None)),
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

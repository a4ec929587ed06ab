"""Renderer speed: a Worm Derby-sized table (about 25 pieces) at 1280x720.

Prints ``name=value`` lines:
- ``render_ms_1280x720``: median over frames whose every piece moved (all pieces traced; the
  table's texture cached, as in any sequence of frames of one table),
- ``render_ms_1280x720_hand``: the same with a hand over the table,
- ``render_ms_1280x720_still``: frames of an unchanged table (piece layers reused),
- ``render_ms_1280x720_first``: the first frame of a new table (texture made),
- ``render_cpu_ms_1280x720``: CPU time of one frame (all threads; what a busy machine sees).
- ``render_ms_variety_1280x720``: median of ``draw_case(seed, size=(1280, 720)).render()`` over
  varied cases (each a new table, light, camera and layout: texture and traces made afresh;
  OpenCV on one thread),
  with ``render_cpu_ms_variety_1280x720`` (CPU) and ``render_ms_variety_1280x720_p90`` beside.

Wall times are only meaningful on an idle machine; ``load_avg_1min`` says how idle it was.
"""

from __future__ import annotations

import os
import statistics
import time

import cv2

from tabletop.render import CameraPose, RenderSettings, draw_case, render_scene
from tabletop.scene import Piece, Scene


def table_scene() -> Scene:
    """Two worms of five, start tiles, a pylon, obstacles, a few stray pieces."""
    pieces = [Piece("coin", -120.0 - 19.05 * i, -30.0, suit="suns") for i in range(5)]
    pieces += [Piece("coin", -120.0 - 19.05 * i, 30.0, suit="moons") for i in range(5)]
    pieces += [Piece.tile(-110.0, -101.6, 0.0, "up", "crowns"),
               Piece.tile(-110.0, 101.6, 0.0, "up", "arms"),
               Piece.tile(390.0, 0.0, 0.0, "up", "suns")]
    pieces += [Piece.tile(x, y, a, "down") for x, y, a in
               ((60.0, -60.0, 20.0), (150.0, 80.0, 65.0), (250.0, -120.0, 40.0),
                (0.0, 180.0, 5.0), (300.0, 160.0, 80.0))]
    pieces += [Piece("coin", 200.0 + 25 * i, 20.0 * i, suit=s)
               for i, s in enumerate(("crowns", "arms", "suns"))]
    pieces += [Piece("post", -250.0, -200.0), Piece("token", 420.0, -200.0, id=101),
               Piece("die", -300.0, 150.0, value="4"), Piece("segment", 100.0, 220.0,
                                                             color="red")]
    return Scene(tuple(pieces))


def main() -> None:
    """Runs the benchmark."""
    scene = table_scene()
    pose = CameraPose.looking_at((60.0, 0.0), 950.0, 12.0, 0.0, (1280, 720), 60.0)
    t0 = time.perf_counter()
    render_scene(scene, pose, RenderSettings(seed=0, table_seed=100))
    first = (time.perf_counter() - t0) * 1000
    plain, hand, cpu, still = [], [], [], []
    for i in range(1, 9):
        moved = Scene(tuple(p.moved_to(p.x_mm + 0.1 * i, p.y_mm) for p in scene.pieces))
        t0, c0 = time.perf_counter(), time.process_time()
        render_scene(moved, pose, RenderSettings(seed=i, table_seed=100))
        plain.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        moved = Scene(tuple(p.moved_to(p.x_mm, p.y_mm + 0.1 * i) for p in scene.pieces))
        t0 = time.perf_counter()
        render_scene(moved, pose, RenderSettings(seed=i, table_seed=100, hand=True))
        hand.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        render_scene(scene, pose, RenderSettings(seed=i, table_seed=100))
        still.append((time.perf_counter() - t0) * 1000)
    print(f"render_ms_1280x720={statistics.median(plain):.1f}")
    print(f"render_ms_1280x720_hand={statistics.median(hand):.1f}")
    print(f"render_ms_1280x720_still={statistics.median(still):.1f}")
    print(f"render_ms_1280x720_first={first:.1f}")
    print(f"render_cpu_ms_1280x720={statistics.median(cpu):.1f}")
    print(f"pieces={len(scene)}")
    wall, cpu_v = [], []
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # one core, as a training run on a busy machine gets
    for seed in range(700, 716):
        case = draw_case(seed, size=(1280, 720))
        t0, c0 = time.perf_counter(), time.process_time()
        case.render()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu_v.append((time.process_time() - c0) * 1000)
    cv2.setNumThreads(threads)
    print(f"render_ms_variety_1280x720={statistics.median(wall):.1f}")
    print(f"render_ms_variety_1280x720_p90={statistics.quantiles(wall, n=10)[-1]:.1f}")
    print(f"render_cpu_ms_variety_1280x720={statistics.median(cpu_v):.1f}")
    print(f"load_avg_1min={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

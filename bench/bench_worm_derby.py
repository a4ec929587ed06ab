"""Worm Derby timings: judging a turn (two scenes, 40 pieces) and one gap-fit query.

Run by hand (``make bench``); prints ``name=value`` lines:

- ``judge_turn_ms``: median CPU time (process time, so that a busy shared machine does not
  inflate it) to judge one 3-step move between two scenes of 40 pieces
  (goal < 5 ms);
- ``gap_fit_ms``: median time of one gap-fit query on a 40-piece scene, its roadmap prepared
  (goal < 2 ms);
- ``gap_fit_prepare_ms``: building that roadmap once per scene.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.geometry import ObstacleSet, fit_path, roadmap_for
from referee.record import Referee
from tabletop.events import Roll, SceneSeen, Setup
from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene

D = PieceSet().coin_diameter_mm
T = PieceSet().tile_mm
PLAYERS = ("suns", "moons", "crowns", "arms")


def course_pieces() -> list[Piece]:
    """Start tiles, a pylon 1200 mm away and 12 obstacles away from both: 15 tiles."""
    out = [Piece.tile(-2 * T, 0, face="up", suit="suns"), Piece.tile(2 * T, 0, face="up",
                                                                      suit="moons"),
           Piece.tile(0, 1200, face="up", suit="crowns")]
    rng = random.Random(7)
    while len(out) < 15:
        x, y = rng.uniform(-500, 500), rng.uniform(3.5 * T, 1200 - 3.5 * T)
        if all(math.hypot(x - p.x_mm, y - p.y_mm) > 1.6 * T for p in out):
            out.append(Piece.tile(x, y, rng.uniform(0, 89)))
    return out


def worm(x: float, y0: float, n: int, suit: str) -> list[Piece]:
    return [Piece("coin", x, y0 + i * D, suit=suit) for i in range(n)]


def scenes() -> tuple[Scene, Scene, Scene]:
    tiles = course_pieces()
    xs = (-60.0, -20.0, 20.0, 60.0)
    worms = [worm(x, 0.0, 6, s) for x, s in zip(xs, PLAYERS, strict=True)]
    start = Scene.of(tiles + [c for w in worms for c in w] + [Piece.tile(-400, -200)])
    moved = [worm(xs[0], 3 * D, 6, "suns"), *worms[1:]]
    after = Scene.of(tiles + [c for w in moved for c in w] + [Piece.tile(-400, -200)])
    return start, after, after


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append((time.process_time() - t0) * 1e3)
    return statistics.median(times)


def main() -> None:
    start, after, _ = scenes()
    assert len(start) == 40, len(start)
    setup = Setup("worm-derby", PLAYERS, {})
    base = Referee()
    base.push(setup, 0)
    out = base.push(SceneSeen(start), 1)
    assert out and out[0].legal, out
    base.push(Roll("suns", "3"), 2)
    game, state = base.game, base.state
    assert game is not None

    def judge() -> None:
        step = game.step(state, SceneSeen(after), 3)
        assert step.outputs[0].legal, step.outputs[0]

    judge()
    print(f"judge_turn_ms={median_ms(judge, 30):.2f}")

    obstacles = ObstacleSet.from_pieces(after.pieces)
    t0 = time.process_time()
    roadmap_for(obstacles)
    print(f"gap_fit_prepare_ms={(time.process_time() - t0) * 1e3:.1f}")
    rng = random.Random(3)
    queries = []
    while len(queries) < 200:
        a = (rng.uniform(-500, 500), rng.uniform(100, 1100))
        b = (rng.uniform(-500, 500), rng.uniform(100, 1100))
        if obstacles.clearance_of_point(a) > D / 2 and obstacles.clearance_of_point(b) > D / 2:
            queries.append((a, b))
    times = []
    for a, b in queries:
        t0 = time.process_time()
        fit_path(obstacles, a, b, D)
        times.append((time.process_time() - t0) * 1e3)
    print(f"gap_fit_ms={statistics.median(times):.2f}")


if __name__ == "__main__":
    main()

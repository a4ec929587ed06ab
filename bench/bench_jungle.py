"""Jungle engine timing (one core). Prints ``name=value`` lines.

- ``perft4_s``, ``perft5_s``: perft from the start position (the bar: perft 5 under 10 s).
- ``movegen_start_us``: one move generation in the start position.
- ``referee_event_ms``: judging one move event in a 200-ply game (``tabletop referee``).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.jungle import geometry as g
from referee.jungle.perft import perft
from referee.jungle.position import Position, move_squares
from referee.record import fold
from tabletop.events import Move, Setup


def main() -> None:
    """Times perft 4 and 5, move generation and the referee."""
    for depth in (4, 5):
        pos = Position()
        t0 = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t0
        print(f"perft{depth}={n}")
        print(f"perft{depth}_s={dt:.3f}")
        if depth == 5:
            print(f"perft5_leaves_per_s={n / dt:.0f}")
    pos = Position()
    t0 = time.perf_counter()
    for _ in range(20000):
        pos.generate_moves()
    print(f"movegen_start_us={(time.perf_counter() - t0) / 20000 * 1e6:.2f}")

    rng = random.Random(1)
    players = ("ann", "bob")
    pos = Position()
    events: list = [Setup("jungle", players)]
    while len(events) <= 200:
        legal = pos.legal_moves()
        if not legal:
            break
        quiet = [m for m in legal if not pos.board[m & 63]] or legal
        m = rng.choice(quiet)
        fr, to = move_squares(m)
        events.append(Move(players[pos.side], g.SQUARE_NAMES[fr], g.SQUARE_NAMES[to]))
        pos.push(m)
        if pos.winner is not None:
            break
    t0 = time.perf_counter()
    fold(events)
    dt = time.perf_counter() - t0
    print(f"referee_events={len(events) - 1}")
    print(f"referee_event_ms={dt / max(1, len(events) - 1) * 1e3:.3f}")


if __name__ == "__main__":
    main()

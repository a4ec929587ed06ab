"""Jungle engine timing: perft from the start position (one core). Prints ``name=value`` lines."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.jungle.perft import perft
from referee.jungle.position import Position


def main() -> None:
    """Times perft 4 and 5 from the start position and the move generator's speed."""
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


if __name__ == "__main__":
    main()

"""Hostile input: how much time and memory does each take before it is refused?

Issue 15's bar: no single request or file uses more than 500 MB or 5 s before it is refused.
Each case runs ``tabletop`` in its own process (so its peak memory is its own) on a file made to
hurt: a small PNG declaring 20000x20000 pixels, JSON nested 100,000 deep, a 5000-digit number,
a 20,000-point POINTS.json, a table of pieces too spread out for a gap check. Prints
``name=value`` lines: ``<case>_wall_s``, ``<case>_cpu_s`` and ``<case>_peak_mb`` for each, the
exit code as ``<case>_exit`` (1 or 2: refused), and the worst of each figure.

Usage: ``python bench/bench_hostile.py``.
"""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CAL = ROOT / "sample_images" / "worm_derby" / "calibration.json"

MEASURE = ("import resource, sys, time\n"
           "from tabletop.cli import main\n"
           "try:\n"
           "    code = main(sys.argv[1:])\n"
           "except SystemExit as exc:\n"
           "    code = exc.code\n"
           "ru = resource.getrusage(resource.RUSAGE_SELF)\n"
           "sys.stderr.write(f'\\nPEAK {ru.ru_maxrss} CPU {ru.ru_utime + ru.ru_stime}\\n')\n"
           "sys.exit(code)\n")


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _files(d: Path) -> dict[str, list[str]]:
    (d / "bomb.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2,
                                                                0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(b"\0" * (1 << 20))) + _png_chunk(b"IEND", b""))
    deep = "[" * 100000 + "]" * 100000
    (d / "deep.jsonl").write_text(deep + "\n")
    (d / "huge.json").write_text('{"pieces": [{"kind": "coin", "x": ' + "9" * 5000 + ', "y": 0}]}')
    (d / "points.json").write_text(json.dumps(
        [{"pixel": [i % 640, i % 480], "world": [i, 2 * i]} for i in range(20000)]))
    random.seed(1)
    spread = [{"kind": "coin", "x": random.uniform(-9000, 9000),
               "y": random.uniform(-9000, 9000), "suit": None} for _ in range(900)]
    (d / "spread.json").write_text(json.dumps({"pieces": spread}))
    import cv2
    import numpy as np

    cv2.imwrite(str(d / "ok.jpg"), np.full((480, 640, 3), 120, np.uint8))
    cal = str(SAMPLE_CAL)
    return {
        "detect_bomb_png": ["detect", str(d / "bomb.png"), "--calibration", cal],
        "calibrate_bomb_png": ["calibrate", str(d / "bomb.png"), "-o", str(d / "o.json")],
        "lens_bomb_png": ["lens", str(d / "bomb.png"), str(d / "bomb.png"), str(d / "bomb.png"),
                          "--chessboard", "9x6", "--square", "25", "-o", str(d / "l.json")],
        "referee_deep_json": ["referee", str(d / "deep.jsonl")],
        "fit_huge_number": ["fit", str(d / "huge.json"), "--from", "0,0", "--to", "1,1"],
        "fit_spread_table": ["fit", str(d / "spread.json"), "--from", "0,0", "--to", "1,1"],
        "calibrate_20000_points": ["calibrate", str(d / "ok.jpg"), "--points",
                                   str(d / "points.json"), "-o", str(d / "o.json")],
        "mat_dpi_100000": ["mat", "-o", str(d / "m.png"), "--dpi", "100000"],
    }


def main() -> int:
    worst = {"wall_s": 0.0, "cpu_s": 0.0, "peak_mb": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        cases = _files(Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        for name, args in cases.items():
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", MEASURE, *args], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)
            wall = time.perf_counter() - t0
            lines = proc.stderr.strip().splitlines()
            tail = lines[-1].split()
            peak_mb = int(tail[1]) / 1024  # ru_maxrss is in KiB on Linux
            cpu = float(tail[3])
            said = next((ln for ln in lines if ": error: " in ln), "")
            print(f"# {name}: {said[:150]}")
            print(f"{name}_exit={proc.returncode}")
            print(f"{name}_wall_s={wall:.2f}")
            print(f"{name}_cpu_s={cpu:.2f}")
            print(f"{name}_peak_mb={peak_mb:.0f}")
            for key, value in (("wall_s", wall), ("cpu_s", cpu), ("peak_mb", peak_mb)):
                worst[key] = max(worst[key], value)
    for key, value in worst.items():
        print(f"worst_{key}={value:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

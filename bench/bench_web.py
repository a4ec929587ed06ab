"""The dashboard under load: does the pipeline slow down with 20 live-stream clients?

Starts a dashboard in a separate process whose pipeline runs as fast as it can on a live
source (the sample playthrough's frames with the real vision), and measures its frame rate
alone and with 20 clients on ``/api/stream`` (loopback), ``--seconds`` of each. The two
conditions alternate in windows of ``--window`` seconds (alone, with clients, alone...) so that
other load on the machine falls on both alike. Prints ``name=value`` lines:

    fps_alone=..., fps_with_20_clients=..., drop_pct=..., sse_messages=...

Usage: ``python bench/bench_web.py [--seconds 60] [--clients 20] [--window 10]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_images" / "worm_derby"


def serve(port_file: str) -> None:
    """The server side (run in its own process): a live pipeline as fast as it can go."""
    sys.path.insert(0, str(ROOT))
    import cv2
    from werkzeug.serving import make_server

    from calibration.model import Calibration
    from live.sources import Frame, Source
    from live.vision_glue import load_vision
    from tabletop.events import Setup
    from web import create_app

    frames_dir = SAMPLE / "frames"
    if not (SAMPLE / "calibration.json").is_file() or not frames_dir.is_dir():
        sys.exit(f"bench_web: error: {SAMPLE} (the sample playthrough) is missing")
    cal = Calibration.load(SAMPLE / "calibration.json")
    files = sorted(frames_dir.glob("*.jpg"))[:6]
    images = [cv2.imread(str(f)) for f in files]
    vision = load_vision(cal, "worm-derby")
    game = Setup("worm-derby", ("suns", "moons"))

    class Loop(Source):
        """A camera that never waits: each picture held for 8 frames, round and round."""

        live = True
        description = "benchmark loop"

        def items(self):
            n = 0
            while True:
                yield Frame(images[(n // 8) % len(images)], n, time.monotonic(), f"#{n}")
                n += 1
                time.sleep(0.001)

    app = create_app({"LOG_PATH": ":memory:", "SOURCE": Loop(), "VISION": vision,
                      "CALIBRATION": cal, "PIPELINE_AUTOSTART": False})
    app.extensions["tabletop"].table.submit(game)
    app.extensions["tabletop"].pipeline.start()
    import logging

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    Path(port_file).write_text(str(server.server_port))
    server.serve_forever()


def processed(url: str) -> int:
    with urllib.request.urlopen(url + "/api/state", timeout=10) as r:
        return int(json.loads(r.read())["source"]["frames_processed"])


def measure(url: str, seconds: float) -> tuple[int, float]:
    """Frames processed and seconds elapsed over one window."""
    a, t0 = processed(url), time.monotonic()
    time.sleep(seconds)
    b, t1 = processed(url), time.monotonic()
    return b - a, t1 - t0


def client(url: str, stop: threading.Event, counts: list[int], i: int) -> None:
    try:
        with urllib.request.urlopen(url + "/api/stream", timeout=10) as r:
            for line in r:
                if line.startswith(b"event:"):
                    counts[i] += 1
                if stop.is_set():
                    return
    except OSError:
        return


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="each measurement (default 60)")
    ap.add_argument("--clients", type=int, default=20, help="stream clients (default 20)")
    ap.add_argument("--window", type=float, default=10.0,
                    help="length of one alternating window (default 10)")
    ap.add_argument("--serve", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    port_file = ROOT / "out" / f"bench_web_port_{os.getpid()}"
    port_file.parent.mkdir(exist_ok=True)
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port_file)], cwd=ROOT)
    try:
        for _ in range(600):
            if port_file.is_file() and port_file.read_text():
                break
            time.sleep(0.1)
        url = f"http://127.0.0.1:{port_file.read_text()}"
        time.sleep(min(5.0, args.seconds / 4))  # warm up
        window = min(args.window, args.seconds)
        n_windows = max(1, round(args.seconds / window))
        frames = {"alone": 0, "loaded": 0}
        spent = {"alone": 0.0, "loaded": 0.0}
        counts = [0] * args.clients
        connected = 0
        for _ in range(n_windows):
            n, dt = measure(url, window)
            frames["alone"] += n
            spent["alone"] += dt
            stop = threading.Event()
            threads = [threading.Thread(target=client, args=(url, stop, counts, i), daemon=True)
                       for i in range(args.clients)]
            for t in threads:
                t.start()
            time.sleep(0.5)
            n, dt = measure(url, window)
            frames["loaded"] += n
            spent["loaded"] += dt
            connected = max(connected, sum(1 for t in threads if t.is_alive()))
            stop.set()
            for t in threads:
                t.join(15)
        alone = frames["alone"] / spent["alone"]
        loaded = frames["loaded"] / spent["loaded"]
    finally:
        proc.terminate()
        proc.wait(10)
        port_file.unlink(missing_ok=True)
    drop = 100.0 * (alone - loaded) / alone if alone > 0 else float("nan")
    print(f"vision={'real' if (SAMPLE / 'calibration.json').is_file() else 'synthetic'}")
    print(f"seconds_each={spent['alone']:.0f}")
    print(f"windows={n_windows}")
    print(f"fps_alone={alone:.2f}")
    print(f"fps_with_{args.clients}_clients={loaded:.2f}")
    print(f"drop_pct={drop:.2f}")
    print(f"clients_connected={connected}")
    print(f"sse_messages={sum(counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Takes the screenshots in docs/ with headless Chromium (run by hand; see docs/README.md).

It runs the real ``tabletop demo`` on the sample playthrough, waits until it has been judged, and
photographs the dashboard, the gap check, the history and replay, and the calibration page; then
it starts ``tabletop serve`` with a Worm Up! game and photographs three phones bidding.

Usage: ``.venv/bin/python docs/make_screenshots.py [--sample DIR] [--out docs]``.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TV = {"width": 1680, "height": 1050}
PHONE = {"width": 390, "height": 760}


def start(args: list[str]) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "dashboard at" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line} {proc.stderr.read()}")
    return proc, line.split("dashboard at ", 1)[1].strip().rstrip("/")


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post(url: str, obj: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(obj).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def wait_until_judged(url: str, timeout_s: float = 600) -> dict:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        s = get(url + "/api/state")
        if s["source"]["state"] in ("ended", "error"):
            return s
        time.sleep(1)
    raise SystemExit("the demo did not finish in time")


def demo_shots(browser, sample: Path, out: Path) -> None:
    db = Path(tempfile.mkdtemp(prefix="tabletop-shots-")) / "demo.db"
    proc, url = start(["demo", "--port", "0", "--pace", "0.05", "--sample", str(sample),
                       "--db", str(db)])
    try:
        state = wait_until_judged(url)
        print(f"demo judged: {len(state['verdicts'])} verdicts, source {state['source']}")
        page = browser.new_page(viewport=TV)
        page.goto(url + "/")
        page.wait_for_function("document.getElementById('picture').naturalWidth > 0")
        illegal = next((v for v in state["verdicts"] if not v["legal"]), None)
        page.wait_for_timeout(800)
        page.screenshot(path=str(out / "dashboard.png"))
        scene = state["scene"] or state["last_seen"]
        tiles = [p for p in scene["pieces"] if p["kind"] == "tile" and p.get("face") == "down"]
        pairs = [(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]]
        if pairs:  # straight through the narrowest gap between two obstacles
            a, b = min(pairs, key=lambda ab: math.dist((ab[0]["x"], ab[0]["y"]),
                                                       (ab[1]["x"], ab[1]["y"])))
            mx, my = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
            dx, dy = b["x"] - a["x"], b["y"] - a["y"]
            n = math.hypot(dx, dy)
            px, py = -dy / n * 70, dx / n * 70
            fit = post(url + "/api/fit", {"from": [mx - px, my - py], "to": [mx + px, my + py]})
            print(f"gap check: fits={fit['fits']} clearance_mm={fit['clearance_mm']}")
        page.reload()
        page.wait_for_function("document.getElementById('picture').naturalWidth > 0")
        page.wait_for_timeout(800)
        page.screenshot(path=str(out / "gap-check.png"))
        page.goto(url + "/history")
        page.screenshot(path=str(out / "history.png"))
        game = get(url + "/api/games")[0]["id"]
        page.goto(f"{url}/history/{game}")
        page.wait_for_selector("#steps li")
        if illegal is not None:
            steps = page.locator("#steps li")
            for i in range(steps.count()):
                if "illegal" in steps.nth(i).inner_text():
                    steps.nth(i).click()
                    break
        page.wait_for_timeout(800)
        page.screenshot(path=str(out / "replay.png"))
        page.goto(url + "/calibration")
        page.wait_for_timeout(1500)
        page.click("#recalibrate")  # from the mat in the last frame: the error map appears
        page.wait_for_function("document.getElementById('message').textContent.includes('Done')"
                               " || document.getElementById('message').className.includes('bad')",
                               timeout=60_000)
        page.wait_for_timeout(2500)
        page.screenshot(path=str(out / "calibration.png"))
        page.close()
    finally:
        proc.terminate()
        proc.wait(10)


def bidding_shots(browser, out: Path) -> None:
    from tests.referee.worm_up.tables import start_table, table

    players = ("red", "yellow", "green")
    db = Path(tempfile.mkdtemp(prefix="tabletop-shots-")) / "bids.db"
    proc, url = start(["serve", "--port", "0", "--db", str(db), "--game", "worm-up",
                       "--players", ",".join(players)])
    try:
        post(url + "/api/events", {"type": "scene", **table(start_table(players)).to_json()})
        tv = browser.new_page(viewport=TV)
        code = None
        tv.goto(url + "/")
        code = tv.get_attribute('meta[name="join-code"]', "content")
        phones = {}
        for p in players:
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                      is_mobile=True, has_touch=True)
            page = ctx.new_page()
            page.goto(url + "/play")
            page.fill("#join-code-input", code or "")
            page.click(f"#colour-pick button[data-player='{p}']")
            if p == "red":
                page.screenshot(path=str(out / "phone-join.png"))
            page.click("#join-button")
            page.wait_for_selector("#bid-card:not([hidden])")
            phones[p] = page
        phones["red"].click("#bid-buttons button[data-bid='5']")
        phones["yellow"].click("#bid-buttons button[data-bid='X']")
        phones["red"].wait_for_timeout(600)
        phones["red"].screenshot(path=str(out / "phone-bid.png"))
        tv.wait_for_timeout(600)
        tv.screenshot(path=str(out / "bidding-dashboard.png"))
        phones["green"].click("#bid-buttons button[data-bid='5']")
        phones["yellow"].wait_for_selector("#reveal-box:not([hidden])")
        phones["yellow"].wait_for_timeout(400)
        phones["yellow"].screenshot(path=str(out / "phone-reveal.png"))
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", default=str(ROOT / "sample_images" / "worm_derby"))
    ap.add_argument("--out", default=str(ROOT / "docs"))
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        demo_shots(browser, Path(args.sample), out)
        bidding_shots(browser, out)
        browser.close()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

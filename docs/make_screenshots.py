"""Takes the screenshots in docs/ with headless Chromium (run by hand; see docs/README.md).

It runs the real ``tabletop demo`` on the sample playthrough, waits until it has been judged, and
photographs the dashboard, the gap check, a foul and its undo, the table view (1366x768), the
history and replay, and the calibration page (with points clicked); then it starts
``tabletop serve`` with a Worm Up! game and photographs three phones bidding, and a Jungle game.

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
LAPTOP = {"width": 1366, "height": 768}
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


def click_mm(page, x_mm: float, y_mm: float) -> None:
    """Clicks the dashboard's diagram at a point of the table (mm)."""
    xy = page.evaluate("""([x, y]) => {
        const svg = document.getElementById('diagram');
        const g = svg.querySelector('g.turned') || svg;
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(g.getScreenCTM());
        return [q.x, q.y]; }""", [x_mm, y_mm])
    page.mouse.click(xy[0], xy[1])


def click_points(page, url: str) -> None:
    """Clicks six points on the calibration page's picture and types where they are."""
    import numpy as np

    from calibration.model import Calibration

    info = get(url + "/calibration/info")["calibration"]
    if not info:
        return
    w, h = info["image_size"]
    cal = Calibration((w, h), np.array(info["homography"]), None)
    page.wait_for_function("document.getElementById('click-picture').naturalWidth > 0")
    page.locator("#click-picture").scroll_into_view_if_needed()
    for u, v in ((.15, .2), (.5, .15), (.85, .2), (.85, .8), (.5, .85), (.15, .8)):
        x, y = cal.to_table(np.array([[u * w, v * h]]))[0]
        box = page.locator("#click-picture").bounding_box()
        page.mouse.click(box["x"] + u * box["width"], box["y"] + v * box["height"])
        inputs = page.locator("#points-body tr").last.locator("input")
        inputs.nth(0).fill(f"{x:.0f}")
        inputs.nth(1).fill(f"{y:.0f}")
    page.wait_for_selector("#points-use:not([disabled])")
    page.wait_for_timeout(500)


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
        page.click("#gap-tool")
        if pairs:  # straight through the narrowest gap between two obstacles
            a, b = min(pairs, key=lambda ab: math.dist((ab[0]["x"], ab[0]["y"]),
                                                       (ab[1]["x"], ab[1]["y"])))
            mx, my = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
            dx, dy = b["x"] - a["x"], b["y"] - a["y"]
            n = math.hypot(dx, dy)
            px, py = -dy / n * 45, dx / n * 45
            click_mm(page, mx - px, my - py)
            click_mm(page, mx + px, my + py)
            page.wait_for_selector("#fit-result:not([hidden])")
            print("gap check:", page.inner_text("#fit-result").replace("\n", " / "))
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / "gap-check.png"))
        page.click("#gap-tool")
        # a foul: the suns worm's head pushed 60 mm on, out of turn
        foul = json.loads(json.dumps(scene))
        coins = [p for p in foul["pieces"] if p["kind"] == "coin" and p.get("suit") == "suns"]
        head = max(coins, key=lambda p: p["x"])
        head["x"] += 60.0
        post(url + "/api/events", {"type": "scene", "pieces": foul["pieces"]})
        page.wait_for_selector("#verdict.illegal")
        page.wait_for_timeout(800)
        page.screenshot(path=str(out / "foul.png"))
        page.click("#undo")
        page.wait_for_selector("#verdicts li.undone")
        page.wait_for_timeout(600)
        page.screenshot(path=str(out / "undo.png"), full_page=True)
        laptop = browser.new_page(viewport=LAPTOP)
        laptop.goto(url + "/?view=table")
        laptop.wait_for_function("document.getElementById('picture').naturalWidth > 0")
        laptop.wait_for_timeout(800)
        laptop.screenshot(path=str(out / "table-view.png"))
        laptop.close()
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
        click_points(page, url)
        page.screenshot(path=str(out / "calibration-click.png"), full_page=True)
        page.close()
    finally:
        proc.terminate()
        proc.wait(10)


def bidding_shots(browser, out: Path) -> None:
    # the bundled Worm Up! demo round's players and starting table
    events = [json.loads(line)["event"] for line in
              (ROOT / "sample_images" / "demo" / "worm_up_round.jsonl").read_text().splitlines()
              if line.strip()]
    players = tuple(next(e for e in events if e["type"] == "setup")["players"])
    start_scene = next(e for e in events if e["type"] == "scene")
    db = Path(tempfile.mkdtemp(prefix="tabletop-shots-")) / "bids.db"
    proc, url = start(["serve", "--port", "0", "--db", str(db), "--game", "worm-up",
                       "--players", ",".join(players)])
    try:
        post(url + "/api/events", start_scene)
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
        phones["blue"].click("#bid-buttons button[data-bid='5']")
        phones["yellow"].wait_for_selector("#reveal-box:not([hidden])")
        phones["yellow"].wait_for_timeout(400)
        phones["yellow"].screenshot(path=str(out / "phone-reveal.png"))
    finally:
        proc.terminate()
        proc.wait(10)


def jungle_shots(browser, out: Path) -> None:
    """A Jungle game on the table's screen: the board from the first player's seat, square
    names, an animal picked and where it may go."""
    db = Path(tempfile.mkdtemp(prefix="tabletop-shots-")) / "jungle.db"
    proc, url = start(["serve", "--port", "0", "--db", str(db), "--game", "jungle"])
    try:
        lines = (ROOT / "sample_images" / "demo" / "jungle_game.jsonl").read_text().splitlines()
        for line in lines[:12]:
            post(url + "/api/events", json.loads(line)["event"])
        page = browser.new_page(viewport=TV)
        page.goto(url + "/")
        page.wait_for_selector("#diagram .animal")
        state = get(url + "/api/state")
        mine = next(sq for sq, a in state["squares"].items() if a["player"] == state["turn"]
                    and any(m.startswith(sq) for m in state["legal_moves"]))
        page.click(f"#diagram circle.animal[data-square='{mine}']")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / "jungle.png"))
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", default=str(ROOT / "sample_images" / "worm_derby"))
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--only-jungle", action="store_true", help="only the Jungle picture")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        if not args.only_jungle:
            demo_shots(browser, Path(args.sample), out)
            bidding_shots(browser, out)
        jungle_shots(browser, out)
        browser.close()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The pages in headless Chromium: the dashboard live, a die roll, the gap tool, phone bids."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from tabletop.events import Setup
from tests.factories import coin, scene, tile
from tests.referee.worm_up.tables import start_table, table
from tests.web.fakes import ListSource, fake_vision, frame_of
from tests.web.servers import ThreadServer, start_process, stop_process

pytestmark = pytest.mark.browser

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCENES = [scene(tile(100, 100, face="up", suit="suns"), coin(40, 40)),
          scene(tile(100, 100, face="up", suit="suns"), coin(40, 60), coin(150, 40, "moons")),
          scene(tile(100, 100, face="up", suit="suns"), coin(40, 60), coin(150, 40, "moons"),
                coin(200, 200))]


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


@pytest.fixture
def live(make_app):
    """A dashboard fed by a short fake playthrough (setup, three stable tables)."""
    items = [Setup("web-toy", ("suns", "moons"))]
    for i in range(3):
        items += [frame_of(i, (320, 240))] * 4
    app = make_app(SOURCE=ListSource(items, period_s=0.01), VISION=fake_vision(SCENES, still=3))
    server = ThreadServer(app)
    yield server
    server.close()


def _record(server):
    return [json.loads(x) for x in server.app.extensions["tabletop"].table.record().splitlines()]


def test_the_dashboard_shows_the_picture_the_diagram_and_verdicts(browser, live):
    page = browser.new_page()
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#verdicts li.illegal').length >= 1")
    page.wait_for_function("document.getElementById('picture').naturalWidth > 0")
    assert page.locator("#diagram circle.coin").count() >= 3
    assert page.locator("#diagram .offender").count() >= 1  # the extra coin, ringed
    assert "Not legal" in page.inner_text("#verdict-word")
    assert "appeared" in page.inner_text("#verdict-reason")
    assert page.locator("#verdicts li").count() == 3
    page.close()


def test_a_die_roll_clicked_on_the_page_is_logged(browser, live):
    page = browser.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#roll-players button[data-player='moons']")
    page.click("#roll-players button[data-player='moons']")
    page.click("#roll-buttons button[data-value='ace']")
    page.wait_for_function("document.getElementById('message').textContent.includes('rolled')")
    rolls = [e for e in _record(live) if e["type"] == "roll"]
    assert rolls and rolls[-1]["player"] == "moons" and rolls[-1]["value"] == "ace"
    page.close()


def test_the_gap_tool_answers(browser, live):
    page = browser.new_page()
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#verdicts li.illegal').length >= 2")
    page.click("#gap-tool")
    box = page.locator("#diagram").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.5)
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.5)
    page.wait_for_selector("#fit-result:not([hidden])")
    text = page.inner_text("#fit-result")
    assert "fit" in text and "clearance" in text and "mm" in text
    assert page.locator("#diagram .fit-path").count() == 1
    page.close()


def test_three_phones_bid_and_none_sees_another_bid_before_the_reveal(browser, make_app):
    app = make_app()
    server = ThreadServer(app)
    try:
        client = app.test_client()
        client.post("/api/events", json={"type": "setup", "game": "worm-up",
                                         "players": ["red", "yellow", "green"]})
        start = table(start_table(("red", "yellow", "green")))
        client.post("/api/events", json={"type": "scene", **start.to_json()})
        bids = {"red": "4", "yellow": "6", "green": "X"}
        seen: dict[str, list] = {p: [] for p in bids}
        pages = {}
        for player in bids:
            ctx = browser.new_context()
            page = ctx.new_page()

            def keep(resp, player=player):
                if resp.headers.get("content-type", "").startswith("application/json"):
                    with contextlib.suppress(Exception):
                        seen[player].append(resp.json())

            page.on("response", keep)
            page.goto(server.url + "/play")
            page.fill("#join-code-input", "abcd")
            page.click(f"#colour-pick button[data-player='{player}']")
            page.click("#join-button")
            page.wait_for_selector("#bid-card:not([hidden])")
            pages[player] = page
        for player in ("red", "yellow"):
            pages[player].click(f"#bid-buttons button[data-bid='{bids[player]}']")
            pages[player].wait_for_function(
                f"document.getElementById('yours').textContent.includes('{bids[player]}')")
        pages["green"].wait_for_function(
            "document.getElementById('others').textContent.includes('yellow')")
        for player, page in pages.items():  # before the reveal
            assert page.locator("#reveal-box").is_hidden()
            for body in seen[player]:
                text = json.dumps(body)
                for other, _value in bids.items():
                    if other != player and isinstance(body, dict):
                        assert (body.get("bids") or {}).get(other) is None, text
                        assert body.get("you") in (None, player), text
            assert "Your bid" not in page.inner_text("#yours") or player != "green"
        pages["green"].click("#bid-buttons button[data-bid='X']")
        for page in pages.values():
            page.wait_for_selector("#reveal-box:not([hidden])")
            text = page.inner_text("#reveal-text")
            assert "red 4" in text and "yellow 6" in text and "green X" in text
        assert [(e["player"], e["bid"]) for e in _record(server) if e["type"] == "bid"] == \
            [("red", "4"), ("yellow", "6"), ("green", "X")]
        for page in pages.values():
            page.context.close()
    finally:
        server.close()


SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"


@pytest.mark.slow
def test_tabletop_demo_shows_the_picture_the_diagram_and_a_verdict(browser, tmp_path):
    if not (SAMPLE / "script.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")
    proc, url = start_process(["demo", "--port", "0", "--pace", "0", "--db",
                               str(tmp_path / "demo.db")])
    try:
        assert url.startswith("http://127.0.0.1:")
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_function("document.getElementById('picture').naturalWidth > 0",
                               timeout=60_000)
        page.wait_for_function("document.querySelectorAll('#verdicts li.legal, "
                               "#verdicts li.illegal').length >= 1", timeout=60_000)
        assert page.locator("#diagram .pieces > *").count() >= 5
        assert page.inner_text("#verdict-word").strip()
        assert page.inner_text("#game-title").startswith("worm-derby")
        page.close()
    finally:
        stop_process(proc)


def test_a_lost_camera_is_said_on_the_page(browser, make_app):
    from tests.web.fakes import EndlessSource

    class Unplugged(EndlessSource):
        def items(self):
            from web.sources import SourceLost

            raise SourceLost("camera 0 stopped sending frames")

    app = make_app(SOURCE=Unplugged([frame_of(0)]), VISION=fake_vision(SCENES))
    server = ThreadServer(app)
    try:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('status-state').textContent === 'lost'")
        note = page.inner_text("#picture-note")
        assert "camera 0 stopped sending frames" in note and "trying again" in note
        page.close()
    finally:
        server.close()


def test_a_misread_piece_is_fixed_from_the_diagram(browser, live):
    page = browser.new_page()
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#verdicts li.illegal').length >= 2")
    page.click("#fix-tool")
    page.click("#diagram .pieces [data-index='3']")
    assert "coin" in page.inner_text("#fix-what") and "(200, 200)" in page.inner_text("#fix-what")
    page.click("#fix-remove")
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('Correction logged')")
    fixes = [e for e in _record(live) if e["type"] == "correction"]
    assert fixes == [{"type": "correction", "op": "remove", "index": 3, "t": fixes[0]["t"]}]
    page.close()

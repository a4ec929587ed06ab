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


def _post(client, **event):
    r = client.post("/api/events", json=event)
    assert r.status_code == 201, r.json
    return r.json


def _click_mm(page, x_mm: float, y_mm: float) -> None:
    """Clicks the diagram at a point of the table (mm)."""
    xy = page.evaluate("""([x, y]) => {
        const svg = document.getElementById('diagram');
        const g = svg.querySelector('g.turned') || svg;
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(g.getScreenCTM());
        return [q.x, q.y]; }""", [x_mm, y_mm])
    page.mouse.click(xy[0], xy[1])


@pytest.fixture
def gap_table(make_app):
    """A table with two tiles 15.3 mm apart and a coin below the gap (room to go round)."""
    app = make_app()
    server = ThreadServer(app)
    client = app.test_client()
    _post(client, type="setup", game="web-toy", players=["suns", "moons"])
    gap = 15.3
    _post(client, type="scene", **scene(tile(0, 0), tile(50.8 + gap, 0),
                                         coin((50.8 + gap) / 2, -45)).to_json())
    yield server, (50.8 + gap) / 2
    server.close()


def test_a_click_across_a_gap_narrower_than_a_coin_says_it_does_not_fit(browser, gap_table):
    server, mid_x = gap_table
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#diagram .pieces [data-index='2']")
    page.click("#gap-tool")
    _click_mm(page, mid_x, -45)
    _click_mm(page, mid_x + 2, 40)
    page.wait_for_selector("#fit-result:not([hidden])")
    assert page.inner_text("#fit-line1") == "Does not fit here: 15.3 mm, the coin needs 19.05 mm."
    assert page.inner_text("#fit-line2").startswith("A way round exists")
    assert page.locator("#diagram .gap-edge").count() == 2  # the two edges of the gap
    assert page.locator("#diagram .pinch").count() == 1
    page.click("#gap-tool")  # closing the tool takes the answer away
    assert page.locator("#fit-result").is_hidden()
    assert page.locator("#diagram .gap-edge").count() == 0
    page.close()


def test_undo_strikes_the_verdict_through_and_the_banner_agrees_with_the_game_card(
        browser, make_app):
    app = make_app()
    server = ThreadServer(app)
    try:
        client = app.test_client()
        _post(client, type="setup", game="web-toy", players=["suns", "moons"])
        for s in SCENES:  # legal, legal, then an extra coin: illegal
            _post(client, type="scene", **s.to_json())
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#verdicts li.illegal")
        assert "Not legal" in page.inner_text("#verdict-word")
        assert "What now?" in page.inner_text("#verdict-advice")  # put back, undo or accept
        named = client.get("/api/state").json["verdicts"][0]["pieces"]
        assert page.locator("#diagram .offender").count() == len(named)  # no more than named
        assert page.inner_text("#undo").startswith("Undo: ")  # says what it takes back
        for n in (1, 2):
            page.click("#undo")
            page.wait_for_function(f"document.querySelectorAll('#verdicts li.undone').length "
                                   f"=== {n}")
        assert page.locator("#verdicts li.undone del").count() == 2
        state = client.get("/api/state").json
        assert [v["undone"] for v in state["verdicts"]] == [True, True, False]
        turn = state["turn"]
        assert f"to play: {turn}" in page.inner_text("#game-extra")
        assert page.inner_text("#verdict-word").startswith(f"{turn} to ")
        assert page.inner_text("#verdict-reason").startswith("Undone: ")
        assert page.locator("#diagram .offender").count() == 0
        page.close()
    finally:
        server.close()


def test_the_table_view_is_readable_from_3_m_and_a_key_enters_a_roll(browser, gap_table):
    server, _ = gap_table
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + "/?view=table")
    page.wait_for_function("document.getElementById('turn-now').textContent.includes('to play')")
    for sel in ("#verdict-word", "#turn-now", "#diagram", "#accept", "#undo", "#roll-buttons"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 768, sel
    page.keyboard.press("3")
    page.wait_for_function("document.getElementById('turn-roll').textContent === 'roll 3' || "
                           "document.getElementById('message').textContent.includes('rolled 3')")
    for sel in ("#verdict-word", "#turn-now", "#turn-roll"):
        size = page.eval_on_selector(sel, "e => parseFloat(getComputedStyle(e).fontSize)")
        box = page.locator(sel).bounding_box()
        assert size >= 48 and box["height"] >= 48, (sel, size, box)
        assert box["y"] + box["height"] <= 768, sel
    rolls = [e for e in _record(server) if e["type"] == "roll"]
    assert rolls and rolls[-1]["value"] == "3"
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
            from live.sources import SourceLost

            raise SourceLost("camera 0 stopped sending frames")

    app = make_app(SOURCE=Unplugged([frame_of(0)]), VISION=fake_vision(SCENES))
    server = ThreadServer(app)
    try:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('status-state').textContent === 'lost'")
        note = page.inner_text("#picture-note")
        assert "camera 0 stopped sending frames" in note and "trying again" in note
        page.wait_for_selector("#source-banner:not([hidden])")
        banner = page.inner_text("#source-banner")
        assert "camera is gone" in banner and "paused" in banner
        assert "camera 0 stopped sending frames" in banner
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


def test_a_click_made_calibration_reproduces_the_sample_within_1_mm(browser, make_app):
    import numpy as np

    from calibration.model import Calibration
    from live.pipeline import encode_jpeg
    from vision.io import read_image

    if not (SAMPLE / "calibration.json").is_file():
        pytest.skip("the sample playthrough is not there")
    truth = Calibration.load(SAMPLE / "calibration.json")
    frame = read_image(str(SAMPLE / "frames" / "000.jpg"))
    app = make_app()
    app.extensions["tabletop"].hub.put(frame, encode_jpeg(frame))
    server = ThreadServer(app)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url + "/calibration")
        page.wait_for_function("document.getElementById('click-picture').naturalWidth > 0 && "
                               "!document.getElementById('facts').textContent.includes('loading')")
        page.locator("#click-picture").scroll_into_view_if_needed()
        page.wait_for_timeout(200)  # the page above has settled (no layout shift under a click)
        w, h = truth.image_size
        pixels = [(u * w, v * h) for u, v in ((.12, .15), (.5, .12), (.88, .15), (.9, .5),
                                              (.88, .85), (.5, .88), (.12, .85), (.1, .5))]
        worlds = truth.to_table(np.array(pixels))
        for (u, v), (x, y) in zip(pixels, worlds, strict=True):
            box = page.locator("#click-picture").bounding_box()
            page.mouse.click(box["x"] + (u + 0.5) * box["width"] / w,
                             box["y"] + (v + 0.5) * box["height"] / h)
            inputs = page.locator("#points-body tr").last.locator("input")
            inputs.nth(0).fill(f"{x:.1f}")
            inputs.nth(1).fill(f"{y:.1f}")
        page.wait_for_selector("#points-use:not([disabled])")
        assert page.locator("#click-overlay polyline").count() > 4  # the grid, drawn at once
        page.click("#points-use")
        page.wait_for_function(
            "document.getElementById('click-message').textContent.startsWith('In use')")
        made = app.extensions["tabletop"].calibration
        # over the play area (the middle of the picture, where the pieces are)
        us, vs = np.meshgrid(np.linspace(.15 * w, .85 * w, 15), np.linspace(.15 * h, .85 * h, 9))
        px = np.column_stack([us.ravel(), vs.ravel()])
        err = np.linalg.norm(made.to_table(px) - truth.to_table(px), axis=1)
        assert err.max() < 1.0, err.max()
        page.close()
    finally:
        server.close()


def test_a_mat_not_found_says_what_was_seen_and_what_to_do(browser, make_app):
    import numpy as np

    from live.pipeline import encode_jpeg

    app = make_app()
    blank = np.full((480, 640, 3), 120, np.uint8)
    app.extensions["tabletop"].hub.put(blank, encode_jpeg(blank))
    server = ThreadServer(app)
    try:
        page = browser.new_page()
        page.goto(server.url + "/calibration")
        page.click("#recalibrate")
        page.wait_for_selector("#mat-todo:not([hidden])")
        assert "marker" in page.inner_text("#message")  # what was seen
        assert "flat" in page.inner_text("#mat-todo")  # what to do
        page.close()
    finally:
        server.close()


def test_a_jungle_move_is_entered_by_clicking_a_piece_and_a_square(browser, make_app):
    jungle = Path(__file__).resolve().parents[2] / "sample_images" / "demo" / "jungle_game.jsonl"
    if not jungle.is_file():
        pytest.skip("the demo's Jungle game is not there")
    app = make_app(GAME="jungle")
    server = ThreadServer(app)
    try:
        client = app.test_client()
        for line in jungle.read_text().splitlines()[:2]:  # the setup and the board
            _post(client, **json.loads(line)["event"])
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#diagram circle.animal[data-square='g3']")
        assert page.locator("#diagram .sq-label").count() == 63
        page.click("#diagram circle.animal[data-square='g3']")  # red's rat
        page.click("#diagram rect.sq.target[data-square='g4']")
        page.wait_for_function("document.getElementById('message').textContent.includes('g3g4')")
        moves = [e for e in _record(server) if e["type"] == "move"]
        assert [(m["from"], m["to"]) for m in moves] == [("g3", "g4")]
        page.close()
    finally:
        server.close()


def test_people_play_the_sides_they_name_at_setup(browser, make_app):
    app = make_app()
    server = ThreadServer(app)
    try:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.click("#new-game summary")
        page.select_option("#setup-game", "web-toy")
        page.fill("#setup-players", "Alice plays suns, Bob: moons")
        page.click("#setup-form button[type=submit]")
        page.wait_for_function("document.getElementById('players').textContent.includes('Bob')")
        assert "Alice (suns)" in page.inner_text("#players")
        assert page.inner_text("#turn-now") == "Alice (suns) to play"
        setup = _record(server)[0]
        assert setup["players"] == ["suns", "moons"]  # the record keeps the sides
        page.close()
    finally:
        server.close()


def test_the_ppn_of_the_sample_game_from_the_history_page_is_yaml_with_every_move(
        browser, make_app):
    import re

    from referee.export import walk
    from tabletop.events import read_record

    yaml = pytest.importorskip("yaml")
    if not (SAMPLE / "record.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")
    events = read_record(SAMPLE / "record.jsonl")
    app = make_app()
    client = app.test_client()
    for e in events:
        if e.is_input:
            _post(client, **e.to_json())
    server = ThreadServer(app)
    try:
        page = browser.new_page()
        page.goto(server.url + "/history")
        href = page.get_attribute("a:text('PPN')", "href")
        text = page.request.get(server.url + href).text()
        head, _, movetext = text.partition("\n...\n")
        meta = yaml.safe_load(head.removeprefix("---\n"))
        assert meta["GameType"]["Name"] == "Worm Derby" and meta["SetUp"] == "None"
        moves = re.findall(r"^(\w+)\. ", movetext, flags=re.M)
        legal = [e for e in walk(events) if e.move and e.legal]
        assert moves[0] == "Setup" and len(moves) == 1 + len(legal) > 1
        page.close()
    finally:
        server.close()

"""The pages and their helpers: dashboard, MJPEG, history with pictures, calibration, phones."""

from __future__ import annotations

import time

import numpy as np
import pytest

from calibration.mat import make_mat
from calibration.model import Calibration
from calibration.synthetic import PinholeCamera, render_sheet
from tabletop.events import Setup
from tests.factories import coin, scene
from tests.web.conftest import start_game
from tests.web.fakes import ListSource, fake_vision, frame_of

SCENES = [scene(coin(0, 0)), scene(coin(30, 0)), scene(coin(30, 0), coin(90, 0))]


def _wait(pred, timeout_s=20.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end and not pred():
        time.sleep(0.02)
    return pred()


@pytest.mark.parametrize("url", ["/", "/history", "/calibration", "/play"])
def test_every_page_renders_with_its_navigation(client, url):
    r = client.get(url)
    assert r.status_code == 200 and r.mimetype == "text/html"
    html = r.data.decode()
    for link in ('href="/"', 'href="/history"', 'href="/calibration"', 'href="/play"'):
        assert link in html


def test_the_dashboard_shows_the_join_code_and_the_rule_sets(client):
    html = client.get("/").data.decode()
    assert "ABCD" in html
    assert 'value="worm-derby"' in html and 'value="worm-up"' in html


def test_the_phone_page_never_shows_the_code(client):
    assert "ABCD" not in client.get("/play").data.decode()


@pytest.fixture
def fed(make_app):
    """An app whose fake pipeline has played a short game."""
    items = [Setup("web-toy", ("suns", "moons"))]
    for i in range(3):
        items += [frame_of(i, (160, 120))] * 4
    app = make_app(SOURCE=ListSource(items), VISION=fake_vision(SCENES),
                   CALIBRATION=Calibration((160, 120), np.eye(3)))  # 1 px = 1 mm
    services = app.extensions["tabletop"]
    assert _wait(lambda: services.pipeline.status()["state"] == "ended")
    services.pipeline.join(5)
    return app


def test_the_live_picture_as_jpeg_and_mjpeg(fed, client):
    c = fed.test_client()
    r = c.get("/frame.jpg")
    assert r.status_code == 200 and r.data[:2] == b"\xff\xd8"
    assert client.get("/frame.jpg").status_code == 404  # an app without a source
    r = c.get("/video.mjpeg", buffered=False)
    assert r.mimetype == "multipart/x-mixed-replace"
    first = next(iter(r.response))
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg")
    assert b"\xff\xd8" in first
    r.close()


def test_the_history_steps_through_a_game_with_its_pictures(fed):
    c = fed.test_client()
    games = c.get("/api/games").json
    gid = games[0]["id"]
    html = c.get("/history").data.decode()
    assert f'href="/history/{gid}"' in html
    assert c.get(f"/history/{gid}").status_code == 200
    steps = c.get(f"/history/{gid}/steps.json").json
    assert steps[0]["text"] == "new game of web-toy: suns, moons"
    judged = [s for s in steps if any(o["type"] == "verdict" for o in s["outputs"])]
    assert len(judged) == 3
    assert all(s["picture"] for s in judged)
    assert [s["describe"]["turn"] for s in judged] == ["moons", "suns", "suns"]
    last = judged[-1]
    assert "illegal (extra)" in last["outputs"][0]["text"]
    assert last["outputs"][0]["pieces_px"] == [[90.0, 0.0, 15.0]]  # the extra coin, ringed
    assert len(last["table"]["pieces"]) == 1 and len(last["seen"]["pieces"]) == 2
    r = c.get(f"/history/{gid}/frame/{last['seq']}.jpg")
    assert r.status_code == 200 and r.data[:2] == b"\xff\xd8"
    assert c.get(f"/history/{gid}/frame/0.jpg").status_code == 404
    assert c.get("/history/99").status_code == 404
    assert c.get("/history/99/steps.json").json["error"]


def test_the_state_tells_the_source_status(fed):
    s = fed.test_client().get("/api/state").json
    assert s["source"]["state"] == "ended" and s["source"]["frames_processed"] == 12


@pytest.fixture(scope="module")
def mat_view():
    """A synthetic photo of the printed A4 mat, and the exact calibration of that camera."""
    sheet = make_mat("a4", dpi=100)
    w, h = sheet.size_mm
    cam = PinholeCamera.look_at((w / 2, h / 2 + 150, -700), (w / 2, h / 2, 0), (640, 480), 55)
    image = render_sheet(cam, sheet.image_bgr, sheet.dpi, seed=1)
    return image, Calibration((640, 480), cam.image_to_table())


def test_the_calibration_page_recalibrates_draws_the_grid_and_the_error_map(make_app, mat_view):
    image, exact = mat_view
    app = make_app(SOURCE=ListSource([image] * 2), VISION=fake_vision(SCENES),
                   CALIBRATION=exact)
    services = app.extensions["tabletop"]
    assert _wait(lambda: services.hub.raw is not None)
    c = app.test_client()
    info = c.get("/calibration/info").json
    assert info["calibration"]["image_size"] == [640, 480]
    assert info["drift"]["status"] == "unknown"  # not made from markers: nothing to watch
    assert "markers" in info["drift"]["message"]
    r = c.get("/calibration/grid.jpg")
    assert r.status_code == 200 and r.data[:2] == b"\xff\xd8"
    assert c.get("/calibration/heatmap.png").status_code == 404  # no fit kept in this one
    r = c.post("/calibration/recalibrate", json={})
    assert r.status_code == 200, r.json
    assert r.json["reprojection_mm"] < 1.0
    assert c.get("/calibration/info").json["drift"]["moved"] is False
    r = c.get("/calibration/heatmap.png")
    assert r.status_code == 200 and r.data[:4] == b"\x89PNG"
    assert float(r.headers["X-Error-Max-Mm"]) > 0
    moved = np.roll(image, 12, axis=1)  # the camera is knocked: the mat slides 12 px
    services.hub.put(moved, b"")
    drift = c.get("/calibration/info").json["drift"]
    assert drift["moved"] is True and "calibrate again" in drift["message"]
    services.drift_checked = 0.0
    assert c.get("/api/state").json["drift"]["moved"] is True


def test_recalibrating_without_a_mat_is_a_clear_400(make_app):
    app = make_app(SOURCE=ListSource([frame_of(0, (320, 240))] * 2), VISION=fake_vision(SCENES),
                   CALIBRATION=Calibration((320, 240), np.eye(3)))
    assert _wait(lambda: app.extensions["tabletop"].hub.raw is not None)
    r = app.test_client().post("/calibration/recalibrate", json={})
    assert r.status_code == 400 and r.json["error"]


def test_the_calibration_page_without_a_calibration(client):
    assert client.get("/calibration/info").json == {"calibration": None, "drift": None}
    assert client.get("/calibration/grid.jpg").status_code == 404
    r = client.post("/calibration/recalibrate", json={})
    assert r.status_code == 400 and "no camera picture" in r.json["error"]


def test_a_new_game_is_shown_on_the_history(client):
    start_game(client)
    start_game(client, players=("arms", "crowns"))
    html = client.get("/history").data.decode()
    assert html.count('href="/history/1"') == 1 and html.count('href="/history/2"') == 1


def test_each_game_is_offered_as_moves_and_diagrams_from_the_history(client):
    start_game(client)
    html = client.get("/history").data.decode()
    for fmt in ("moves", "svg", "png"):
        assert f"/history/export?game=1&amp;format={fmt}" in html
        r = client.get(f"/history/export?game=1&format={fmt}")
        assert r.status_code == 200, r.data
    assert client.get("/history/export?game=1&format=moves").data.startswith(b"# ")
    assert client.get("/history/export?game=9&format=moves").status_code == 404
    assert client.get("/history/export?game=1&format=doc").status_code == 400


def test_the_play_area_leaves_out_the_mat(mat_view):
    from calibration.mat import mat_layout
    from live.vision_glue import play_area_without_mat

    image, exact = mat_view
    x0, y0, x1, y1 = play_area_without_mat(exact, image)
    assert x1 > x0 and y1 > y0
    for corners in mat_layout("a4").values():
        for x, y in corners:  # no marker corner of the mat inside the play area
            assert not (x0 <= x <= x1 and y0 <= y <= y1)
    blank = np.full_like(image, 120)
    assert play_area_without_mat(exact, blank) is None


def test_the_demo_menu_plays_a_worm_up_bidding_round_and_a_jungle_game(make_app):
    from pathlib import Path

    from tests.web.fakes import ListSource, fake_vision

    sample = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"
    app = make_app(SOURCE=ListSource([]), VISION=fake_vision([]), DEMO_SAMPLE=str(sample),
                   DEMO_EVENT_PAUSE=0.0)
    client = app.test_client()
    assert set(client.get("/demo").json["demos"]) == {"worm-derby", "worm-up", "jungle"}
    for name, game in (("worm-up", "worm-up"), ("jungle", "jungle")):
        assert client.post("/demo/play", json={"name": name}).status_code == 200
        app.extensions["tabletop"].pipeline.join(10)
        state = client.get("/api/state").json
        assert state["game"] == game and state["verdicts"], state
    record = client.get("/api/record").data.decode()
    assert '"type": "move"' in record or '"move"' in record
    assert client.post("/demo/play", json={"name": "chess"}).status_code == 400


def test_there_is_no_demo_menu_outside_the_demo(client):
    assert client.get("/demo").json == {"demos": {}}
    assert client.post("/demo/play", json={"name": "worm-up"}).status_code == 400


def test_the_jungle_variants_are_listed_where_a_game_is_set_up(client):
    from referee.jungle.rules import variant_names

    html = client.get("/").data.decode()
    for name in variant_names():
        assert f'name="jungle:variants" value="{name}"' in html


def test_every_registered_game_is_in_the_setup_menu_with_its_options(client):
    from referee.registry import specs

    html = client.get("/").data.decode()
    for spec in specs():
        assert f'<option value="{spec.name}"' in html
        for option in spec.options:
            assert f'name="{spec.name}:{option.name}"' in html


def test_the_api_lists_the_rule_sets_from_the_registry(client):
    from referee.registry import specs

    body = client.get("/api/rulesets").json
    assert [g["name"] for g in body] == [s.name for s in specs()]
    derby = next(g for g in body if g["name"] == "worm-derby")
    assert derby["players"] == ["suns", "moons"] and derby["inputs"] == ["roll"]
    jungle = next(g for g in body if g["name"] == "jungle")
    assert jungle["diagram"]["drawer"] == "jungle-board" and jungle["events"] == ["move"]


def test_an_undone_verdict_is_marked_in_the_state_and_undo_says_what_is_next(client):
    from tests.factories import coin, scene, tile

    start_game(client)
    for s in (scene(tile(100, 100), coin(40, 40)), scene(tile(100, 100), coin(40, 40),
                                                         coin(90, 40, "moons"))):
        assert client.post("/api/events", json={"type": "scene", **s.to_json()}).status_code == 201
    state = client.get("/api/state").json
    assert [v["undone"] for v in state["verdicts"]] == [False, False]
    last = state["verdicts"][0]["seq"]
    assert state["undo_next"] == last
    client.post("/api/events", json={"type": "undo"})
    state = client.get("/api/state").json
    assert (state["verdicts"][0]["seq"], state["verdicts"][0]["undone"]) == (last, True)
    assert state["undone"][0]["undone_seq"] == last
    assert state["undo_next"] == state["verdicts"][1]["seq"]


def test_a_gap_answer_goes_with_the_next_verdict(client):
    from tests.factories import coin, scene, tile

    start_game(client)
    table = scene(tile(0, 0), tile(66.1, 0), coin(33.05, -45))
    client.post("/api/events", json={"type": "scene", **table.to_json()})
    fit = client.post("/api/fit", json={"from": [33.05, -45], "to": [35, 40]}).json
    assert fit["straight_fits"] is False and fit["straight_clearance_mm"] == 15.3
    assert fit["text"][0] == "Does not fit here: 15.3 mm, the coin needs 19.05 mm."
    assert client.get("/api/state").json["fit"] is not None
    client.post("/api/events", json={"type": "scene", **scene(tile(0, 0), tile(66.1, 0),
                                                              coin(33.05, -60)).to_json()})
    assert client.get("/api/state").json["fit"] is None

"""The pipeline hands vision the last accepted table on each still frame (an input like the
calibration), so pieces the reading lacks are looked for where they lay."""

from __future__ import annotations

from live.bus import Bus
from live.log import GameLog
from live.pipeline import Pipeline, run_sync
from live.table import Table
from tabletop.events import Setup
from tabletop.scene import Scene
from tests.factories import coin, scene
from tests.web.fakes import ListSource, fake_vision, frame_of

SCENES = [scene(coin(0, 0)), scene(coin(30, 0))]


def _spying(vision, calls):
    def confirm(frame, reading: Scene, known: Scene) -> Scene:
        calls.append((reading, known))
        return reading.with_piece(coin(200, 0))  # what confirmation added

    vision.confirm = confirm
    return vision


def test_a_fresh_game_reading_is_judged_as_read(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    table.submit(Setup("web-toy", ("suns", "moons")))
    calls: list = []
    vision = _spying(fake_vision(SCENES, still=2), calls)
    run_sync(ListSource([frame_of(0)] * 2), vision, table.submit)
    assert calls == []  # no accepted table yet: nothing to confirm against
    assert table.accepted == SCENES[0]


def test_a_still_reading_is_confirmed_against_the_last_accepted_table(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    table.submit(Setup("web-toy", ("suns", "moons")))
    calls: list = []
    vision = _spying(fake_vision(SCENES, still=2), calls)
    run_sync(ListSource([frame_of(0)] * 2 + [frame_of(1)] * 2), vision, table.submit)
    assert calls == [(SCENES[1], SCENES[0])]
    assert table.referee.last_scene == SCENES[1].with_piece(coin(200, 0))


def test_a_replay_takes_the_accepted_table_from_its_own_source(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    table.submit(Setup("web-toy", ("suns", "moons")))
    calls: list = []
    vision = _spying(fake_vision(SCENES, still=2), calls)

    def submit(event, jpeg=None):  # a wrapper, as tabletop replay's own
        return table.submit(event, jpeg)

    assert Pipeline(ListSource([]), vision, submit).known is None
    run_sync(ListSource([frame_of(0)] * 2 + [frame_of(1)] * 2), vision, submit,
             known=lambda: table.accepted)
    assert [known for _, known in calls] == [SCENES[0]]


def test_the_real_vision_confirms_a_tile_the_reading_missed():
    from live.vision_glue import load_vision
    from tests.vision.test_confirm import OTHER_TILES, SEEDS, TILE, WORM, _render

    table = Scene((TILE, *OTHER_TILES, *WORM))
    r = _render(table, SEEDS[0])
    vision = load_vision(r.calibration(), "worm-derby")
    reading = Scene((*OTHER_TILES, *WORM))
    confirmed = vision.confirm(r.image, reading, table)
    assert confirmed.pieces[:len(reading)] == reading.pieces
    (added,) = confirmed.pieces[len(reading):]
    assert (added.kind, added.centre_mm, added.face) == ("tile", TILE.centre_mm, "down")


def test_a_confirmation_that_fails_leaves_the_reading_to_be_judged_as_read(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    table.submit(Setup("web-toy", ("suns", "moons")))
    vision = fake_vision(SCENES, still=2)

    def confirm(frame, reading, known):
        raise ValueError("no such pixel")

    vision.confirm = confirm
    pipe = Pipeline(ListSource([]), vision, table.submit)
    for frame in [frame_of(0)] * 2 + [frame_of(1)] * 2:
        pipe.step(ListSource([frame]).items().__next__())
    assert table.referee.last_scene == SCENES[1]
    assert "no such pixel" in pipe.status()["error"]

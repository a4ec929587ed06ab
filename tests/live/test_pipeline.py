"""The pipeline runner and the frame sources, with fake vision and fake frames."""

from __future__ import annotations

import json
import time

import cv2
import numpy as np
import pytest

from live.bus import Bus
from live.log import GameLog
from live.pipeline import Pipeline, run_sync
from live.sources import (
    CameraSource,
    FolderSource,
    Frame,
    SourceError,
    SourceLost,
    TimelineEvent,
    TimelineSource,
    open_source,
)
from live.table import Table
from tabletop.events import Roll, Setup
from tests.factories import coin, scene
from tests.web.fakes import EndlessSource, FakeResult, ListSource, fake_vision, frame_of

SCENES = [scene(coin(0, 0)), scene(coin(30, 0)), scene(coin(30, 0), coin(90, 0))]


def _wait(pred, timeout_s=20.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False


def _table(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    table.submit(Setup("web-toy", ("suns", "moons")))
    return table


def test_stable_scenes_reach_the_referee_and_the_log(tmp_path):
    table = _table(tmp_path)
    frames = [frame_of(0)] * 4 + [frame_of(1)] * 4 + [frame_of(2)] * 4
    pipe = Pipeline(ListSource(frames), fake_vision(SCENES, still=3), table.submit, table.bus)
    pipe.start()
    pipe.join(20)
    assert not pipe.running
    rules = [v["rule"] for v in reversed(table.state()["verdicts"])]
    assert rules == ["ok", "ok", "extra"]
    st = pipe.status()
    assert st["state"] == "ended" and st["frames_processed"] == 12 and st["stable_scenes"] == 3
    assert st["frames_dropped"] == 0
    assert pipe.hub.jpeg is not None and pipe.hub.jpeg[:2] == b"\xff\xd8"
    assert len(table.log.snapshot_seqs(table.game_id)) == 3


def test_timeline_events_are_submitted_in_order_with_frames(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    items = [Setup("web-toy", ("suns", "moons")), *[frame_of(0)] * 3, Roll("suns", "4")]
    n = run_sync(ListSource(items), fake_vision(SCENES, still=3), table.submit)
    assert n == 5
    types = [e.type for e in table.log.events(table.game_id)]
    assert types == ["setup", "scene", "verdict", "roll", "verdict"]


def test_a_slow_worker_drops_live_frames_instead_of_queueing(tmp_path):
    table = _table(tmp_path)
    source = EndlessSource([frame_of(0)], fps=200)
    pipe = Pipeline(source, fake_vision(SCENES, delay_s=0.02), table.submit, table.bus)
    pipe.start()
    assert _wait(lambda: pipe.status()["frames_processed"] >= 15)
    pipe.stop()
    st = pipe.status()
    assert st["frames_dropped"] > 0
    assert st["frames_read"] - st["frames_dropped"] - st["frames_processed"] <= 1
    assert 0 < st["fps"] <= 60
    assert st["latency_ms"] is not None and st["latency_ms"] < 2000


def test_frames_passed_over_while_busy_count_as_still_frames_when_they_show_the_same_table(
        tmp_path):
    table = _table(tmp_path)
    seen: list[int] = []

    def recheck(image):  # the fake "same table" test: the scene number matches the last
        n = int(image[0, 0, 0])
        if not seen or seen[-1] != n:
            return None
        return FakeResult(SCENES[n % len(SCENES)])

    vision = fake_vision(SCENES, still=3)
    detect = vision.detect
    vision.detect = lambda image: (seen.append(int(image[0, 0, 0])), detect(image))[1]
    vision.recheck = recheck
    pipe = Pipeline(ListSource([frame_of(0)]), vision, table.submit, table.bus)
    pipe.catch_up([Frame(frame_of(0), 0, 0.0, "a")])  # nothing detected yet: passed over
    assert vision.stabiliser._count == 0
    pipe.step(Frame(frame_of(0), 1, 0.0, "b"))  # the first reading
    pipe.catch_up([Frame(frame_of(0), k, 0.0, "c") for k in (2, 3)])  # two more still frames
    assert [v["rule"] for v in table.state()["verdicts"]] == ["ok"]
    pipe.catch_up([Frame(frame_of(1), 4, 0.0, "d"), Frame(frame_of(0), 5, 0.0, "e")])
    assert len(table.state()["verdicts"]) == 1  # a changed frame ends the catch-up


def test_a_lost_camera_is_retried_and_the_game_goes_on(tmp_path):
    table = _table(tmp_path)
    bus = table.bus
    source = ListSource([frame_of(0)] * 5, live=True, fail_first=2, period_s=0.01)
    pipe = Pipeline(source, fake_vision(SCENES), table.submit, bus, retry_s=0.05)
    pipe.start()
    assert _wait(lambda: pipe.status()["state"] == "ended")
    pipe.stop()
    states = [m.data["state"] for m in bus.since(0) if m.kind == "status"]
    assert "lost" in states and states[-1] == "ended"
    lost = next(m.data for m in bus.since(0) if m.kind == "status" and m.data["state"] == "lost")
    assert "unplugged" in lost["message"] and "trying again" in lost["message"]
    assert table.state()["verdicts"][0]["rule"] == "ok"


def test_a_failing_detector_is_reported_not_fatal(tmp_path):
    table = _table(tmp_path)
    vision = fake_vision(SCENES)

    def broken(image):
        raise SourceError("the frame is 64x48 but the calibration was made for 640x480")

    vision.detect = broken
    pipe = Pipeline(ListSource([frame_of(0)] * 3), vision, table.submit, table.bus)
    pipe.start()
    pipe.join(20)
    assert "calibration was made for" in pipe.status()["error"]


class FakeCapture:
    def __init__(self, frames, opened=True):
        self.frames = list(frames)
        self.opened = opened
        self.released = False

    def isOpened(self):
        return self.opened

    def read(self):
        if not self.frames:
            return False, None
        return True, self.frames.pop(0)

    def release(self):
        self.released = True


def test_a_camera_that_cannot_open_or_stops_is_lost():
    cam = CameraSource(3, open_capture=lambda i: FakeCapture([], opened=False))
    with pytest.raises(SourceLost, match="camera 3 cannot be opened"):
        list(cam.items())
    cap = FakeCapture([frame_of(0), frame_of(1)])
    cam = CameraSource(0, open_capture=lambda i: cap)
    got = []
    with pytest.raises(SourceLost, match="stopped sending"):
        for item in cam.items():
            got.append(item)
    assert len(got) == 2 and cap.released and cam.live


def _write_timeline(folder, lines):
    (folder / "frames").mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "frames" / "000.png"), frame_of(1))
    (folder / "script.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return folder / "script.jsonl"


def test_a_timeline_gives_frames_repeated_and_events(tmp_path):
    _write_timeline(tmp_path, [
        {"event": {"type": "setup", "game": "web-toy", "players": ["suns", "moons"]}},
        {"frame": "frames/000.png"},
        {"event": {"type": "roll", "player": "suns", "value": "3"}}])
    src = open_source(str(tmp_path), repeat=3)
    assert isinstance(src, TimelineSource) and src.total == 5
    items = list(src.items())
    assert isinstance(items[0], TimelineEvent) and items[0].event.type == "setup"
    assert [int(i.image_bgr[0, 0, 0]) for i in items[1:4]] == [1, 1, 1]
    assert items[4].event.type == "roll"


@pytest.mark.parametrize(("lines", "message"), [
    ([{"frame": "../../etc/passwd"}], "outside the folder"),
    ([{"event": {"type": "roll"}}], "missing field"),
    ([{"what": 1}], "expected"),
    ([], "empty"),
])
def test_bad_timelines_are_one_clear_error(tmp_path, lines, message):
    path = _write_timeline(tmp_path, lines)
    with pytest.raises(SourceError, match=message):
        TimelineSource(path)


def test_a_timeline_line_that_is_not_json(tmp_path):
    (tmp_path / "script.jsonl").write_text("{oops\n")
    with pytest.raises(SourceError, match="line 1: not valid JSON"):
        TimelineSource(tmp_path / "script.jsonl")


def test_a_folder_of_images_in_name_order(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), frame_of(i))
    (tmp_path / "notes.txt").write_text("not an image")
    src = FolderSource(tmp_path, repeat=2)
    assert [int(f.image_bgr[0, 0, 0]) for f in src.items()] == [0, 0, 1, 1, 2, 2]


def test_sources_that_do_not_exist(tmp_path):
    with pytest.raises(SourceError, match="no such video file"):
        open_source(str(tmp_path / "missing.mp4"))
    (tmp_path / "bad.mp4").write_bytes(b"not a video")
    with pytest.raises(SourceError, match="not a video"):
        open_source(str(tmp_path / "bad.mp4"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path / "empty"))
    assert isinstance(open_source("0"), CameraSource)


def test_a_video_file_is_read_frame_by_frame(tmp_path):
    path = tmp_path / "v.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        out.write(np.full((48, 64, 3), 40 * i, np.uint8))
    out.release()
    src = open_source(str(path))
    frames = list(src.items())
    assert len(frames) == 5 and src.total == 5 and not src.live


def test_a_doubted_reading_is_read_once_more_before_the_table_is_asked_again():
    from types import SimpleNamespace

    from tabletop.events import Doubt, Verdict

    class Rereading:
        def __init__(self):
            self.rereads = 0

        def update(self, scene):
            return scene

        def reread(self):
            self.rereads += 1

    answers = iter([Doubt(1, None, (), None, "Seen?"), Doubt(2, None, (), None, "Seen?"),
                    Verdict(3, None, True, "ok", "Fine."), Doubt(4, None, (), None, "Seen?")])

    def submit(event, jpeg=None):
        return SimpleNamespace(outputs=((0, next(answers)),))

    stab = Rereading()
    vision = fake_vision(SCENES)
    vision.stabiliser = stab
    pipe = Pipeline(ListSource([]), vision, submit)
    for k in range(4):
        pipe.step(ListSource([frame_of(0)]).items().__next__())
        assert stab.rereads == [1, 1, 1, 2][k]


def test_while_the_table_is_in_doubt_the_stabiliser_reads_it_again_after_each_hand():
    from types import SimpleNamespace

    from tabletop.events import Doubt, Verdict
    from vision import Stabiliser

    answers = iter([Doubt(1, None, (), None, "Seen?"), Verdict(2, None, True, "ok", "Fine.")])

    def submit(event, jpeg=None):
        return SimpleNamespace(outputs=((0, next(answers)),))

    vision = fake_vision(SCENES)
    vision.stabiliser = Stabiliser(still_frames=1)
    pipe = Pipeline(ListSource([]), vision, submit)
    pipe.step(ListSource([frame_of(0)]).items().__next__())
    assert vision.stabiliser.in_doubt
    pipe.step(ListSource([frame_of(0)]).items().__next__())  # read once more: judged fine
    assert not vision.stabiliser.in_doubt


def test_a_reading_the_referee_would_call_a_foul_on_is_read_twice_and_both_judged_as_one():
    from types import SimpleNamespace

    from tabletop.events import Verdict

    class Rereading:
        def __init__(self):
            self.rereads = 0

        def update(self, scene):
            return scene

        def reread(self):
            self.rereads += 1

    submitted = []

    def submit(event, jpeg=None):
        submitted.append(event.scene)
        return SimpleNamespace(outputs=())

    def preview(event):  # the first table would be a foul, the second is fine
        legal = event.scene == SCENES[1]
        return (Verdict(1, "suns", legal, "ok" if legal else "steps", "Hm."),)

    vision = fake_vision(SCENES)
    vision.stabiliser = Rereading()
    pipe = Pipeline(ListSource([]), vision, submit, preview=preview)
    pipe.step(ListSource([frame_of(0)]).items().__next__())
    assert submitted == [] and vision.stabiliser.rereads == 1  # held, read again
    pipe.step(ListSource([frame_of(1)]).items().__next__())
    # the second reading is judged, with the coin only the first saw
    assert submitted == [scene(coin(30, 0), coin(0, 0))]
    pipe.step(ListSource([frame_of(0)]).items().__next__())  # a foul again: held...
    pipe.flush()  # ...and judged alone when nothing else comes
    assert submitted[1:] == [SCENES[0]]


def test_speed_a_still_table_is_judged_before_its_frame_is_drawn_with_that_frames_picture():
    """The verdict does not wait for the live picture (annotation and its JPEG): it is
    submitted before the frame it was read on is put on the hub, and the picture kept with it
    is that frame's own (the bytes the hub's snapshot gives once the frame is put)."""
    from live.pipeline import FrameHub, encode_jpeg

    hub = FrameHub()
    frames = [frame_of(0) for _ in range(3)]
    for k, f in enumerate(frames):  # the same scene, pictures that differ
        f[30:46, 30:60] = 60 * k
    seen: list[tuple[int, bytes | None, bytes | None]] = []

    def submit(event, jpeg=None):
        seen.append((hub.version, jpeg, hub.snapshot()))

    pipe = Pipeline(ListSource(frames), fake_vision(SCENES, still=3), submit, hub=hub)
    for k, f in enumerate(frames):
        pipe.step(Frame(f, k, time.monotonic(), f"frame {k}"))
    assert len(seen) == 1
    version, jpeg, latest = seen[0]
    assert version == 2  # the first two frames drawn, not yet the third
    assert latest == encode_jpeg(frames[1], 480, 75) != jpeg
    assert jpeg == encode_jpeg(frames[2], 480, 75) == hub.snapshot()
    assert hub.version == 3

"""Sources that fail: a bad frame is skipped and reported, a lost camera holds one status."""

from __future__ import annotations

import time

import cv2
import pytest

from live.bus import Bus
from live.pipeline import Pipeline
from live.sources import CameraSource, FolderSource, SkippingReader, SourceError, read_image
from tests.factories import coin, scene
from tests.web.fakes import fake_vision, frame_of


def _folder(tmp_path, names=("000.jpg", "001.jpg", "002.jpg")):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, name in enumerate(names):
        cv2.imwrite(str(folder / name), frame_of(i + 1))
    return folder


def test_a_frame_cut_short_is_skipped_and_reported_and_the_folder_goes_on(tmp_path):
    folder = _folder(tmp_path)
    data = (folder / "001.jpg").read_bytes()
    (folder / "001.jpg").write_bytes(data[: len(data) // 2])  # written half-way
    said: list[str] = []
    source = FolderSource(folder, repeat=2, reader=SkippingReader(report=said.append))
    names = [item.name for item in source.items()]
    assert names == ["000.jpg", "000.jpg", "002.jpg", "002.jpg"]
    assert source.reader.skipped == ["001.jpg"]
    assert len(said) == 1 and "001.jpg" in said[0] and "cut short" in said[0]


def test_a_frame_that_becomes_readable_is_read_on_a_later_try(tmp_path):
    folder = _folder(tmp_path)
    whole = (folder / "001.jpg").read_bytes()
    (folder / "001.jpg").write_bytes(whole[:100])
    tries = {"n": 0}

    def finish_writing(_: float) -> None:
        tries["n"] += 1
        (folder / "001.jpg").write_bytes(whole)

    reader = SkippingReader(retries=2, wait_s=0.01, report=lambda m: None,
                            sleep=finish_writing)  # the writer finishes while the reader waits
    names = [i.name for i in FolderSource(folder, reader=reader).items()]
    assert names == ["000.jpg", "001.jpg", "002.jpg"] and reader.skipped == []
    assert tries["n"] == 1


def test_a_missing_file_and_a_file_that_is_no_picture_are_told_apart(tmp_path):
    folder = _folder(tmp_path, ("000.jpg",))
    with pytest.raises(SourceError, match="no such image file"):
        read_image(folder / "gone.jpg")
    (folder / "notes.jpg").write_text("not a picture")
    with pytest.raises(SourceError, match="not an image"):
        read_image(folder / "notes.jpg")
    said: list[str] = []
    source = FolderSource(folder, reader=SkippingReader(report=said.append))
    (folder / "000.jpg").unlink()  # deleted after the folder was listed
    assert list(source.items()) == []
    assert "no such image file" in said[0] and "not an image" in said[1]


class _NoCamera:
    def isOpened(self) -> bool:
        return False

    def read(self):
        return False, None

    def release(self) -> None:
        pass


def test_no_camera_holds_one_steady_status_while_it_is_tried_again():
    bus = Bus()
    source = CameraSource(7, open_capture=lambda i: _NoCamera())
    pipe = Pipeline(source, fake_vision([scene(coin(0, 0))]), lambda *a: None, bus,
                    retry_s=0.02)
    pipe.start()
    try:
        deadline = time.monotonic() + 5.0
        while pipe.status()["state"] != "lost" and time.monotonic() < deadline:
            time.sleep(0.01)
        states = set()
        for _ in range(20):  # across several retries
            states.add(pipe.status()["state"])
            time.sleep(0.01)
    finally:
        pipe.stop()
    assert states == {"lost"}
    published = [m.data["state"] for m in bus.wait(0, 0.0) if m.kind == "status"]
    assert "running" not in published

"""Where frames come from: a camera, a video file, a folder of images, or a demo timeline.

Every source gives :class:`Frame` items (and a timeline also gives :class:`TimelineEvent` items,
the rolls and setups typed in at the table) until it ends. A live source (a camera) is marked
``live``: the pipeline then keeps only the latest frame when it is slower than the camera.

Paths come only from the command line or from a timeline file's own folder, never from a request;
a timeline may not name a file outside its folder.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tabletop import images, jsonin
from tabletop.errors import InputError, RecordFormatError
from tabletop.events import Event, parse_event

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(InputError):
    """A source cannot be opened or read."""


class SourceLost(SourceError):
    """A live source stopped answering (a camera unplugged); it may come back."""


@dataclass(frozen=True)
class Frame:
    """One picture of the table.

    Attributes:
        image_bgr: The picture, shape (h, w, 3), uint8, BGR.
        index: Its position in the source (0-based).
        t_captured: ``time.monotonic()`` when it was read.
        name: A label for progress and the history (a file name, ``camera 0 #12``).
    """

    image_bgr: np.ndarray
    index: int
    t_captured: float
    name: str


@dataclass(frozen=True)
class TimelineEvent:
    """An input event from a demo timeline, to be submitted in order with the frames."""

    event: Event
    index: int


Item = Frame | TimelineEvent


class Source:
    """Base of the frame sources.

    Attributes:
        live: True for a camera (frames may be dropped); False for recordings.
        description: One line for the status bar.
        total: The number of items when known (progress), else None.
    """

    live: bool = False
    description: str = "source"
    total: int | None = None

    def items(self) -> Iterator[Item]:
        """The items, in order; a live source raises :class:`SourceLost` when it goes away."""
        raise NotImplementedError

    def close(self) -> None:
        """Releases the device or file."""


def read_image(path: Path) -> np.ndarray:
    """Reads an image file as BGR (its size checked from the header before decoding).

    Raises:
        SourceError: naming the file and saying what is wrong: missing, not a picture, cut
            short (still being written?) or too large.
    """
    try:
        return images.read_image(path)  # type: ignore[no-any-return]
    except InputError as exc:
        raise SourceError(str(exc)) from None


class SkippingReader:
    """Reads the pictures of a recording, skipping (and reporting) the ones that cannot be read.

    A picture that cannot be read is tried again ``retries`` times, ``wait_s`` apart (a file
    still being written is then read whole); if it still cannot be read it is skipped, reported
    once through ``report`` (default: a line on stderr) and counted, and the recording goes on
    with the next picture.
    """

    def __init__(self, retries: int = 2, wait_s: float = 0.0,
                 report: Callable[[str], None] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.retries = retries
        self.wait_s = wait_s
        self.sleep = sleep
        self.report = report or (lambda m: print(f"tabletop: {m}", file=sys.stderr, flush=True))
        self.skipped: list[str] = []

    def read(self, path: Path) -> np.ndarray | None:
        """The picture, or None when it was skipped."""
        for attempt in range(self.retries + 1):
            try:
                return read_image(path)
            except SourceError as exc:
                if attempt == self.retries:
                    self.skipped.append(path.name)
                    self.report(f"skipped a frame: {exc}")
                    return None
                if self.wait_s:
                    self.sleep(self.wait_s)
        return None


class CameraSource(Source):
    """An OpenCV camera by index.

    Args:
        index: The camera's index (``/dev/video<index>``).
        open_capture: Makes the capture object (tests give a fake).
    """

    live = True

    def __init__(self, index: int,
                 open_capture: Callable[[int], Any] = cv2.VideoCapture) -> None:
        self.index = index
        self.description = f"camera {index}"
        if hasattr(cv2, "setLogLevel"):
            cv2.setLogLevel(0)  # silent: a missing camera is said once, on the status line
        self._open = open_capture
        self._cap: Any = None

    def items(self) -> Iterator[Item]:
        self._cap = self._open(self.index)
        if self._cap is None or not self._cap.isOpened():
            self.close()
            raise SourceLost(f"camera {self.index} cannot be opened")
        n = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                self.close()
                raise SourceLost(f"camera {self.index} stopped sending frames")
            yield Frame(image, n, time.monotonic(), f"camera {self.index} #{n}")
            n += 1

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoSource(Source):
    """A video file, frame by frame.

    Args:
        path: The video file.
        realtime: Pace the frames at the video's own rate (a recording shown as if live).
    """

    def __init__(self, path: str | Path, realtime: bool = False) -> None:
        self.path = Path(path)
        self.description = f"video {self.path.name}"
        self.realtime = realtime
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        cap, said = images.quietly(lambda: cv2.VideoCapture(str(self.path)))
        ok = cap.isOpened()  # the decoder's own complaints go into the one-line error
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if ok else 0
        self.fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0) if ok else 0.0
        cap.release()
        if not ok:
            why = said.strip().splitlines()[-1].split("] ")[-1] if said.strip() else ""
            raise SourceError(f"{self.path}: not a video file that can be read"
                              + (f" ({why[:100]})" if why else ""))
        self.total = count if count > 0 else None

    def items(self) -> Iterator[Item]:
        cap, _ = images.quietly(lambda: cv2.VideoCapture(str(self.path)))
        if not cap.isOpened():
            raise SourceError(f"{self.path}: not a video file that can be read")
        period = 1.0 / self.fps if self.realtime and self.fps > 0 else 0.0
        try:
            n = 0
            while True:
                ok, image = cap.read()
                if not ok:
                    return
                yield Frame(image, n, time.monotonic(), f"{self.path.name} #{n}")
                n += 1
                if period:
                    time.sleep(period)
        finally:
            cap.release()


class FolderSource(Source):
    """The images of a folder, in name order, each shown ``repeat`` times.

    A still picture seen once is not a table at rest: the stabiliser wants to see the table
    unchanged for a moment, so each image is given ``repeat`` times (as a camera would).
    """

    def __init__(self, path: str | Path, repeat: int = 1, hold_s: float = 0.0,
                 reader: SkippingReader | None = None) -> None:
        self.path = Path(path)
        self.reader = reader or SkippingReader(wait_s=0.2 if hold_s else 0.0)
        if not self.path.is_dir():
            raise SourceError(f"{self.path}: no such folder")
        self.files = sorted(p for p in self.path.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise SourceError(f"{self.path}: no images in this folder")
        self.repeat = max(1, int(repeat))
        self.hold_s = hold_s
        self.total = len(self.files) * self.repeat
        self.description = f"folder {self.path.name}"

    def items(self) -> Iterator[Item]:
        n = 0
        for f in self.files:
            image = self.reader.read(f)
            if image is None:
                continue
            for _ in range(self.repeat):
                yield Frame(image, n, time.monotonic(), f.name)
                n += 1
                if self.hold_s:
                    time.sleep(self.hold_s / self.repeat)


class TimelineSource(Source):
    """A demo timeline (``script.jsonl``): frames and typed-in events, in order.

    Each line is ``{"frame": "frames/000.jpg"}`` or ``{"event": {...}}``. Each frame is given
    ``repeat`` times, spread over ``hold_s`` seconds, so a person can watch and the stabiliser
    sees a table at rest.
    """

    def __init__(self, path: str | Path, repeat: int = 1, hold_s: float = 0.0,
                 reader: SkippingReader | None = None) -> None:
        self.path = Path(path)
        self.reader = reader or SkippingReader(wait_s=0.2 if hold_s else 0.0)
        self.folder = self.path.parent.resolve()
        self.repeat = max(1, int(repeat))
        self.hold_s = hold_s
        self.description = f"timeline {self.path.parent.name}/{self.path.name}"
        self.lines = self._read()
        frames = sum(1 for kind, _ in self.lines if kind == "frame")
        self.total = frames * self.repeat + (len(self.lines) - frames)

    def _read(self) -> list[tuple[str, Any]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SourceError(f"{self.path}: cannot read ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise SourceError(f"{self.path}: not a text file") from None
        out: list[tuple[str, Any]] = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{self.path}: line {n}"
            obj = jsonin.loads(line, where, SourceError)
            if isinstance(obj, dict) and isinstance(obj.get("frame"), str):
                f = (self.folder / obj["frame"]).resolve()
                if not f.is_relative_to(self.folder):
                    raise SourceError(f"{where}: frame {obj['frame']!r} is outside the folder")
                out.append(("frame", f))
            elif isinstance(obj, dict) and "event" in obj:
                try:
                    out.append(("event", parse_event(obj["event"], where)))
                except RecordFormatError as exc:
                    raise SourceError(str(exc)) from None
            else:
                raise SourceError(f"{where}: expected {{\"frame\": ...}} or {{\"event\": ...}}")
        if not out:
            raise SourceError(f"{self.path}: the timeline is empty")
        return out

    def items(self) -> Iterator[Item]:
        n = 0
        for kind, value in self.lines:
            if kind == "event":
                yield TimelineEvent(value, n)
                n += 1
                continue
            image = self.reader.read(value)
            if image is None:
                continue
            for _ in range(self.repeat):
                yield Frame(image, n, time.monotonic(), value.name)
                n += 1
                if self.hold_s:
                    time.sleep(self.hold_s / self.repeat)


class CountedSource(Source):
    """A recording that counts its items (a replay stores how far it got with each event).

    Attributes:
        index: The 0-based position of the item being handled (-1 before the first).
    """

    def __init__(self, inner: Source) -> None:
        self.inner = inner
        self.index = -1
        self.name = ""
        """What the item being handled is (a picture's file name)."""
        self.live = inner.live
        self.description = inner.description
        self.total = inner.total

    def items(self) -> Iterator[Item]:
        for n, item in enumerate(self.inner.items()):
            self.index = n
            self.name = item.name if isinstance(item, Frame) else f"event {n}"
            yield item

    def close(self) -> None:
        self.inner.close()


def open_source(spec: str | int, *, repeat: int = 1, hold_s: float = 0.0,
                realtime: bool = False) -> Source:
    """The source a command line names: a camera index, a timeline, a folder or a video.

    Raises:
        SourceError: when the path is none of these.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CameraSource(int(spec))
    p = Path(spec)
    if p.is_dir() and (p / "script.jsonl").is_file():
        return TimelineSource(p / "script.jsonl", repeat, hold_s)
    if p.is_dir():
        return FolderSource(p, repeat, hold_s)
    if p.suffix == ".jsonl":
        return TimelineSource(p, repeat, hold_s)
    if p.suffix.lower() in IMAGE_SUFFIXES:
        raise SourceError(f"{p}: a single image; give the folder of images instead")
    return VideoSource(p, realtime=realtime)

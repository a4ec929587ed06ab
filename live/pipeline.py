"""The pipeline runner: frames -> vision -> stabiliser -> referee -> log, in the background.

Two threads: a *reader* pulls items from the source and a *worker* judges them. Between them is a
one-item slot: for a live source (a camera) a new frame replaces one the worker has not taken yet
(the old one is counted as dropped), so a slow machine never builds a queue; the worker only
rechecks the last few frames it passed over (a still table's frames count for the stabiliser, see
:meth:`Pipeline.catch_up`). For a recording the reader waits, so every frame is seen. A camera
that goes away is retried every ``retry_s`` seconds with the status saying so; the game (the
:class:`live.table.Table`) simply goes on when it returns.

:func:`run_sync` is the same worker step without threads (``tabletop replay``).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from live.bus import Bus
from live.read_twice import merge_readings, objected
from live.sources import Frame, Item, Source, SourceLost, TimelineEvent
from tabletop.errors import TabletopError
from tabletop.events import SceneSeen
from tabletop.scene import Scene


class StabiliserLike(Protocol):
    """What the pipeline needs of a stabiliser (``vision.Stabiliser``)."""

    def update(self, scene: Scene) -> Scene | None:
        """The scene when the table has just come to rest with no hand over it, else None."""


@dataclass
class Vision:
    """The vision stages the pipeline composes (tests give fakes).

    Attributes:
        detect: BGR frame -> a result with ``.scene`` (and what ``annotate`` needs).
        stabiliser: Turns per-frame scenes into "the table just became still" scenes.
        annotate: (frame, result) -> the frame with detections drawn on it.
        check_image: Raises a one-line error when a frame does not fit the calibration.
        rebuild: A game -> the vision for that game (its kinds of piece, its piece sizes);
            None: the same vision serves every game.
        kinds: The kinds of piece looked for (None: whatever ``detect`` finds).
        pieces: The piece set (sizes) looked for, when known.
        recheck: A frame -> the last result again when it shows the same table as the last
            detected frame, else None (cheap); the frames a busy worker passed over are
            rechecked in order, so each still one counts for the stabiliser. None: passed
            frames are dropped unseen.
        confirm: (frame, still reading, last accepted table) -> the reading with the pieces
            of the accepted table it lacked looked for at their poses (``vision.confirm``);
            run once per still table, never on a fresh game (no accepted table). None: the
            reading stands.
    """

    detect: Callable[[np.ndarray], Any]
    stabiliser: StabiliserLike
    annotate: Callable[[np.ndarray, Any], np.ndarray] | None = None
    check_image: Callable[[np.ndarray], None] | None = None
    rebuild: Callable[[Any], Vision] | None = None
    kinds: tuple[str, ...] | None = None
    pieces: Any = None
    recheck: Callable[[np.ndarray], Any | None] | None = None
    confirm: Callable[[np.ndarray, Scene, Scene], Scene] | None = None


SNAPSHOT_WIDTH = 480
"""Width of the small JPEG kept with each verdict."""


def encode_jpeg(image: np.ndarray, width: int | None = None, quality: int = 80) -> bytes:
    """A JPEG of ``image``, scaled down to ``width`` pixels across when it is wider."""
    if width is not None and image.shape[1] > width:
        h = max(1, round(image.shape[0] * width / image.shape[1]))
        image = cv2.resize(image, (width, h), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 image
        raise TabletopError("cannot encode a JPEG")
    return buf.tobytes()


def snapshot_jpeg(image: np.ndarray, width: int = SNAPSHOT_WIDTH) -> bytes:
    """The small JPEG kept with a verdict: ``image`` at most ``width`` pixels across."""
    return encode_jpeg(image, width, 75)


class FrameHub:
    """The latest annotated picture, for the live view (MJPEG and single JPEG)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.jpeg: bytes | None = None
        self.raw: np.ndarray | None = None
        self.version = 0

    def put(self, raw: np.ndarray, jpeg: bytes) -> None:
        """Publishes a new picture."""
        with self._cond:
            self.raw, self.jpeg = raw, jpeg
            self.version += 1
            self._cond.notify_all()

    def wait(self, version: int, timeout_s: float) -> tuple[int, bytes | None]:
        """Waits for a picture newer than ``version``; returns ``(version, jpeg)``."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > version, timeout_s)
            return self.version, self.jpeg

    def snapshot(self, width: int = SNAPSHOT_WIDTH) -> bytes | None:
        """A small JPEG of the latest raw frame (kept with each verdict), or None."""
        raw = self.raw
        return None if raw is None else snapshot_jpeg(raw, width)


class _Slot:
    """A one-item hand-over between the reader and the worker. A live frame that a newer one
    replaces is kept among the last few ``passed`` frames (for a cheap recheck), not judged."""

    PASSED = 4
    """How many replaced frames are kept for the worker's recheck (the newest)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._item: Item | None = None
        self._ended = False
        self._passed: deque[Frame] = deque(maxlen=self.PASSED)
        self.dropped = 0

    def passed(self) -> list[Frame]:
        """The frames replaced since the last call, oldest first (and forgets them)."""
        with self._cond:
            out = list(self._passed)
            self._passed.clear()
            return out

    def put(self, item: Item, replace: bool, stop: threading.Event) -> None:
        with self._cond:
            if replace:
                if self._item is not None:
                    self.dropped += 1
                    if isinstance(self._item, Frame):
                        self._passed.append(self._item)
            else:
                while self._item is not None and not stop.is_set():
                    self._cond.wait(0.1)
            self._item = item
            self._cond.notify_all()

    def end(self) -> None:
        with self._cond:
            self._ended = True
            self._cond.notify_all()

    def take(self, timeout_s: float) -> tuple[Item | None, bool]:
        """``(item, ended)``: the item, or None on timeout; ended once the source is done."""
        with self._cond:
            self._cond.wait_for(lambda: self._item is not None or self._ended, timeout_s)
            item, self._item = self._item, None
            self._cond.notify_all()
            return item, self._ended and item is None


class Pipeline:
    """Runs a source through vision into a table, in two background threads.

    Args:
        source: Where frames come from.
        vision: The detector, stabiliser and annotator.
        submit: Where stable scenes and timeline events go (``Table.submit``).
        bus: Where status changes are announced (at most about once a second).
        hub: Where the annotated picture goes.
        retry_s: How often a lost camera is tried again.
        jpeg_width: Width of the live picture.
        known: Returns the last accepted table (None before the first), which vision uses to
            confirm pieces a still reading lacks; default: ``submit``'s owner's ``accepted``
            (a :class:`live.table.Table`), else none.
        preview: What the referee would say about an event, without judging it (default:
            ``submit``'s owner's ``preview``, else none): a still reading it would doubt or
            call a foul is read again from the next still frames first, and the second reading
            with the pieces only the first showed is judged (read twice before judging:
            :func:`live.read_twice.merge_readings`; the first alone is judged when a hand, an
            event or the end of the source comes before a second).
    """

    def __init__(self, source: Source, vision: Vision,
                 submit: Callable[..., Any], bus: Bus | None = None,
                 hub: FrameHub | None = None, retry_s: float = 2.0,
                 jpeg_width: int = 960,
                 known: Callable[[], Scene | None] | None = None,
                 preview: Callable[[Any], tuple[Any, ...]] | None = None) -> None:
        self.source = source
        self.vision = vision
        self.submit = submit
        self.known = known if known is not None else _accepted_of(submit)
        self.preview = preview if preview is not None else _preview_of(submit)
        self._held: tuple[Scene, bytes | None] | None = None
        self.bus = bus
        self.hub = hub or FrameHub()
        self.retry_s = retry_s
        self.jpeg_width = jpeg_width
        self._slot = _Slot()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._state = "starting"
        self._message = f"opening {source.description}"
        self._read = 0
        self._processed = 0
        self._stable = 0
        self._times: deque[float] = deque(maxlen=60)
        self._latency: deque[float] = deque(maxlen=60)
        self._last_status_pub = 0.0
        self._last_error: str | None = None
        self._source_done = False
        self._reread = False

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        """Starts the reader and the worker."""
        for name, target in (("reader", self._reader), ("worker", self._worker)):
            t = threading.Thread(target=target, name=f"pipeline-{name}", daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stops both threads and releases the source."""
        self._stop.set()
        self._slot.end()
        for t in self._threads:
            t.join(timeout_s)
        self.source.close()

    def join(self, timeout_s: float | None = None) -> None:
        """Waits for a recording to be fully processed."""
        for t in self._threads:
            t.join(timeout_s)

    @property
    def running(self) -> bool:
        """True while a thread still runs."""
        return any(t.is_alive() for t in self._threads)

    def _read_twice(self, done: Any) -> None:
        """A reading the referee doubts is read once more from the next still frames before
        the table is asked again (the stabiliser emits the next still period even if it shows
        the same table); while the table stays in doubt, it is read again after every hand
        that comes and goes (a move vision cannot see gets a doubt, not silence)."""
        stabiliser = self.vision.stabiliser
        doubted = _doubted(done)
        if hasattr(stabiliser, "in_doubt"):
            stabiliser.in_doubt = doubted
        if doubted:
            reread = getattr(stabiliser, "reread", None)
            if not self._reread and reread is not None:
                reread()
                self._reread = True
        else:
            self._reread = False

    def use_game(self, game: Any) -> None:
        """A game has started (or resumed): vision looks for its kinds at its piece sizes from
        the next frame on (a detector built afresh, a fresh stabiliser)."""
        vision = self.vision
        if vision.rebuild is None:
            return
        if vision.kinds == tuple(game.piece_kinds) and vision.pieces == game.pieces:
            return  # already looking for exactly that
        self.vision = vision.rebuild(game)

    # ------------------------------------------------------------------ status

    def _set_state(self, state: str, message: str) -> None:
        with self._lock:
            changed = (state, message) != (self._state, self._message)
            self._state, self._message = state, message
        if changed:
            self._publish_status(force=True)

    def status(self) -> dict[str, Any]:
        """Source, state, frame rate, latency and counters (``source`` of ``/api/state``)."""
        with self._lock:
            times = list(self._times)
            lat = list(self._latency)
            fps = 0.0
            if len(times) >= 2 and times[-1] > times[0]:
                fps = (len(times) - 1) / (times[-1] - times[0])
            if times and time.monotonic() - times[-1] > 2.0:
                fps = 0.0
            return {
                "source": self.source.description,
                "live": self.source.live,
                "state": self._state,
                "message": self._message,
                "fps": round(fps, 2),
                "latency_ms": round(1000 * sum(lat) / len(lat), 1) if lat else None,
                "frames_read": self._read,
                "frames_processed": self._processed,
                "frames_dropped": self._slot.dropped,
                "stable_scenes": self._stable,
                "total": self.source.total,
                "error": self._last_error,
            }

    def _publish_status(self, force: bool = False) -> None:
        if self.bus is None:
            return
        now = time.monotonic()
        if force or now - self._last_status_pub >= 1.0:
            self._last_status_pub = now
            self.bus.publish("status", self.status())

    # ------------------------------------------------------------------ threads

    def _reader(self) -> None:
        while not self._stop.is_set():
            try:
                first = True
                for item in self.source.items():
                    if first:  # "running" only once a frame came: no flip-flop while lost
                        self._set_state("running", f"reading {self.source.description}")
                        first = False
                    if self._stop.is_set():
                        break
                    with self._lock:
                        self._read += 1
                    self._slot.put(item, replace=self.source.live and isinstance(item, Frame),
                                   stop=self._stop)
                else:
                    self._source_done = True  # the worker says "ended" once it has judged all
                    break
            except SourceLost as exc:
                self._set_state("lost", f"{exc}; trying again every {self.retry_s:g} s")
                self._stop.wait(self.retry_s)
                continue
            except TabletopError as exc:
                self._set_state("error", str(exc))
                break
            except Exception as exc:  # the page says so; the server goes on
                self._set_state("error", f"{type(exc).__name__}: {exc}")
                break
        self._slot.end()

    def _worker(self) -> None:
        while not self._stop.is_set():
            item, ended = self._slot.take(0.2)
            if ended:
                self.flush()
                if self._source_done:
                    self._set_state("ended", f"{self.source.description}: every frame judged")
                break
            if item is None:
                continue
            try:
                self.catch_up(self._slot.passed())
                self.step(item)
            except TabletopError as exc:
                with self._lock:
                    self._last_error = str(exc)
            except Exception as exc:
                with self._lock:
                    self._last_error = f"{type(exc).__name__}: {exc}"
            self._publish_status()
        self._publish_status(force=True)

    def catch_up(self, passed: list[Frame]) -> None:
        """Rechecks, oldest first, frames that came while the worker was busy: each that shows
        the same table as the last detected frame is one more still frame for the stabiliser
        (a verdict need not wait for frames still to come); at the first that does not, the
        rest are left (the newest frame is detected next)."""
        recheck = self.vision.recheck
        if recheck is None:
            return
        for frame in passed:
            result = recheck(frame.image_bgr)
            if result is None:
                return
            stable = self.vision.stabiliser.update(getattr(result, "scene", result))
            if stable is not None:
                self._judge(stable, frame.image_bgr)

    def _judge(self, stable: Scene, image: np.ndarray,
               picture: Callable[[], bytes | None] | None = None) -> None:
        """Submits a still table's scene (confirmed against the accepted table, with a
        picture: ``picture()``, else the hub's latest) to the referee; one it would doubt or
        call a foul on is held and read again first (see ``preview``)."""
        picture = picture or self.hub.snapshot
        stable = self._confirmed(image, stable)
        with self._lock:
            self._stable += 1
        reread = getattr(self.vision.stabiliser, "reread", None)
        if self._held is None and reread is not None and self._objects(stable):
            self._held = (stable, picture())
            reread()
            return
        if self._held is not None:  # read twice: a piece seen in either reading is there
            stable = merge_readings(self._held[0], stable, self.vision.pieces)
        self._held = None
        done = self.submit(SceneSeen(stable), jpeg=picture())
        self._read_twice(done)

    def _objects(self, scene: Scene) -> bool:
        """Whether the referee would doubt ``scene`` or call a foul on it."""
        if self.preview is None:
            return False
        try:
            said = self.preview(SceneSeen(scene))
        except Exception:  # a preview that fails holds nothing back
            return False
        return objected(said)

    def flush(self) -> None:
        """Judges a held reading now (no second reading came before a hand, an event or the
        end of the source)."""
        if self._held is None:
            return
        scene, jpeg = self._held
        self._held = None
        done = self.submit(SceneSeen(scene), jpeg=jpeg)
        self._read_twice(done)

    def step(self, item: Item) -> None:
        """Processes one item: a timeline event is submitted; a frame goes through vision."""
        if isinstance(item, TimelineEvent):
            self.flush()
            self.submit(item.event)
            return
        image = item.image_bgr
        if self.vision.check_image is not None:
            self.vision.check_image(image)
        result = self.vision.detect(image)
        scene = getattr(result, "scene", result)
        if getattr(scene, "hand", False):
            self.flush()  # the table is touched: the held reading was its last still one
        stable = self.vision.stabiliser.update(scene)
        try:  # judged first, the live picture drawn after: the verdict does not wait for the
            # drawing and its JPEG (about 9 ms of CPU at 1280x720); its own picture is this
            # frame's, as the hub's snapshot would give once the frame is put
            if stable is not None:
                self._judge(stable, image, lambda: snapshot_jpeg(image))
        finally:
            drawn = image
            if self.vision.annotate is not None:
                drawn = self.vision.annotate(image, result)
            self.hub.put(image, encode_jpeg(drawn, self.jpeg_width))
        now = time.monotonic()
        with self._lock:
            self._processed += 1
            self._times.append(now)
            self._latency.append(now - item.t_captured)

    def _confirmed(self, image: np.ndarray, scene: Scene) -> Scene:
        """A still reading with the last accepted table's pieces it lacked looked for where
        they lay (the accepted table is an input, like the calibration)."""
        confirm = self.vision.confirm
        known = self.known() if self.known is not None else None
        if confirm is None or known is None:
            return scene
        try:
            return confirm(image, scene, known)
        except Exception as exc:  # the reading as it was is still judged
            with self._lock:
                self._last_error = f"confirming the still table: {type(exc).__name__}: {exc}"
            return scene


def _accepted_of(submit: Callable[..., Any]) -> Callable[[], Scene | None] | None:
    """``submit``'s owner's last accepted table, when it keeps one (``Table.submit``)."""
    owner = getattr(submit, "__self__", None)
    if owner is None or not hasattr(type(owner), "accepted"):
        return None
    return lambda: owner.accepted


def _preview_of(submit: Callable[..., Any]) -> Callable[[Any], tuple[Any, ...]] | None:
    """``submit``'s owner's ``preview`` (what it would say), when it has one."""
    owner = getattr(submit, "__self__", None)
    preview = getattr(owner, "preview", None) if owner is not None else None
    return preview if callable(preview) else None


def _doubted(done: Any) -> bool:
    """True when a submitted scene's outputs hold a doubt."""
    return any(getattr(o, "type", None) == "doubt" for _, o in getattr(done, "outputs", ()))


def run_sync(source: Source, vision: Vision, submit: Callable[..., Any],
             progress: Callable[[int, int | None], None] | None = None,
             ready: Callable[[Pipeline], None] | None = None,
             known: Callable[[], Scene | None] | None = None,
             preview: Callable[[Any], tuple[Any, ...]] | None = None) -> int:
    """Runs every item of a recording through the pipeline in this thread; returns the count.

    ``ready`` is called with the pipeline before the first item (to hear of new games:
    ``lambda pipe: table.on_game(pipe.use_game)``); ``known`` returns the last accepted table
    (``lambda: table.accepted``) and ``preview`` what the table would say (``table.preview``;
    both default: as :class:`Pipeline`).
    """
    pipe = Pipeline(source, vision, submit, jpeg_width=480, known=known, preview=preview)
    if ready is not None:
        ready(pipe)
    n = 0
    for item in source.items():
        pipe.step(item)
        n += 1
        if progress is not None:
            progress(n, source.total)
    pipe.flush()
    source.close()
    return n

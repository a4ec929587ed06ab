"""A lost camera is said loudly on the terminal too (the dashboard's banner says it on screen).

:class:`SourceWatch` folds the pipeline's status messages into "lost" and "back" moments: the
camera is lost when the source says so, and back only once frames arrive again (a retry that
finds nothing is not a return). :func:`announce_source_changes` prints those moments while the
server runs.

>>> w = SourceWatch()
>>> w.update({"state": "running", "frames_read": 5, "message": "", "source": "camera 0"})
>>> w.update({"state": "lost", "frames_read": 5, "message": "camera 0 stopped sending frames",
...           "source": "camera 0"})
'camera 0 is lost (camera 0 stopped sending frames): the game is paused until it is back'
>>> w.update({"state": "running", "frames_read": 5, "message": "", "source": "camera 0"})
>>> w.update({"state": "running", "frames_read": 6, "message": "", "source": "camera 0"})
'camera 0 is back: the game goes on'
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

from live.bus import Bus


class SourceWatch:
    """Says when the camera is lost and when it is back (once each)."""

    def __init__(self) -> None:
        self.lost = False
        self._frames_at_loss = 0

    def update(self, status: dict[str, Any]) -> str | None:
        """The sentence to say for this status, or None."""
        frames = int(status.get("frames_read") or 0)
        name = status.get("source") or "the camera"
        if status.get("state") == "lost" and not self.lost:
            self.lost, self._frames_at_loss = True, frames
            why = str(status.get("message") or "").split(";")[0]
            return f"{name} is lost ({why}): the game is paused until it is back"
        if self.lost and status.get("state") in ("running", "ended") \
                and frames > self._frames_at_loss:
            self.lost = False
            return f"{name} is back: the game goes on"
        return None


def announce_source_changes(bus: Bus, out: TextIO | None = None) -> threading.Thread:
    """Prints ``tabletop: <camera> is lost ...`` and ``... is back`` as they happen, until the
    bus closes (a daemon thread)."""

    def run() -> None:
        watch = SourceWatch()
        last = bus.last_id
        while not bus.closed:
            for m in bus.wait(last, 1.0):
                last = m.id
                if m.kind == "status" and isinstance(m.data, dict):
                    said = watch.update(m.data)
                    if said:
                        print(f"tabletop: {said}", file=out or sys.stderr, flush=True)

    t = threading.Thread(target=run, name="announce-source", daemon=True)
    t.start()
    return t

"""A tiny publish/subscribe hub for server-sent events.

Publishing is O(1) and never blocks on a subscriber: messages go into one ring buffer with
increasing ids, and each subscriber remembers the last id it has sent. A subscriber that falls so
far behind that its next message has left the ring gets a ``resync`` message (the page then
re-reads ``/api/state``) instead of a growing queue.

>>> bus = Bus(capacity=2)
>>> bus.publish("verdict", {"legal": True})
1
>>> [(m.id, m.kind) for m in bus.since(0)]
[(1, 'verdict')]
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """One server-sent event: its id, its ``event:`` name and its JSON data."""

    id: int
    kind: str
    data: Any
    text: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.text:  # encoded once, however many clients it goes to
            object.__setattr__(self, "text", f"id: {self.id}\nevent: {self.kind}\n"
                                             f"data: {json.dumps(self.data)}\n\n")

    def sse(self) -> str:
        """The message in the ``text/event-stream`` format."""
        return self.text


class Bus:
    """The hub. Thread-safe.

    Args:
        capacity: How many recent messages are kept for subscribers that lag behind.
    """

    def __init__(self, capacity: int = 512) -> None:
        self._ring: deque[Message] = deque(maxlen=capacity)
        self._last_id = 0
        self._cond = threading.Condition()
        self._closed = False

    @property
    def last_id(self) -> int:
        """The id of the latest message (0 before the first)."""
        return self._last_id

    def publish(self, kind: str, data: Any) -> int:
        """Adds a message and wakes every subscriber; returns its id."""
        with self._cond:
            self._last_id += 1
            self._ring.append(Message(self._last_id, kind, data))
            self._cond.notify_all()
            return self._last_id

    def since(self, last_id: int) -> list[Message]:
        """The messages after ``last_id`` (a ``resync`` first when some were lost)."""
        with self._cond:
            return self._since(last_id)

    def _since(self, last_id: int) -> list[Message]:
        if last_id >= self._last_id:
            return []
        if not self._ring or self._ring[0].id > last_id + 1:
            lost = Message(self._last_id, "resync", {"reason": "too far behind"})
            return [lost]
        return [m for m in self._ring if m.id > last_id]

    def wait(self, last_id: int, timeout_s: float) -> list[Message]:
        """Waits up to ``timeout_s`` for messages after ``last_id`` and returns them."""
        with self._cond:
            if self._last_id <= last_id and not self._closed:
                self._cond.wait_for(lambda: self._last_id > last_id or self._closed, timeout_s)
            return self._since(last_id)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (streams then end)."""
        return self._closed

    def close(self) -> None:
        """Ends every stream (at shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

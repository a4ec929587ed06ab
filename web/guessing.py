"""How many wrong join codes the server hears before it stops listening for a while.

The join code has ``32**6`` (about 10**9) values. Wrong codes are counted for the whole server,
not per address, so a guessing run spread over many addresses gains nothing: at most
:attr:`GuessLimiter.free` wrong codes within :attr:`GuessLimiter.window_s`, and each time that
allowance runs out again the pause doubles (one minute, two, four... at most an hour). Over an
hour that lets through far fewer than ``10**-6`` of the codes (a test checks it with a fake
clock). The table's own screen (loopback) is never paused: the limiter is asked only for other
machines.

>>> t = [0.0]
>>> g = GuessLimiter(clock=lambda: t[0])
>>> for _ in range(10):
...     g.wrong()
>>> g.wait_s() > 0
True
>>> t[0] += 61.0
>>> g.wait_s()
0.0
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class GuessLimiter:
    """Wrong join codes heard by the server, and how long to refuse codes after them.

    Args:
        free: Wrong codes allowed within one window before a pause.
        window_s: The window, seconds.
        longest_s: The longest pause, seconds.
        clock: Monotonic seconds (tests give a fake one).
    """

    def __init__(self, free: int = 10, window_s: float = 60.0, longest_s: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self.window_s = window_s
        self.longest_s = longest_s
        self.clock = clock
        self._lock = threading.Lock()
        self._recent: deque[float] = deque()
        self._until = 0.0
        self._pauses = 0
        self._last_wrong = -float("inf")

    def wait_s(self) -> float:
        """Seconds until a code may be tried again (0.0: now)."""
        with self._lock:
            return max(0.0, self._until - self.clock())

    def wrong(self) -> None:
        """Counts one wrong code; pauses the server's code checks when too many came lately."""
        now = self.clock()
        with self._lock:
            if now - self._last_wrong > self.longest_s:
                self._pauses = 0  # an hour without a wrong code: forgive the past
            self._last_wrong = now
            while self._recent and now - self._recent[0] >= self.window_s:
                self._recent.popleft()
            self._recent.append(now)
            if len(self._recent) >= self.free:
                pause = min(self.window_s * 2.0 ** self._pauses, self.longest_s)
                self._pauses += 1
                self._until = max(self._until, now + pause)
                self._recent.clear()

    def right(self) -> None:
        """A right code was given: the pauses start again from the shortest."""
        with self._lock:
            self._pauses = 0

"""Fakes for the web tests: a toy game, a frame source and vision that need no camera.

The toy game ``web-toy`` (registered on import): players take turns; a roll out of turn is
illegal (``turn``); a scene with more coins than the accepted table is illegal (``extra``, the
new coins named); any other scene is legal and passes the turn.

Fake frames carry their scene number in pixel (0, 0); :class:`FakeVision` reads it back from a
list of scenes, and its stabiliser reports a scene once it has been seen ``still`` times in a row.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from live.pipeline import Vision
from live.sources import Frame, Item, Source, SourceLost, TimelineEvent
from referee.base import Game, Step
from referee.registry import GameSpec, register
from tabletop.events import Roll, SceneSeen, Verdict
from tabletop.scene import Scene


@dataclass(frozen=True)
class ToyState:
    table: Scene | None
    turn: int = 0
    moves: int = 0


class ToyGame(Game):
    """Turns, rolls and 'no new coins'."""

    name = "web-toy"
    option_names = frozenset({"sizes", "speed"})

    def initial_state(self) -> ToyState:
        return ToyState(None)

    def _next(self, state: ToyState) -> ToyState:
        return replace(state, turn=(state.turn + 1) % len(self.players), moves=state.moves + 1)

    def step(self, state: ToyState, event: Any, seq: int) -> Step:
        player = self.players[state.turn]
        if isinstance(event, Roll):
            if event.player != player:
                return Step(state, (Verdict(seq, event.player, False, "turn",
                                            f"it is {player}'s turn, not {event.player}'s"),))
            return Step(state)
        if isinstance(event, SceneSeen):
            new = event.scene
            if state.table is not None:
                old = len(state.table.of_kind("coin"))
                coins = new.indices_of_kind("coin")
                if len(coins) > old:
                    return Step(state, (Verdict(seq, player, False, "extra",
                                                "a coin appeared from nowhere",
                                                tuple(coins[old:]), None),))
            return Step(replace(self._next(state), table=new),
                        (Verdict(seq, player, True, "ok", f"{player} moved"),))
        return Step(state, (Verdict(seq, None, False, "unknown", f"{event.type} is not used"),))

    def accept(self, state: ToyState, scene: Scene, seq: int) -> Step:
        return Step(replace(state, table=scene), (Verdict(seq, None, True, "ok", "accepted"),))

    def describe(self, state: ToyState) -> dict[str, Any]:
        return {"turn": self.players[state.turn], "moves": state.moves}


register(GameSpec(ToyGame, default_players=("suns", "moons"), inputs=("roll",)))


def frame_of(scene_number: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    """A BGR picture carrying ``scene_number`` in pixel (0, 0)."""
    img = np.full((size[1], size[0], 3), 90, np.uint8)
    img[0, 0, 0] = scene_number
    img[8:20, 8:20] = (40 * scene_number % 255, 120, 200)
    return img


class FakeStabiliser:
    """Reports a scene once it was seen ``still`` times in a row and differs from the last."""

    def __init__(self, still: int = 3) -> None:
        self.still = still
        self._last: Scene | None = None
        self._count = 0
        self._reported: Scene | None = None

    def update(self, scene: Scene) -> Scene | None:
        self._count = self._count + 1 if scene == self._last else 1
        self._last = scene
        if self._count >= self.still and scene != self._reported and not scene.hand:
            self._reported = scene
            return scene
        return None


@dataclass(frozen=True)
class FakeResult:
    scene: Scene


def fake_vision(scenes: Sequence[Scene], still: int = 3, delay_s: float = 0.0) -> Vision:
    """Vision that reads the scene number from pixel (0, 0)."""

    def detect(image: np.ndarray) -> FakeResult:
        if delay_s:
            time.sleep(delay_s)
        return FakeResult(scenes[int(image[0, 0, 0]) % len(scenes)])

    def annotate(image: np.ndarray, result: FakeResult) -> np.ndarray:
        out = image.copy()
        out[:4, :4] = (0, 0, 255)
        return out

    return Vision(detect, FakeStabiliser(still), annotate)


class ListSource(Source):
    """Frames (and timeline events) from a list; optionally paced, optionally live."""

    def __init__(self, items: Sequence[Any], period_s: float = 0.0, live: bool = False,
                 fail_first: int = 0) -> None:
        self._items = list(items)
        self.period_s = period_s
        self.live = live
        self.description = "fake source"
        self.total = len(self._items)
        self.fail_first = fail_first

    def items(self) -> Iterator[Item]:
        if self.fail_first > 0:
            self.fail_first -= 1
            raise SourceLost("fake camera is unplugged")
        for n, it in enumerate(self._items):
            if isinstance(it, np.ndarray):
                yield Frame(it, n, time.monotonic(), f"fake #{n}")
            else:
                yield TimelineEvent(it, n)
            if self.period_s:
                time.sleep(self.period_s)


class EndlessSource(Source):
    """A live source giving the same frames round and round at ``fps`` (the bench, the tests)."""

    live = True
    description = "endless fake camera"

    def __init__(self, frames: Sequence[np.ndarray], fps: float = 100.0) -> None:
        self.frames = list(frames)
        self.fps = fps

    def items(self) -> Iterator[Item]:
        n = 0
        period = 1.0 / self.fps
        next_t = time.monotonic()
        while True:
            yield Frame(self.frames[n % len(self.frames)], n, time.monotonic(), f"#{n}")
            n += 1
            next_t += period
            delay = next_t - time.monotonic()
            if delay > 0:
                time.sleep(delay)

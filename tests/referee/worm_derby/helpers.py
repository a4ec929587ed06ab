"""A small course and helpers to play Worm Derby turns in tests (mm; coins 19.05, tiles 50.8)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from referee.registry import make_game
from referee.worm_derby.game import WormDerby
from referee.worm_derby.state import DerbyState
from tabletop.events import Event, Notice, Roll, SceneSeen, Verdict
from tabletop.scene import Piece, Scene
from tests.factories import PIECES, coin, setup, tile

D = PIECES.coin_diameter_mm
T = PIECES.tile_mm
START = (tile(-2 * T, 0, face="up", suit="suns"), tile(2 * T, 0, face="up", suit="moons"))


def course(pylon_y: float = 1000.0, obstacles: Iterable[Piece] = (),
           gates: Iterable[Piece] = ()) -> list[Piece]:
    """Start tiles at x = +-101.6 on y = 0, the pylon at (0, pylon_y), then the rest."""
    return [*START, tile(0, pylon_y, face="up", suit="crowns"), *gates, *obstacles]


def line(x: float, y0: float, n: int, suit: str, dy: float = D) -> list[Piece]:
    """``n`` coins from (x, y0) upwards (towards the pylon), touching."""
    return [coin(x, y0 + i * dy, suit) for i in range(n)]


def coins_at(points: Sequence[tuple[float, float]], suit: str) -> list[Piece]:
    """Coins at the given centres."""
    return [coin(x, y, suit) for x, y in points]


def new_game(players: Sequence[str] = ("suns", "moons"), **options) -> WormDerby:
    """The configured game (a variant subclass when the options ask)."""
    game = make_game(setup("worm-derby", players, **options))
    assert isinstance(game, WormDerby)
    return game


def started(game: WormDerby, first: Scene, table: Scene | None = None) -> DerbyState:
    """The state after a legal setup scene and, if given, with ``table`` accepted as is."""
    step = game.step(game.initial_state(), SceneSeen(first), 1)
    assert step.verdicts and step.verdicts[0].legal, step.verdicts
    assert_plain_sentences(step.outputs)
    state = step.state
    if table is not None:
        state = game.accept(state, table, 2).state
    return state


def said(out: Iterable[Event]) -> list[tuple[str, str | None, str | None]]:
    """What the referee said, as ``(type, player, rule)`` of each output."""
    return [(type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in out]


def is_one_plain_sentence(text: str) -> bool:
    """A capitalised first word, one full stop at the very end, no "suns's"."""
    return (bool(text) and text[0].isupper() and text.endswith(".") and "s's" not in text
            and re.search(r"[.!?]\s+\S", text) is None)


def assert_plain_sentences(outputs: Iterable[Event]) -> None:
    """Every verdict's reason and every notice's message is one plain sentence."""
    for e in outputs:
        if isinstance(e, Verdict):
            assert is_one_plain_sentence(e.reason), e.reason
        if isinstance(e, Notice):
            assert is_one_plain_sentence(e.message), e.message


def play(game: WormDerby, state: DerbyState, *events: Event) -> tuple[DerbyState, list[Event]]:
    """Steps through events (seq from 10); the final state and every output (every reason
    and message checked to be one plain sentence)."""
    out: list[Event] = []
    for k, e in enumerate(events):
        step = game.step(state, e, 10 + k)
        state = step.state
        out.extend(step.outputs)
    assert_plain_sentences(out)
    return state, out


def roll(player: str, value: str) -> Roll:
    """A roll event."""
    return Roll(player, value)


def seen(*pieces: Piece | Iterable[Piece]) -> SceneSeen:
    """A scene event of the given pieces (lists flattened)."""
    flat: list[Piece] = []
    for p in pieces:
        flat.extend([p] if isinstance(p, Piece) else p)
    return SceneSeen(Scene.of(flat))


def resample(dense: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points along a dense polyline, each the first at least one coin diameter from the last."""
    out = [dense[0]]
    for p in dense[1:]:
        if math.dist(p, out[-1]) >= D:
            out.append(p)
    return out


def lap(x_left: float, x_right: float, pylon_y: float, y0: float = 0.0,
        step_mm: float = 0.05) -> list[tuple[float, float]]:
    """Coin centres about one diameter apart along a lap round the pylon's far side: up
    x = x_left from y0, a half circle centred on (middle, pylon_y), down x = x_right to y0."""
    mid, radius = (x_left + x_right) / 2, (x_right - x_left) / 2
    dense = [(x_left, y0 + k * step_mm) for k in range(int((pylon_y - y0) / step_mm))]
    n = int(math.pi * radius / step_mm)
    dense += [(mid + radius * math.cos(math.pi * (1 - k / n)),
               pylon_y + radius * math.sin(math.pi * (1 - k / n))) for k in range(n + 1)]
    dense += [(x_right, pylon_y - k * step_mm) for k in range(int((pylon_y - y0) / step_mm) + 1)]
    return resample(dense)


OBSTACLE = tile(0, 500)
"""The reading tests' face-down obstacle, far ahead of both worms."""
SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
FIRST = seen(course(obstacles=[OBSTACLE]), SUNS0, MOONS0).scene
"""The reading tests' first table: suns' and moons' worms of six side by side at the start."""

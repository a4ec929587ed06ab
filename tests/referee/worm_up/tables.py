"""Worm Up! tables for the tests: worms as lists of centres, moves made like players make them.

The standard course: start posts at (0, 0) and (300, 0), finish posts at (0, 650) and
(300, 650); worms stand in columns x = 50, 100, ... heading +y, heads 2 mm behind the start line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from referee.record import Referee
from tabletop.events import Bid, Event, SceneSeen, Setup, Verdict
from tabletop.scene import Piece, Scene

D = 20.0  # segment diameter (mm)
START = ((0.0, 0.0), (300.0, 0.0))
FINISH = ((0.0, 650.0), (300.0, 650.0))
Pt = tuple[float, float]


def start_worm(column: int, n: int = 7) -> list[Pt]:
    """A straight worm (tail first) in column ``column``, its head 2 mm behind the start line."""
    x = 50.0 + 50.0 * column
    head_y = -(D / 2 + 2.0)
    return [(x, head_y - D * (n - 1 - i)) for i in range(n)]


def advance(worm: Sequence[Pt], k: int, heading_deg: float | Iterable[float] = 90.0) -> list[Pt]:
    """The worm after moving ``k`` segments tail to head, each laid at ``heading_deg``.

    ``heading_deg`` may be one angle for every new segment or one per segment.
    """
    headings = ([float(heading_deg)] * k if isinstance(heading_deg, int | float)
                else [float(h) for h in heading_deg])
    out = list(worm)
    for h in headings[:k]:
        hx, hy = out[-1]
        out.append((hx + D * math.cos(math.radians(h)), hy + D * math.sin(math.radians(h))))
    return out[k:]


def table(worms: Mapping[str, Sequence[Pt]], posts: Sequence[Pt] = (*START, *FINISH),
          extra: Iterable[Piece] = ()) -> Scene:
    """A scene of the given worms (colour -> centres) and posts."""
    pieces = [Piece("segment", x, y, color=c) for c, pts in worms.items() for x, y in pts]
    pieces += [Piece("post", x, y) for x, y in posts]
    return Scene((*pieces, *extra))


def start_table(players: Sequence[str]) -> dict[str, list[Pt]]:
    """Every player's worm at the start, in columns by seating order."""
    return {p: start_worm(i) for i, p in enumerate(players)}


class Game:
    """A running record for tests: push events, read back what the referee said."""

    def __init__(self, players: Sequence[str] = ("red", "yellow", "green"), **options) -> None:
        self.players = tuple(players)
        self.referee = Referee()
        self.events: list[Event] = []
        self.worms = start_table(self.players)
        self.posts: list[Pt] = [*START, *FINISH]
        self.push(Setup("worm-up", self.players, options))

    def push(self, event: Event) -> tuple[Event, ...]:
        self.events.append(event)
        return self.referee.push(event, len(self.events) - 1)

    def scene(self, worms: Mapping[str, Sequence[Pt]] | None = None,
              posts: Sequence[Pt] | None = None) -> tuple[Event, ...]:
        """Pushes a scene of ``worms`` (default: the current worms) and ``posts``."""
        return self.push(SceneSeen(table(worms if worms is not None else self.worms,
                                         posts if posts is not None else self.posts)))

    def start(self) -> Verdict:
        out = self.scene()
        assert len(out) == 1 and isinstance(out[0], Verdict), out
        return out[0]

    def bids(self, **bids: str | tuple[str, int]) -> tuple[Event, ...]:
        """Pushes one bid per player (``red="5"`` or ``red=("X", 6)``); returns every output."""
        out: list[Event] = []
        for p, b in bids.items():
            if isinstance(b, tuple):
                out += self.push(Bid(p, b[0], b[1]))
            else:
                out += self.push(Bid(p, b))
        return tuple(out)

    def move(self, player: str, k: int, heading_deg: float | Iterable[float] = 90.0,
             posts: Sequence[Pt] | None = None) -> tuple[Event, ...]:
        """Moves ``player``'s worm ``k`` segments and pushes the scene; keeps it if legal."""
        new = dict(self.worms)
        new[player] = advance(self.worms[player], k, heading_deg)
        out = self.scene(new, posts)
        verdicts = [e for e in out if isinstance(e, Verdict)]
        if verdicts and verdicts[0].legal:
            self.worms = new
            if posts is not None:
                self.posts = list(posts)
        return out

    @property
    def state(self):
        return self.referee.state


def verdict(out: Sequence[Event]) -> Verdict:
    """The one verdict among outputs."""
    vs = [e for e in out if isinstance(e, Verdict)]
    assert len(vs) == 1, out
    return vs[0]


def without(scene: Scene, *indices: int) -> Scene:
    """The scene with the pieces at ``indices`` not seen."""
    return replace(scene, pieces=tuple(p for i, p in enumerate(scene.pieces)
                                       if i not in indices))


def moved(g: Game, player: str, k: int) -> Scene:
    """The table after the start and bids of 4, 5 and 6 (red, yellow, green), with ``player``'s
    worm moved ``k`` steps."""
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    worms = dict(g.worms)
    worms[player] = advance(g.worms[player], k)
    return table(worms, g.posts)


def green_moves_7_next() -> tuple[Game, list[Pt]]:
    """Round 1 of red, yellow and green, bid 4, 5 and 7, red and yellow moved: green's move of
    7 comes next. Returns the game and where that move leaves green's worm."""
    g = Game(("red", "yellow", "green"))
    assert g.start().legal
    g.bids(red="4", yellow="5", green="7")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    return g, advance(g.worms["green"], 7)

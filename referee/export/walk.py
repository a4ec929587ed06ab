"""One walk through a game record: each input event, what the referee said, and what changed.

:func:`walk` folds the record through :class:`referee.record.Referee` (the same verdicts as
``tabletop referee``) and returns one :class:`Entry` per input event: a readable line, the
verdict, the accepted table before and after, and whether a later undo took it back. The move
list, the PPN and the diagrams are all written from it.

>>> from tabletop.events import Roll, Setup
>>> entries = walk([Setup("worm-derby", ("suns", "moons")), Roll("suns", "4")])
>>> [e.text for e in entries]
['Worm Derby (basic): suns, moons', 'suns rolls 4']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from referee.record import Referee
from tabletop.errors import InputError
from tabletop.events import (
    Accept,
    Bid,
    Correction,
    Event,
    Move,
    Roll,
    SceneSeen,
    Setup,
    Undo,
    Undone,
    Verdict,
)
from tabletop.scene import Scene

GAME_TITLES = {"worm-derby": "Worm Derby", "worm-up": "Worm Up!", "jungle": "The Animal Game"}
COMPASS = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")
"""Headings on the diagram (x to the right, y down the screen: "N" is up the diagram)."""


@dataclass(frozen=True)
class Entry:
    """One input event of a game and what came of it.

    Attributes:
        seq: The event's position in the record.
        kind: The input's type (``setup``, ``roll``, ``scene``, ``move``, ``undo``...).
        player: Whose event it was (or whose verdict), if anyone's.
        text: The entry as a readable line (``suns rolls 4``, ``suns: 4 steps forward...``,
            ``a3a4``).
        verdicts: The verdicts given on it.
        before: The accepted table before it (None before the first).
        after: The accepted table after it.
        move: For a Worm Derby move: ``{"steps", "forward", "coins": [[from, to], ...]}``;
            for Jungle: ``{"move": "a3a4"}``.
        undone: Whether a later undo took its verdict back.
    """

    seq: int
    kind: str
    player: str | None
    text: str
    verdicts: tuple[Verdict, ...] = ()
    before: Scene | None = None
    after: Scene | None = None
    move: dict[str, Any] | None = None
    undone: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool | None:
        """False when a verdict on it says not legal, True when they all say legal."""
        return None if not self.verdicts else all(v.legal for v in self.verdicts)


def heading(a: tuple[float, float], b: tuple[float, float]) -> str:
    """The compass word from ``a`` to ``b`` on the diagram (y down: north is up).

    >>> heading((0, 0), (0, -10)), heading((0, 0), (10, 10))
    ('N', 'SE')
    """
    ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360
    return COMPASS[int((ang + 22.5) // 45) % 8]


def _table(referee: Referee) -> Scene | None:
    t = getattr(referee.state, "table", None)
    return t if isinstance(t, Scene) else None


def _title(setup: Setup) -> str:
    name = GAME_TITLES.get(setup.game, setup.game)
    opts = dict(setup.options)
    bits = []
    if setup.game == "worm-derby":
        bits.append(str(opts.get("variant", "basic")) + (", cannibal" if opts.get("cannibal")
                                                           else ""))
    elif setup.game == "jungle":
        bits += [k for k, v in opts.items() if v is True]
    return f"{name}{' (' + ', '.join(bits) + ')' if bits else ''}: {', '.join(setup.players)}"


def _worm_move(before: Any, after: Any, player: str) -> dict[str, Any] | None:
    """A Worm Derby move read from the referee's worm tracks before and after."""
    from referee.worm_derby.inference import InferredMove, infer_move

    try:
        old, new = before.worm(player).coins_mm, after.worm(player).coins_mm
    except (AttributeError, KeyError):
        return None
    if len(old) != len(new) or not old:
        return None
    m = infer_move(old, new, 4.0)
    if not isinstance(m, InferredMove):
        return None
    chain = [new[i] for i in m.new_order]
    placed = [chain[i] for i in m.placed_at]
    taken = list(old if m.forward else old[::-1])[:len(placed)]
    head_before = old[-1] if m.forward else old[0]
    return {"steps": m.steps, "forward": m.forward, "head": chain[-1],
            "heading": heading(head_before, chain[-1]),
            "coins": [[list(a), list(b)] for a, b in zip(taken, placed, strict=False)]}


def _fmt(p: tuple[float, float]) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f})"


def _entry_text(event: Event, entry: Entry) -> str:
    if isinstance(event, Roll):
        return f"{event.player} rolls {event.value}"
    if isinstance(event, Bid):
        return f"{event.player} bids {event.bid}" + (f" ({event.number})" if event.number else "")
    if isinstance(event, Move):
        return f"{event.player}: {event.from_square}{event.to_square}"
    if isinstance(event, Accept):
        return "the table is accepted as it is"
    if isinstance(event, Undo):
        return "undo"
    m = entry.move
    who = entry.player or "the table"
    if m and "steps" in m:
        way = "forward (tail to head)" if m["forward"] else "backward (head end to tail)"
        s = "step" if m["steps"] == 1 else "steps"
        return f"{who}: {m['steps']} {s} {way}, heading {m['heading']}, head at {_fmt(m['head'])}"
    if m and "move" in m:
        return f"{who}: {m['move']}"
    v = next(iter(entry.verdicts), None)
    lead = "correction: " if isinstance(event, Correction) else ""
    return f"{lead}{who}: {v.reason}" if v is not None else f"{lead}table seen"


def walk(events: Iterable[Event]) -> list[Entry]:
    """Every input event of a record with what came of it (``seq``: position in ``events``).

    Raises:
        InputError: the record does not start with a setup.
    """
    referee = Referee()
    out: list[Entry] = []
    by_seq: dict[int, int] = {}
    for seq, event in enumerate(events):
        if not event.is_input:
            continue
        if referee.game is None and not isinstance(event, Setup):
            raise InputError("a game record must begin with a setup event")
        before_state, before = referee.state, _table(referee)
        before_moves = list(referee.describe().get("moves") or [])
        outputs = referee.push(event, seq)
        verdicts = tuple(o for o in outputs if isinstance(o, Verdict))
        for o in outputs:
            if isinstance(o, Undone) and o.undone_seq in by_seq:
                k = by_seq[o.undone_seq]
                out[k] = replace(out[k], undone=True)
        player = getattr(event, "player", None) or next(
            (v.player for v in verdicts if v.player), None)
        entry = Entry(seq, event.type, player, "", verdicts, before, _table(referee))
        if isinstance(event, Setup):
            out.append(replace(entry, text=_title(event), extra={"setup": event}))
            by_seq[seq] = len(out) - 1
            continue
        if isinstance(event, SceneSeen) and event.scene.hand:
            continue
        legal_move = verdicts and all(v.legal for v in verdicts) and player
        if referee.game is not None and referee.game.name == "jungle":
            moves = list(referee.describe().get("moves") or [])
            if len(moves) > len(before_moves):
                entry = replace(entry, move={"move": moves[-1]})
        elif legal_move and isinstance(event, SceneSeen | Correction):
            entry = replace(entry, move=_worm_move(before_state, referee.state, str(player)))
        out.append(replace(entry, text=_entry_text(event, entry)))
        by_seq[seq] = len(out) - 1
    return out

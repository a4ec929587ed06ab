"""The live table: the current game, its referee and its log, behind one lock.

Everything that changes the game goes through :meth:`Table.submit` (the pipeline's stable scenes,
the dashboard's rolls, accepts and undos, the phones' revealed bids): the event is judged by the
:class:`referee.record.Referee`, the event and its outputs are committed to the
:class:`live.log.GameLog`, and only then published on the :class:`live.bus.Bus` for the pages.

On start the table resumes the log's latest game by replaying its stored input events through a
fresh referee, so ``tabletop serve --db LOG`` goes on where it stopped.
"""

from __future__ import annotations

import copy
import math
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from live.bus import Bus
from live.log import GameLog
from referee.record import Referee
from referee.registry import make_game
from tabletop.errors import InputError, RecordFormatError, TabletopError
from tabletop.events import (
    Accept,
    Bid,
    Correction,
    Doubt,
    Event,
    Finish,
    Notice,
    SceneSeen,
    Setup,
    Undo,
    Undone,
    Verdict,
    Winner,
    dumps_record,
)
from tabletop.pieceset import DEFAULT_PIECES
from tabletop.scene import Scene

RECENT_VERDICTS = 30
RING_MM = {"tile": 40.0, "token": 24.0, "coin": 15.0, "segment": 15.0, "post": 12.0}
"""Radius of the ring drawn round an offending piece on the camera picture, by kind."""


class NoGame(InputError):
    """An event arrived before any game was set up."""


class LogWriteError(TabletopError):
    """The log could not store an event (disk full, file gone): the event did not happen."""


@dataclass(frozen=True)
class Submitted:
    """What :meth:`Table.submit` stored: the input event at ``seq`` and its outputs."""

    game_id: int
    seq: int
    event: Event
    outputs: tuple[tuple[int, Event], ...]

    def to_json(self) -> dict[str, Any]:
        """The stored event (with its ``seq``) and its outputs, as JSON."""
        return {"game_id": self.game_id, "seq": self.seq, "event": self.event.to_json(),
                "outputs": [{**e.to_json(), "position": s} for s, e in self.outputs]}


def _stamp(event: Event, t: float) -> Event:
    return event if event.t is not None else replace(event, t=t)  # type: ignore[type-var]


class Table:
    """The game being played on this table.

    Args:
        log: Where every event goes.
        bus: Where the pages hear about them.
        snapshot: Returns a small JPEG of the table now (or None); stored with each verdict.
    """

    def __init__(self, log: GameLog, bus: Bus,
                 snapshot: Callable[[], bytes | None] | None = None) -> None:
        self.log = log
        self.bus = bus
        self.snapshot = snapshot or (lambda: None)
        self._lock = threading.RLock()
        self.referee = Referee()
        self.game_id: int | None = None
        self.next_seq = 0
        self._outputs: list[tuple[int, Event]] = []
        self._judged: dict[int, Scene] = {}
        self._last_table: Scene | None = None
        self.last_fit: dict[str, Any] | None = None
        self.to_image: Callable[[Any], Any] | None = None
        self.image_size: tuple[int, int] | None = None
        self._game_listeners: list[Callable[[Any], None]] = []
        self._resume()

    def on_game(self, listener: Callable[[Any], None]) -> None:
        """Calls ``listener(game)`` whenever a game starts (a setup from the page, the API or a
        recording) and now for the game resumed from the log, so vision looks for that game's
        pieces at its sizes."""
        with self._lock:
            self._game_listeners.append(listener)
            game = self.referee.game
        if game is not None:
            listener(game)

    def _game_started(self) -> None:
        game = self.referee.game
        if game is not None:
            for listener in list(self._game_listeners):
                listener(game)

    # ------------------------------------------------------------------ resume

    def _resume(self) -> None:
        game_id = self.log.latest_game()
        if game_id is not None:
            self._load(game_id)

    def _load(self, game_id: int) -> None:
        referee = Referee()
        outputs: list[tuple[int, Event]] = []
        judged: dict[int, Scene] = {}
        next_seq = 0
        for seq, event in self.log.event_rows(game_id):
            next_seq = seq + 1
            if not event.is_input:
                outputs.append((seq, event))
                continue
            try:
                referee.push(event, seq)
            except RecordFormatError:
                continue  # a stored event the current rules refuse: keep the rest going
            if isinstance(event, SceneSeen | Correction) and referee.last_scene is not None:
                judged[seq] = referee.last_scene
        game_before = self.referee.game
        self.referee, self.game_id, self.next_seq = referee, game_id, next_seq
        self._outputs, self._judged = outputs, judged
        self._last_table = self._table_of(referee)
        if referee.game is not None and (game_before is None
                                         or game_before.setup != referee.game.setup):
            self._game_started()

    # ------------------------------------------------------------------ changing

    def submit(self, event: Event, jpeg: bytes | None = None) -> Submitted:
        """Judges, stores and publishes one input event.

        Args:
            event: Any input event; a setup starts a new game.
            jpeg: A picture of the table to keep with a verdict (default: ``snapshot()``).

        Raises:
            InputError: not an input event, no game yet, or a setup the game refuses.
        """
        if not event.is_input:
            raise InputError(f"a {event.type!r} event is the referee's output, not an input")
        with self._lock:
            event = _stamp(event, time.time())
            if isinstance(event, Setup):
                return self._new_game(event)
            if self.game_id is None:
                raise NoGame("no game is set up yet: start a new game first")
            seq = self.next_seq
            outputs = self.referee.push(event, seq)
            t = time.time()
            positioned = tuple((seq + 1 + i, _stamp(o, t)) for i, o in enumerate(outputs))
            judged = None
            if isinstance(event, SceneSeen | Correction) and not getattr(
                    getattr(event, "scene", None), "hand", False):
                judged = self.referee.last_scene
            table = self._table_of(self.referee)
            scene_row = None
            if table is not None and table != self._last_table:
                scene_row = (seq, table)
            picture = None
            if any(isinstance(o, Verdict) for o in outputs):
                data = jpeg if jpeg is not None else self.snapshot()
                picture = (seq, data) if data else None
            try:
                self.log.append(self.game_id, [(seq, event), *positioned], scene_row, picture)
            except sqlite3.Error as exc:  # not stored, so not judged: back to what the log holds
                self._load(self.game_id)
                raise LogWriteError(f"the event could not be stored in the log ({exc}); "
                                    f"nothing was changed") from None
            self.next_seq = seq + 1 + len(outputs)
            self._outputs.extend(positioned)
            if isinstance(event, Undo | Accept) or any(isinstance(o, Verdict) for o in outputs):
                self.last_fit = None  # a gap answer is about the table it was asked on
            if judged is not None:
                self._judged[seq] = judged
            self._last_table = table
            done = Submitted(self.game_id, seq, event, positioned)
            self._publish(done)
            return done

    def preview(self, event: Event) -> tuple[Event, ...]:
        """What the referee would say about an input event now, without judging it (nothing
        is stored or changed): the pipeline reads a still table twice before one it would
        doubt or call a foul on is judged."""
        with self._lock:
            if self.referee.game is None or not event.is_input or isinstance(event, Setup):
                return ()
            trial = copy.copy(self.referee)
            trial.outputs = []
            trial._history = list(self.referee._history)
            return trial.push(event, self.next_seq)

    def _new_game(self, setup: Setup) -> Submitted:
        make_game(setup)  # raises RecordFormatError (an InputError) for a setup it refuses
        game_id = self.log.new_game(setup)
        self.referee = Referee()
        self.referee.push(setup, 0)
        self.game_id, self.next_seq = game_id, 1
        self._outputs, self._judged, self._last_table = [], {}, None
        self.last_fit = None
        done = Submitted(game_id, 0, setup, ())
        self._game_started()
        self.bus.publish("game", self.state())
        return done

    def set_fit(self, fit: dict[str, Any]) -> None:
        """Remembers the last gap check (drawn on the diagram) and tells the pages."""
        with self._lock:
            self.last_fit = fit
        self.bus.publish("fit", fit)

    def _publish(self, done: Submitted) -> None:
        event = _brief(done.event)
        if isinstance(done.event, Bid) and not _reveals(done):
            event = _secret_bid(done.event)  # secret until every player has bid
        self.bus.publish("input", {"game_id": done.game_id, "seq": done.seq, "event": event})
        for seq, out in done.outputs:
            self.bus.publish(out.type, self._output_json(seq, out))
        self.bus.publish("table", self.state(verdicts=False))

    # ------------------------------------------------------------------ reading

    @property
    def accepted(self) -> Scene | None:
        """The last accepted table (None before the first): vision confirms pieces there."""
        with self._lock:
            return self._last_table

    @staticmethod
    def _table_of(referee: Referee) -> Scene | None:
        table = getattr(referee.state, "table", None)
        return table if isinstance(table, Scene) else None

    def _output_json(self, position: int, out: Event) -> dict[str, Any]:
        d = {**out.to_json(), "position": position}
        if isinstance(out, Verdict | Doubt):
            scene = self._judged.get(out.seq)
            d["judged_scene"] = None if scene is None else scene.to_json()
            if scene is not None and not getattr(out, "legal", False) and \
                    self.to_image is not None:
                d.update(self.pixels_of(scene, out))
        return d

    def pixels_of(self, scene: Scene, verdict: Verdict | Doubt) -> dict[str, Any]:
        """Where a verdict's or a doubt's pieces (and its point) are in the camera picture."""
        idx = [i for i in verdict.pieces if 0 <= i < len(scene.pieces)]
        points = [(*scene.pieces[i].centre_mm, RING_MM.get(scene.pieces[i].kind, 16.0))
                  for i in idx]
        if verdict.where is not None:
            points.append((*verdict.where, 12.0))
        if not points or self.to_image is None:
            return {}
        out = []
        for x, y, ring_mm in points:
            (u, v), (u2, v2) = self.to_image([[x, y], [x + ring_mm, y]])
            out.append([float(u), float(v), float(max(math.hypot(u2 - u, v2 - v), 10.0))])
        return {"pieces_px": out, "image_size": list(self.image_size or ())}

    def state(self, verdicts: bool = True) -> dict[str, Any]:
        """The dashboard's view of the game (the core of ``/api/state``)."""
        with self._lock:
            described = self.referee.describe()
            table = self._last_table
            last_seen = self.referee.last_scene
            out: dict[str, Any] = {
                **described,
                "game_id": self.game_id,
                "next_seq": self.next_seq,
                "scene": None if table is None else table.to_json(),
                "last_seen": None if last_seen is None else last_seen.to_json(),
                "fit": self.last_fit,
                "sizes": (self.referee.game.pieces if self.referee.game is not None
                          else DEFAULT_PIECES).to_json(),
                "finished": [e.to_json() for _, e in self._outputs if isinstance(e, Finish)],
                "winner": next((e.player for _, e in reversed(self._outputs)
                                if isinstance(e, Winner)), None),
            }
            if verdicts:
                undone = {e.undone_seq: s for s, e in self._outputs if isinstance(e, Undone)}
                recent = [(s, e) for s, e in self._outputs if isinstance(e, Verdict)]
                out["verdicts"] = [{**self._output_json(s, e), "undone": e.seq in undone,
                                    "undone_by": undone.get(e.seq)}
                                   for s, e in reversed(recent[-RECENT_VERDICTS:])]
                out["undone"] = [e.to_json() | {"position": s} for s, e in self._outputs
                                 if isinstance(e, Undone)][-RECENT_VERDICTS:]
                history = getattr(self.referee, "_history", None)
                out["undo_next"] = history[-1].seq if history else None
                notes = [(s, e) for s, e in self._outputs if isinstance(e, Notice)]
                out["notices"] = [self._output_json(s, e)
                                  for s, e in reversed(notes[-RECENT_VERDICTS:])]
                doubts = [(s, e) for s, e in self._outputs if isinstance(e, Doubt)]
                out["doubts"] = [self._output_json(s, e)
                                 for s, e in reversed(doubts[-RECENT_VERDICTS:])]
            out["doubt"] = self._open_doubt()
            return out

    def _open_doubt(self) -> dict[str, Any] | None:
        """The latest doubt when nothing was judged since (the table is asked to confirm or
        fix it), else None."""
        for position, out in reversed(self._outputs):
            if isinstance(out, Doubt):
                return self._output_json(position, out)
            if isinstance(out, Verdict):
                return None
        return None

    def record(self, game_id: int | None = None, public: bool = False) -> str:
        """A game's record as JSON Lines (default: the current game; empty when none).
        ``public``: for the pages, without the bids not yet revealed (:meth:`secret_bids`)."""
        gid = self.game_id if game_id is None else game_id
        if gid is None:
            return ""
        secret = self.secret_bids() if public and gid == self.game_id else frozenset()
        if not secret:
            return self.log.record(gid)
        return dumps_record(e for s, e in self.log.event_rows(gid) if s not in secret)

    def secret_bids(self) -> frozenset[int]:
        """The seqs of the current game's bids not revealed yet (a round still being bid):
        no page shows them (the log keeps them, so a replay judges them)."""
        with self._lock:
            if self.game_id is None or not getattr(self.referee.state, "bids", ()):
                return frozenset()
            game_id = self.game_id
        secret: set[int] = set()
        for seq, event in self.log.event_rows(game_id):
            if isinstance(event, Bid):
                secret.add(seq)
            elif _is_reveal(event):
                secret.clear()
        return frozenset(secret)


def _is_reveal(event: Event) -> bool:
    """Whether ``event`` is a round's reveal (a notice holding every bid)."""
    return isinstance(event, Notice) and event.data is not None and "bids" in event.data


def _reveals(done: Submitted) -> bool:
    """Whether the outputs of a submitted event reveal a round's bids."""
    return any(_is_reveal(out) for _, out in done.outputs)


def _secret_bid(bid: Bid) -> dict[str, Any]:
    """A bid for the stream before the reveal: who has bid, never what."""
    d: dict[str, Any] = {"type": "bid", "player": bid.player,
                         "message": f"{bid.player} has bid"}
    if bid.t is not None:
        d["t"] = bid.t
    return d


def _brief(event: Event) -> dict[str, Any]:
    """An input event for the stream (a scene without its pieces, which can be many)."""
    d = event.to_json()
    if isinstance(event, SceneSeen):
        d = {"type": "scene", "pieces": len(event.scene.pieces), "hand": event.scene.hand}
        if event.t is not None:
            d["t"] = event.t
    return d

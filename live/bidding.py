"""Worm Up! secret bids from the players' phones.

Each player joins ``/play`` with the table's join code and their colour, and bids. Until every
player has bid, a player's page sees only their own bid (and who has bid, never what); nothing
about the bids goes into the log or onto the stream. When the last bid is in, the bids are
revealed at once: they are submitted to the table as ``bid`` events (in the players' order, so the
referee judges them as a record would) and the reveal (cancellations, move order) is published for
every page.

The secret-keeping itself is :class:`referee.worm_up.bidding.SecretBids` (``submit``,
``has_bid``, ``all_in``, ``view_for``, ``reveal``), built from the referee's state; this module
adds the phones, the log and the stream.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from live.bus import Bus
from live.table import Table
from tabletop.errors import InputError
from tabletop.events import BIDS, Bid, Notice, Verdict

WORM_UP = "worm-up"


class BidError(InputError):
    """A bid or a join that cannot be taken (wrong code, unknown colour, not bidding now)."""


def _secret_bids(game: Any, state: Any) -> Any:
    """The round's secret-bid box, holding the bids the referee already has (typed in)."""
    if hasattr(game, "secret_bids"):
        return game.secret_bids(state)
    from referee.worm_up.bidding import SecretBids

    return SecretBids(game.players)


class BidRoom:
    """The bidding of the current Worm Up! game.

    The box of secret bids is rebuilt from the referee's state whenever the game or the round
    changes (so a restart or an undo never leaves a second truth); bids from phones live only
    in the box until the reveal.

    Args:
        table: Where revealed bids go as ``bid`` events.
        bus: Where "someone has bid" and the reveal are announced.
        factory: Makes the round's secret-bid box from ``(game, game state)``.
    """

    def __init__(self, table: Table, bus: Bus,
                 factory: Callable[[Any, Any], Any] | None = None) -> None:
        self.table = table
        self.bus = bus
        self.factory = factory or _secret_bids
        self._lock = threading.Lock()
        self._box: Any = None
        self._key: tuple[Any, ...] | None = None
        self._from_phones: set[str] = set()
        self.last_reveal: dict[str, Any] | None = None

    def _game(self) -> Any:
        game = self.table.referee.game
        if game is None or game.name != WORM_UP:
            raise BidError("bids are taken only during a game of Worm Up!")
        return game

    def _current_box(self) -> Any:
        game = self._game()
        state = self.table.referee.state
        key = (self.table.game_id, getattr(state, "round", None), getattr(state, "phase", None))
        if self._box is None or self._key != key:
            self._box = self.factory(game, state)
            self._key = key
            self._from_phones = set()
        return self._box

    def check_player(self, player: str) -> str:
        """The player's colour when it plays in the current Worm Up! game."""
        players = tuple(self._game().players)
        if player not in players:
            raise BidError(f"{player!r} does not play in this game (players: "
                           f"{', '.join(players)})")
        return player

    def _check_with_referee(self, bid: Bid) -> None:
        """Asks the (pure) referee whether this bid may be made now, without logging it."""
        game = self._game()
        step = game.step(self.table.referee.state, bid, self.table.next_seq)
        for out in step.outputs:
            if isinstance(out, Verdict) and not out.legal:
                raise BidError(out.reason)

    def bid(self, player: str, bid: str, number: int | None = None) -> dict[str, Any]:
        """Takes (or changes) one player's secret bid; reveals the round after the last one.

        Returns:
            The player's own view after the bid.
        """
        if bid not in BIDS:
            raise BidError(f"a bid is one of {', '.join(BIDS)}, not {bid!r}")
        revealed = None
        with self._lock:
            self.check_player(player)
            box = self._current_box()
            self._check_with_referee(Bid(player, bid, number))
            box.submit(player, bid, number)  # its BidError is an InputError too
            self._from_phones.add(player)
            if box.all_in():
                revealed = self._reveal(box)
        if revealed is None:
            self.bus.publish("bids", self.status())
        else:
            self.bus.publish("reveal", revealed)
        return self.view(player)

    def _reveal(self, box: Any) -> dict[str, Any]:
        round_no = box.round
        result = box.reveal()
        notice: Notice | None = None
        refused: list[dict[str, Any]] = []
        phones = self._from_phones
        for player, tile in result.bids:
            if player not in phones:
                continue  # typed in earlier: already in the record
            done = self.table.submit(Bid(player, tile, result.numbers.get(player)))
            for _, out in done.outputs:
                if isinstance(out, Notice):
                    notice = out
                elif isinstance(out, Verdict) and not out.legal:
                    refused.append(out.to_json())
        data = dict(notice.data) if notice is not None and notice.data else result.to_json()
        self.last_reveal = {**_plain(data), "round": round_no,
                            "summary": notice.message if notice is not None
                            else result.summary(round_no),
                            "refused": refused}
        self._box, self._key = None, None
        return self.last_reveal

    def _public(self, view: dict[str, Any]) -> dict[str, Any]:
        """Adds what the referee says about the round: its phase and who moves next."""
        described = self.table.referee.describe()
        view["active"] = True
        view["phase"] = described.get("phase")
        view["open"] = described.get("phase") == "bidding"
        view["next"] = described.get("next") or []
        view["move_order"] = described.get("move_order") or []
        view["last_reveal"] = self.last_reveal
        if view["last_reveal"] is None and described.get("last_reveal"):
            view["last_reveal"] = _plain(described["last_reveal"])
        return view

    def status(self) -> dict[str, Any]:
        """What everyone may see: the round, who has bid (never what) and the last reveal."""
        try:
            self._game()
        except BidError:
            return {"active": False}
        with self._lock:
            view = self._current_box().view_for(None)
        return self._public(view)

    def view(self, player: str) -> dict[str, Any]:
        """One player's view: who has bid, their own bid (and only theirs), the last reveal."""
        with self._lock:
            self.check_player(player)
            view = self._current_box().view_for(player)
        return self._public(view)


def _plain(obj: Any) -> Any:
    """Frozen mappings and tuples (a notice's data) as plain JSON values."""
    if hasattr(obj, "items"):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    return obj

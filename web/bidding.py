"""Worm Up! secret bids from the players' phones.

Each player joins ``/play`` with the table's join code and their colour, and bids. Until every
player has bid, a player's page sees only their own bid (and who has bid, never what); nothing
about the bids goes into the log or onto the stream. When the last bid is in, the bids are
revealed at once: they are submitted to the table as ``bid`` events (in the players' order, so the
referee judges them as a record would) and the reveal (cancellations, move order) is published for
every page.

The secret-keeping itself is :class:`referee.worm_up.bidding.SecretBids` (``submit``,
``has_bid``, ``all_in``, ``view_for``, ``reveal``); this module adds players, rounds and the log.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from tabletop.errors import InputError
from tabletop.events import BIDS, Bid
from web.bus import Bus
from web.table import Table

WORM_UP = "worm-up"


class BidError(InputError):
    """A bid or a join that cannot be taken (wrong code, unknown colour, not bidding now)."""


def _secret_bids(players: Sequence[str], state: Any) -> Any:
    """The game's secret-bid box, its tiles taken from the game state when it knows them."""
    from referee.worm_up.bidding import Rack, SecretBids

    rack = getattr(state, "rack", None)
    round_no = getattr(state, "round", None)
    if not isinstance(rack, Rack) or rack.players != tuple(players):
        rack = None
    if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
        round_no = 1
    return SecretBids(players, rack, round_no)


class BidRoom:
    """The bidding of the current Worm Up! game.

    Args:
        table: Where revealed bids go as ``bid`` events.
        bus: Where "someone has bid" and the reveal are announced.
        factory: Makes the game's secret-bid box from ``(players, game state)``.
    """

    def __init__(self, table: Table, bus: Bus,
                 factory: Callable[[Sequence[str], Any], Any] | None = None) -> None:
        self.table = table
        self.bus = bus
        self.factory = factory or _secret_bids
        self._lock = threading.Lock()
        self._box: Any = None
        self._box_game: int | None = None
        self.last_reveal: dict[str, Any] | None = None

    def _players(self) -> tuple[str, ...]:
        game = self.table.referee.game
        if game is None or game.name != WORM_UP:
            raise BidError("bids are taken only during a game of Worm Up!")
        return tuple(game.players)

    def _current_box(self) -> Any:
        players = self._players()
        if self._box is None or self._box_game != self.table.game_id:
            try:
                self._box = self.factory(players, self.table.referee.state)
            except ImportError:
                raise BidError("the Worm Up! referee is not installed") from None
            self._box_game = self.table.game_id
            self.last_reveal = None
        return self._box

    def check_player(self, player: str) -> str:
        """The player's colour when it plays in the current Worm Up! game."""
        players = self._players()
        if player not in players:
            raise BidError(f"{player!r} does not play in this game (players: "
                           f"{', '.join(players)})")
        return player

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
            box.submit(player, bid, number)  # its BidError is an InputError
            if box.all_in():
                revealed = self._reveal(box)
        if revealed is None:
            self.bus.publish("bids", self.status())
        else:
            self.bus.publish("reveal", revealed)
        return self.view(player)

    def _reveal(self, box: Any) -> dict[str, Any]:
        result = box.reveal()
        stored = []
        for player, tile in result.bids:
            done = self.table.submit(Bid(player, tile, result.numbers.get(player)))
            stored.append(done.to_json())
        self.last_reveal = {"round": box.round - 1, **result.to_json(),
                            "summary": result.summary(), "stored": stored}
        return self.last_reveal

    def status(self) -> dict[str, Any]:
        """What everyone may see: the round, who has bid (never what) and the last reveal."""
        try:
            self._players()
        except BidError:
            return {"active": False}
        with self._lock:
            box = self._current_box()
            view = box.view_for(None)
        view["active"] = True
        view["last_reveal"] = self.last_reveal
        return view

    def view(self, player: str) -> dict[str, Any]:
        """One player's view: who has bid, their own bid (and only theirs), the last reveal."""
        with self._lock:
            self.check_player(player)
            view = self._current_box().view_for(player)
        view["active"] = True
        view["last_reveal"] = self.last_reveal
        return view

"""What part of a reading a foul's evidence needs: a foul called on a reading that is
incomplete elsewhere.

A reading with a piece not seen is *incomplete*: it may only confirm a legal move, and a foul
found on it is asked about (a doubt), because the piece not seen might change the verdict. But
some fouls rest on pieces that are seen, whatever the pieces not seen are. Rule by rule:

- ``turn`` (a worm moved out of turn, :func:`moved_out_of_turn`): the evidence is that worm's
  own coins, read with its suit, lying where none of its coins lay (and where no coin lay at
  all), at least :data:`MOVED_COINS` of them, and the coins of that worm read as one chain,
  all of it or all but one coin (one chain, or two with the one gap a single coin fills
  between them: the coin not seen lies there); or, read all but one coin, one coin in a new
  place and at least :data:`MOVED_COINS` places where its coins lay with no coin read there
  (the one coin not seen leaves one place empty at most: its head laid and not seen after a
  move of two). A tile or a coin of another worm not seen
  changes nothing: that worm moved, and it was not its player's move. A piece not seen is
  never the evidence.
- the mover's own coins' fouls (``steps``, ``shape``, ``overlap``...): the mover's worm read
  whole (see :meth:`referee.worm_derby.game.WormDerby._foul_read_whole`).

>>> from tabletop.scene import Piece, Scene
>>> old = Scene.of([Piece("coin", 0, 0, suit="moons"), Piece("coin", 19.1, 0, suit="moons"),
...                 Piece("coin", 0, 100, suit="suns"), Piece("coin", 19.1, 100, suit="suns")])
>>> new = Scene.of([Piece("coin", 38.2, 0, suit="moons"), Piece("coin", 57.3, 0, suit="moons"),
...                 Piece("coin", 0, 100, suit="suns")])
>>> moved_out_of_turn(old, new, "suns", {"suns": 2, "moons": 2}, 19.05)
('moons', (0, 1))
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import replace

from referee.worm_derby.reading import STAYED_SHARE, ReadingRules, one_coin_gaps
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.worms import extract_worm
from tabletop.scene import Scene

MOVED_COINS = 2
"""Coins of a worm read in new places that show it moved: one such coin may be a misread
(a coin of another worm read with its suit, a coin read far off); two are a move."""

def moved_out_of_turn(table: Scene, reading: Scene, allowed: str | None,
                      lengths: Mapping[str, int], coin_mm: float,
                      unsure: Collection[str] = (),
                      settings: WormSettings = DEFAULT_SETTINGS, tile_mm: float = 50.8
                      ) -> tuple[str, tuple[int, ...]] | None:
    """A worm that moved when its player may not move, shown by its own coins alone.

    Args:
        table: The accepted table.
        reading: The camera's reading (indices of the answer are into it).
        allowed: The player who may move now (None: nobody).
        lengths: Coins of each worm in the race.
        coin_mm: Coin diameter.
        unsure: Players whose worm was not read whole since it last moved (where it lies is
            not known: never evidence).
        settings: Worm Derby's settings (what touching is).
        tile_mm: A tile's side (a coin not seen never lies on a tile).

    Returns:
        ``(player, indices of its coins read in new places)`` for the first such worm in
        ``lengths`` order, else None.
    """
    stayed = STAYED_SHARE * coin_mm
    old_coins = [p for p in table.pieces if p.kind == "coin"]
    for player, n in lengths.items():
        if player == allowed or player in unsure:
            continue
        mine = [i for i, p in enumerate(reading.pieces)
                if p.kind == "coin" and p.suit == player and p.face != "down"]
        if not n - 1 <= len(mine) <= n or len(mine) < MOVED_COINS:
            continue
        if not extract_worm(reading, player, coin_mm, settings).ok and not (
                len(mine) == n - 1 and _whole_with_one_coin(reading, player, mine, lengths,
                                                             coin_mm, tile_mm, settings)):
            continue
        came = tuple(i for i in mine if all(
            math.dist(reading.pieces[i].centre_mm, q.centre_mm) > stayed for q in old_coins))
        if len(came) >= MOVED_COINS:
            return player, came
        left = [p for p in old_coins if p.suit == player and all(
            math.dist(p.centre_mm, q.centre_mm) > stayed
            for q in reading.pieces if q.kind == "coin")]
        if came and len(mine) == n - 1 and len(left) >= MOVED_COINS:
            return player, came  # one coin not seen cannot have left two places empty
    return None


def _whole_with_one_coin(reading: Scene, player: str, mine: list[int],
                         lengths: Mapping[str, int], coin_mm: float, tile_mm: float,
                         settings: WormSettings) -> bool:
    """Whether a worm read one coin short is one chain with a coin in the one gap a single
    coin fills between its coins (:func:`referee.worm_derby.reading.one_coin_gaps`)."""
    rules = ReadingRules(coin_mm, tile_mm, lengths, player, frozenset(lengths),
                         same_place_mm=settings.same_place_mm)
    places = one_coin_gaps([(i, reading.pieces[i].centre_mm) for i in mine],
                           list(reading.pieces), player, rules)
    if len(places) != 1:
        return False
    filled = replace(reading, pieces=(*reading.pieces, places[0]))
    return extract_worm(filled, player, coin_mm, settings).ok

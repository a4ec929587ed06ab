"""A coin read without a suit lent the suit of the one worm a coin short.

Coins are conserved: a worm keeps its coins (only a Cannibal eats one). When the camera reads a
coin but not its suit (a moon in a shadow read as a coin lying value up, say) and exactly one
worm shows as many coins too few as there are such coins, each lying within reach of that worm,
the game itself says whose they are. The suit is lent, the coin keeps its place and its index
(verdicts still name the camera's pieces), and the reading stays complete: this is a plain
misread put right, like a tile a coin hides.

Nothing is lent when two worms are short, when the counts do not match, or when a suitless coin
lies far from the short worm: then the table is asked, as before.

>>> from tabletop.scene import Piece
>>> worm = [Piece("coin", 19.05 * k, 0, suit="moons") for k in range(3)]
>>> lost = Piece("coin", 19.05 * 3, 0, face="down")
>>> out, said = lend_suits([*worm, lost], {"moons": 4}, 19.05)
>>> out[3].suit, out[3].face, said
('moons', None, ['the coin at (57, 0) is a moons coin (its suit not seen)'])
>>> lend_suits([*worm, lost], {"moons": 4, "suns": 1}, 19.05)[0][3].suit is None  # two short
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

from referee.worm_derby.words import at
from tabletop.scene import Piece, Point2

REACH_COINS = 2.5
"""A suitless coin is lent a worm's suit only within this many coin widths of one of that
worm's coins (touching it, or one coin's gap off it: a worm split by one coin)."""


def lend_suits(pieces: list[Piece | None] | tuple[Piece, ...], lengths: Mapping[str, int],
               coin_mm: float, also_near: Mapping[str, Iterable[Point2]] | None = None,
               skip: frozenset[int] = frozenset()) -> tuple[list[Piece | None], list[str]]:
    """Gives each coin read without a suit the suit of the one worm short of coins.

    Args:
        pieces: The reading's pieces (None: a piece left out).
        lengths: Coins each worm in the race has.
        coin_mm: Coin diameter.
        also_near: For each worm, more places it lay (the accepted table's coins) that a
            suitless coin may be within reach of.
        skip: Indices not to lend a suit to (a stray coin that stays an obstacle).

    Returns:
        The pieces (the lent ones replaced) and what was lent, in plain words.
    """
    out = list(pieces)
    suitless = [j for j, p in enumerate(out) if j not in skip and p is not None
                and p.kind == "coin" and p.suit is None]
    if not suitless:
        return out, []
    counts = {player: sum(1 for p in out if p is not None and p.kind == "coin"
                          and p.suit == player and p.face != "down") for player in lengths}
    short = [player for player, n in lengths.items() if counts[player] < n]
    if len(short) != 1 or lengths[short[0]] - counts[short[0]] != len(suitless):
        return out, []
    player = short[0]
    places = [p.centre_mm for p in out if p is not None and p.kind == "coin"
              and p.suit == player]
    places += list((also_near or {}).get(player, ()))
    reach = REACH_COINS * coin_mm
    if not all(any(math.dist(out[j].centre_mm, c) <= reach for c in places)  # type: ignore[union-attr]
               for j in suitless):
        return out, []
    said = []
    for j in suitless:
        p = out[j]
        assert p is not None
        out[j] = replace(p, suit=player, face=None)
        said.append(f"the coin at {at(p.centre_mm)} is a {player} coin (its suit not seen)")
    return out, said

"""A coin of one worm read with another worm's suit, on a table with no accepted table before it.

Coins are conserved and a worm is one chain of touching coins. When the camera reads one coin
of worm B with worm A's suit (a moon under a warm lamp read as a sun), A shows one coin too many
and B one too few. If A's coins are no single chain, exactly one of them can be taken away to
leave A one chain, and that coin makes B one chain with B's coins, the table itself says
whose it is: B's, its suit misread. The coin keeps its place and index (a plain misread put
right, like a coin read without a suit, :mod:`.suit_lending`).

Nothing is swapped when A's coins are one chain (which one is not A's is not known), when no
coin or more than one fits, or when more than the two worms are off by one.

>>> from tabletop.scene import Piece
>>> d = 19.05
>>> suns = [Piece("coin", 0, d * k, suit="suns") for k in range(3)]
>>> moons = [Piece("coin", 40, d * k, suit="moons") for k in range(2)]
>>> stray = Piece("coin", 40, 2 * d, suit="suns")  # moons' head read as a sun
>>> out, said = swap_stray_suit((*suns, *moons, stray), {"suns": 3, "moons": 3}, d)
>>> out[5].suit, said
('moons', ['the coin at (40, 38) is a moons coin (read as suns)'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from referee.misread_counts import one_over_one_short
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.words import at
from referee.worm_derby.worms import chain_shape
from tabletop.scene import Piece, Point2


def _one_chain(points: Sequence[Point2], coin_mm: float, settings: WormSettings) -> bool:
    return bool(points) and chain_shape(np.array(points, dtype=float), coin_mm, settings).ok


def swap_stray_suit(pieces: Sequence[Piece], lengths: Mapping[str, int], coin_mm: float,
                    settings: WormSettings = DEFAULT_SETTINGS
                    ) -> tuple[tuple[Piece, ...], list[str]]:
    """The pieces with the one coin read with the wrong worm's suit given the right one (see
    the module's docstring), and what was swapped, in plain words.

    Args:
        pieces: The reading's pieces.
        lengths: Coins each worm in the race has.
        coin_mm: Coin diameter.
        settings: Worm Derby's settings (what touching is).
    """
    out = tuple(pieces)
    pair = one_over_one_short(Counter(p.suit for p in out if p.kind == "coin"), lengths)
    if pair is None:
        return out, []
    a, b = pair
    mine = [j for j, p in enumerate(out) if p.kind == "coin" and p.suit == a]
    theirs = [p.centre_mm for p in out if p.kind == "coin" and p.suit == b]
    if _one_chain([out[j].centre_mm for j in mine], coin_mm, settings):
        return out, []
    fits = [j for j in mine
            if _one_chain([out[k].centre_mm for k in mine if k != j], coin_mm, settings)
            and _one_chain([*theirs, out[j].centre_mm], coin_mm, settings)]
    if len(fits) != 1:
        return out, []
    j = fits[0]
    swapped = (*out[:j], replace(out[j], suit=b), *out[j + 1:])
    return swapped, [f"the coin at {at(out[j].centre_mm)} is a {b} coin (read as {a})"]

"""One player's pieces read one too many and another's one too few: a colour misread's mark.

Pieces are conserved (a worm keeps its coins or segments), so when the camera reads one piece of
player B with player A's colour, A shows one piece more than it has and B one fewer, every other
player as many as they have. Worm Derby's coins (:mod:`referee.worm_derby.reading`,
:mod:`referee.worm_derby.suit_swap`) and Worm Up!'s segments (:mod:`referee.worm_up.colour_misread`)
look for that mark before asking whose the piece is.

>>> one_over_one_short({"suns": 6, "moons": 4}, {"suns": 5, "moons": 5})
('suns', 'moons')
>>> one_over_one_short({"suns": 6, "moons": 5}, {"suns": 5, "moons": 5}) is None
True
>>> one_over_one_short({"suns": 6, "moons": 4}, {"suns": 5, "moons": 5}, may_gain=("suns",)) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


def one_over_one_short(counts: Mapping[str | None, int], lengths: Mapping[str, int],
                       may_gain: Collection[str] = ()) -> tuple[str, str] | None:
    """The player read with one piece too many and the one read with one too few, when every
    other player reads as many as they have; None otherwise.

    Args:
        counts: Pieces read of each player's colour (missing players read none).
        lengths: Pieces each player has.
        may_gain: Players who may rightly show one more (a coin given back on an ace): never the
            one over.
    """
    over = [p for p, n in lengths.items() if p not in may_gain and counts.get(p, 0) == n + 1]
    short = [p for p, n in lengths.items() if counts.get(p, 0) == n - 1]
    if len(over) != 1 or len(short) != 1 or any(
            counts.get(p, 0) != n for p, n in lengths.items() if p not in (over[0], short[0])):
        return None
    return over[0], short[0]

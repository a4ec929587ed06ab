"""Working out a worm's move from two stable scenes: which way, how many steps, which coins.

A move of k steps forwards turns the worm ``[c0 .. cL-1]`` (head last) into
``[ck .. cL-1, n1 .. nk]``: the coins that stayed are a run at one end of the new chain and
the placed coins follow it in order. When k reaches the worm's length every coin is new and
the first placements were picked up again unseen (``hidden``).

>>> old = [(0.0, 0.0), (19.0, 0.0), (38.0, 0.0)]
>>> m = infer_move(old, [(19.0, 0.0), (38.0, 0.0), (57.0, 0.0)], 4.0)
>>> m.steps, m.forward, m.placed_at
(1, True, (2,))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from referee.base import Judgement
from referee.worm_derby.rules import Rule
from tabletop.scene import Point2


@dataclass(frozen=True)
class InferredMove:
    """A worm's move as read from the coins before and after.

    Attributes:
        forward: True when the old chain's last coin was the head (else its first).
        steps: Steps seen (``visible + hidden``).
        new_order: Positions in the new chain, tail first, head last (indices into the new
            chain as given).
        placed_at: Positions in ``new_order`` of the placed coins, in placement order.
        hidden: Placements not seen (picked up again within the move).
    """

    forward: bool
    steps: int
    new_order: tuple[int, ...]
    placed_at: tuple[int, ...]
    hidden: int = 0


def _near(a: Point2, b: Point2, tol: float) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tol


def _placed_at_both_ends(old: Sequence[Point2], new: Sequence[Point2], tol: float) -> bool:
    """True when the coins that stayed are one run inside the new chain with new coins on both
    sides of it: coins were taken from both ends.

    >>> _placed_at_both_ends([(0.0, 0), (19.0, 0), (38.0, 0)],
    ...                      [(-19.0, 0), (0.0, 0), (19.0, 0)], 1.0)
    False
    >>> _placed_at_both_ends([(0.0, 0), (19.0, 0), (38.0, 0), (57.0, 0)],
    ...                      [(-19.0, 0), (19.0, 0), (38.0, 0), (76.0, 0)], 1.0)
    True
    """
    kept = [i for i, q in enumerate(new) if any(_near(p, q, tol) for p in old)]
    if not kept or kept != list(range(kept[0], kept[-1] + 1)):
        return False
    return kept[0] > 0 and kept[-1] < len(new) - 1


def infer_move(old: Sequence[Point2], new: Sequence[Point2], same_place_mm: float,
               reach_mm: float = math.inf) -> InferredMove | Judgement | None:
    """Reads a move of one worm; None when nothing moved, a :class:`Judgement` (rule code and
    a reason about "the worm") when the new coins are no move of whole steps from one end.

    Args:
        old: The worm's coins before, in chain order.
        new: Its coins after, in chain order (either way round), as many as before.
        same_place_mm: A coin that moved less than this stayed.
        reach_mm: Farthest apart two touching coins' centres are. When every coin moved, the
            fewest unseen placements that bridge the old head and the new tail are assumed.
    """
    n = len(old)
    if len(new) != n:
        return Judgement(Rule.SHAPE, f"the worm has {len(new)} coins but had {n}")
    fwd_new = list(range(n))
    orders = (fwd_new, fwd_new[::-1])
    if any(all(_near(old[i], new[o[i]], same_place_mm) for i in range(n)) for o in orders):
        return None
    best: InferredMove | None = None
    for forward in (True, False):
        o_old = list(old) if forward else list(old)[::-1]
        for o in orders:
            for k in range(1, n):
                if all(_near(o_old[k + i], new[o[i]], same_place_mm) for i in range(n - k)):
                    if best is None or k < best.steps:
                        best = InferredMove(forward, k, tuple(o), tuple(range(n - k, n)))
                    break
    if best is not None:
        return best
    stayed = [any(_near(p, q, same_place_mm) for q in new) for p in old]
    if any(stayed):
        if (not stayed[0] and not stayed[-1]) or _placed_at_both_ends(old, new, same_place_mm):
            return Judgement(Rule.DIRECTION, "the worm changed at both ends; all the steps of a "
                                             "turn take coins from one end and put them at the "
                                             "other, so put both ends back and move from one end")
        return Judgement(Rule.SHAPE, "the worm's coins do not follow from whole steps of one end")
    # every coin moved: the head end of the old worm is nearest the new tail
    choices = []
    for forward in (True, False):
        head = old[-1] if forward else old[0]
        for o in orders:
            t = new[o[0]]
            choices.append((math.hypot(t[0] - head[0], t[1] - head[1]), forward, o))
    gap, forward, o = min(choices, key=lambda c: c[0])
    hidden = 0 if gap <= reach_mm else max(0, math.ceil(gap / reach_mm) - 1)
    return InferredMove(forward, n + hidden, tuple(o), tuple(range(n)), hidden=hidden)

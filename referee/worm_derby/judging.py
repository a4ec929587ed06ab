"""Worm Derby's judgements in its own words (one plain sentence, the point to 0.01 mm)."""

from __future__ import annotations

from referee.base import Judgement
from referee.worm_derby.words import sentence
from tabletop.scene import Point2


def judged(rule: str, reason: str, pieces: tuple[int, ...] = (), where: Point2 | None = None,
           mover: str | None = None) -> Judgement:
    """A Worm Derby judgement: ``reason`` as one sentence, ``where`` rounded to 0.01 mm.

    Args:
        rule: The rule code (``ok`` for a legal move).
        reason: What happened (a clause; it becomes a sentence).
        pieces: The pieces concerned (negative labels: coins eaten, left out of the verdict).
        where: The point concerned, in mm.
        mover: Who broke the rule, when not the player whose turn it is.

    >>> j = judged("steps", "suns' worm moved 3 steps", (4, -1000), (1.005, 2.0))
    >>> j.verdict(9, "suns").reason, j.verdict(9, "suns").pieces
    ("Suns' worm moved 3 steps.", (4,))
    """
    at = None if where is None else (round(where[0], 2), round(where[1], 2))
    return Judgement(rule, sentence(reason), mover, pieces, at)

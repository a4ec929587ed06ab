"""Worm Up!'s rule codes, and how a rule broken deep in a check stops the judging."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from referee.base import Judgement, RuleBroken
from tabletop.scene import Point2


class Rule(StrEnum):
    """The rule codes of Worm Up! verdicts."""

    OK = "ok"
    SETUP = "setup"
    BID = "bid"
    TURN = "turn"
    ORDER = "order"
    STEPS = "steps"
    TAIL = "tail"
    SHAPE = "shape"
    TOUCH = "touch"
    POST = "post"
    PIECES = "pieces"
    EVENT = "event"
    ACCEPT = "accept"


MISREAD = "is a piece hidden or misread?"
"""The question put to the table when a misread could explain what is wrong."""


def foul(rule: Rule | str, reason: str, player: str | None = None, pieces: Sequence[int] = (),
          where: Point2 | None = None, doubt: str = "") -> RuleBroken:
    """A rule broken by a scene (raised; it becomes an illegal verdict, or a doubt); ``rule`` a
    :class:`Rule`, or the rule of a judgement passed on again."""
    return RuleBroken(Judgement(rule, reason, player, tuple(pieces), where, doubt))

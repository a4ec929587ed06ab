"""What a worm's lie alone shows to be a foul, with no table before it to compare with.

When a race begins while its first table was in doubt (the players rolled on), the worms are
taken where they lie (:meth:`WormDerby._setup_as_it_stands`): where the last roller's worm
started is not known, so its move cannot be judged step by step. Some fouls need no start: a
coin laid over one of its own worm's coins lies there for all to see. Each rule is a small
function ``rule_<what>(game, scene, coins) -> Judgement | None`` over the worm's coins (scene
indices in chain order); :func:`judge_lie` asks them in order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from referee.base import Judgement
from referee.worm_derby.judging import judged
from referee.worm_derby.rules import Rule
from referee.worm_derby.words import at, mm
from tabletop.scene import Scene

if TYPE_CHECKING:
    from referee.worm_derby.game import WormDerby


def rule_coins_apart(game: WormDerby, scene: Scene, coins: Sequence[int]) -> Judgement | None:
    """``overlap``: no coin of a worm lies over another of its coins (centres nearer than a
    coin's diameter by more than the overlap tolerance of both and the measuring noise, as a
    step's own-coin check, :meth:`referee.worm_derby.steps.StepWorld.check`)."""
    s = game.settings
    too_near = s.overlap_mm(game.d)
    for i, j in enumerate(coins):
        for k in coins[i + 1:]:
            a, b = scene.pieces[j].centre_mm, scene.pieces[k].centre_mm
            gap = math.dist(a, b)
            if gap < too_near:
                return judged(Rule.OVERLAP, f"the coin at {at(b)} lies over its own worm's coin "
                                            f"at {at(a)} (centres {mm(gap)} apart); lay it "
                                            f"touching the worm's end instead", (k, j), b)
    return None


LieRule = Callable[["WormDerby", Scene, Sequence[int]], Judgement | None]

LIE_RULES: tuple[LieRule, ...] = (rule_coins_apart,)
"""The rules of a worm's lie, in the order they are asked."""


def judge_lie(game: WormDerby, scene: Scene, coins: Sequence[int]) -> Judgement | None:
    """The first rule of :data:`LIE_RULES` a worm of ``scene`` (its ``coins``) breaks (None:
    none)."""
    for rule in LIE_RULES:
        found = rule(game, scene, coins)
        if found is not None:
            return found
    return None

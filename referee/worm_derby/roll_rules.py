"""The rules of a Worm Derby roll, each a named check (rule code ``turn``).

A roll is refused when the roller is not in the race, the race is over, it is another player's
turn, or the roller still has a roll to play. :func:`judge_roll` asks :data:`ROLL_RULES` in
order; what a roll that passes them does (null, an ace, steps) is the game's turn flow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.base import Judgement
from referee.worm_derby.judging import judged
from referee.worm_derby.rules import Rule
from referee.worm_derby.state import DerbyState
from referee.worm_derby.words import possessive
from tabletop.events import Roll

if TYPE_CHECKING:
    from referee.worm_derby.game import WormDerby

RollRule = Callable[["WormDerby", DerbyState, Roll], Judgement | None]


def rule_player_in_race(game: WormDerby, state: DerbyState, roll: Roll) -> Judgement | None:
    """Only a player in the race rolls."""
    if roll.player not in game.players:
        return judged(Rule.TURN, f"{roll.player} is not playing")
    return None


def rule_race_not_over(game: WormDerby, state: DerbyState, roll: Roll) -> Judgement | None:
    """Nobody rolls once every worm has finished."""
    if state.over:
        return judged(Rule.TURN, "the race is over")
    return None


def rule_in_turn(game: WormDerby, state: DerbyState, roll: Roll) -> Judgement | None:
    """Players roll in turn."""
    current = game.players[state.turn]
    if roll.player != current:
        return judged(Rule.TURN, f"it is {possessive(current)} turn to roll, not "
                                 f"{possessive(roll.player)}")
    return None


def rule_roll_played_first(game: WormDerby, state: DerbyState, roll: Roll) -> Judgement | None:
    """A roll of steps is played before the next roll."""
    if state.roll not in (None, "again", "ace"):
        return judged(Rule.TURN, f"{game.players[state.turn]} has a roll of {state.roll} to play "
                                 f"first")
    return None


ROLL_RULES: tuple[RollRule, ...] = (
    rule_player_in_race, rule_race_not_over, rule_in_turn, rule_roll_played_first)
"""The rules of a roll, in the order they are asked."""


def judge_roll(game: WormDerby, state: DerbyState, roll: Roll) -> Judgement | None:
    """The first roll rule broken (None: the roll stands); the course is set up."""
    for rule in ROLL_RULES:
        found = rule(game, state, roll)
        if found is not None:
            return found
    return None

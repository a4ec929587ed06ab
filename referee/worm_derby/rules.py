"""The rule codes of Worm Derby verdicts (python-chess's enum reasons): every code a rule of
:mod:`.setup_rules`, :mod:`.roll_rules`, :mod:`.move_rules`, :mod:`.ace_rules`, :mod:`.steps` or
a variant may say."""

from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    """The rule codes of Worm Derby verdicts (the members are the codes themselves)."""

    OK = "ok"                # a legal move, roll or setup
    SETUP = "setup"          # the first table: the course and the worms at the start
    TURN = "turn"            # who may roll or move now
    OBSTACLE = "obstacle"    # tiles never move on a roll; after an ace one obstacle may
    SHAPE = "shape"          # a worm is one chain of its coins, never a loop
    DIRECTION = "direction"  # a turn's steps go one way (Cannibal: away from the attacker)
    STEPS = "steps"          # as many steps as the roll, or as many as possible
    TOUCH = "touch"          # a coin laid touches the worm's end
    OVERLAP = "overlap"      # a coin laid overlaps nothing
    GAP = "gap"              # a coin passes no gap narrower than itself
    CANNIBAL = "cannibal"    # eating ends the move; the coin eaten is taken off
    GATE = "gate"            # Slalom: pass right of red gates, left of blue ones
    EVENT = "event"          # an event with no meaning in Worm Derby

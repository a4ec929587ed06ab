"""Rules engines: pure functions from (state, event) to (state, output events).

Never imports OpenCV or Flask. Games register themselves in :mod:`referee.registry`; the
generic record folding (undo, corrections, accepting the table) is in :mod:`referee.record`.
Every game speaks the vocabulary of :mod:`referee.base`: a ``Game[S]`` over its frozen state
``S``, ``Step[S]`` results, and one :class:`Judgement` (rule code, reason, player, pieces,
where) that its rules return and that becomes a verdict.
"""

from referee.base import Game, GameState, Judgement, RuleBroken, Step
from referee.record import Referee, fold
from referee.registry import find_game, game_names, make_game, register_game

__all__ = ["Game", "GameState", "Judgement", "Referee", "RuleBroken", "Step", "find_game", "fold",
           "game_names", "make_game", "register_game"]

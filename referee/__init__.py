"""Rules engines: pure functions from (state, event) to (state, output events).

Never imports OpenCV or Flask. Games register themselves in :mod:`referee.registry`; the
generic record folding (undo, corrections, accepting the table) is in :mod:`referee.record`.
"""

from referee.base import Game, GameState, Step
from referee.record import Referee, fold
from referee.registry import find_game, game_names, make_game, register_game

__all__ = ["Game", "GameState", "Referee", "Step", "find_game", "fold", "game_names",
           "make_game", "register_game"]

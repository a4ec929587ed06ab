"""The Animal Game (Jungle / Dou Shou Qi): rules engine, variants, perft and the referee.

- :mod:`referee.jungle.geometry`: moves between squares, and the board as printed (squares,
  terrain, millimetres) re-exported from :mod:`tabletop.boards.jungle`.
- :mod:`referee.jungle.rules`: the rules as hooks; variants as subclasses.
- :mod:`referee.jungle.position`: position, move generation, push/pop, outcome, text forms.
- :mod:`referee.jungle.perft`: perft and the ``.perft`` files.
- :mod:`referee.jungle.game`: the referee (``move`` events, scenes of tokens).
"""

from referee.jungle.game import Jungle, JungleState
from referee.jungle.position import START_TEXT, Position, move_text, parse_move
from referee.jungle.rules import Rules, find_variant, rules_for

__all__ = ["START_TEXT", "Jungle", "JungleState", "Position", "Rules", "find_variant",
           "move_text", "parse_move", "rules_for"]

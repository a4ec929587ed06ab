"""The Animal Game (Jungle / Dou Shou Qi): rules engine, variants, perft and the referee.

- :mod:`referee.jungle.geometry`: moves between squares, and the board as printed (squares,
  terrain, millimetres) re-exported from :mod:`tabletop.boards.jungle`.
- :mod:`referee.jungle.rules`: the rules as hooks; variants as subclasses.
- :mod:`referee.jungle.position`: position, move generation, push/pop, outcome, text forms.
- :mod:`referee.jungle.perft`: perft and the ``.perft`` files.
- :mod:`referee.jungle.game`: the referee (``move`` events, scenes of tokens).

Importing this package registers the game (``jungle``) with :mod:`referee.registry`.
"""

from referee.jungle.game import Jungle, JungleState
from referee.jungle.position import START_TEXT, Position, move_text, parse_move
from referee.jungle.rules import Rules, find_variant, rules_for, variant_names
from referee.registry import Diagram, FlagSet, GameSpec, NameList, register
from tabletop.events import Move

register(GameSpec(
    Jungle, title="The Animal Game",
    default_players=("red", "blue"),  # as the printed tokens' frames
    options=(FlagSet("variants", "Variants", tuple(variant_names())),
             NameList("more-variants", "More variants")),
    diagram=Diagram("jungle-board", y_up=True, hide_kinds=("token",)),
    inputs=("move",), turn_verb="move", events=(Move,)))

__all__ = ["START_TEXT", "Jungle", "JungleState", "Position", "Rules", "find_variant",
           "move_text", "parse_move", "rules_for"]

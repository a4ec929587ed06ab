"""The Worm Derby referee: worms of piecepack coins racing round a pylon.

Importing this package registers the game (``worm-derby``) and its variants (Slalom, Cannibal
worms) with :mod:`referee.registry`.
"""

from referee.registry import Choice, Flag, GameSpec, register
from referee.worm_derby.game import WormDerby
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.variants import Cannibal, Slalom, SlalomCannibal

register(GameSpec(
    WormDerby, title="Worm Derby", default_players=("suns", "moons"),
    options=(Choice("variant", "Variant", ("basic", "slalom")), Flag("cannibal", "Cannibal")),
    inputs=("roll",), turn_verb="roll", player_pieces="worm", ppn=True))

__all__ = ["DEFAULT_SETTINGS", "Cannibal", "Slalom", "SlalomCannibal", "WormDerby",
           "WormSettings"]

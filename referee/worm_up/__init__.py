"""Worm Up! (Alex Randolph): secret bids, worms moved tail to head, a movable finish line.

- :mod:`referee.worm_up.bidding`: the pure bidding logic (tiles, the reveal, the move order,
  :class:`SecretBids` for the phone pages).
- :mod:`referee.worm_up.game`: the referee (``worm-up`` in records); its state, settings, rule
  codes, table reading, turns and rules each in a module of their own (``README.md``).
- :mod:`referee.worm_up.geometry`: chains of touching segments and the finish line.

Importing this package registers the game (``worm-up``) with :mod:`referee.registry`.
"""

from referee.registry import GameSpec, register
from referee.worm_up.bidding import TILES, BidError, Mover, Rack, Reveal, SecretBids, reveal
from referee.worm_up.game import WormUp
from referee.worm_up.rules import Rule
from referee.worm_up.settings import WormUpSettings
from referee.worm_up.state import Phase, Worm, WormUpState
from referee.worm_up.table import Status
from tabletop.events import Bid

register(GameSpec(WormUp, title="Worm Up!", default_players=("red", "yellow", "green"),
                  player_pieces="worm", events=(Bid,)))

__all__ = ["TILES", "BidError", "Mover", "Phase", "Rack", "Reveal", "Rule", "SecretBids",
           "Status", "Worm", "WormUp", "WormUpSettings", "WormUpState", "reveal"]

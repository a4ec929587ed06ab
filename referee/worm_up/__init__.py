"""Worm Up! (Alex Randolph): secret bids, worms moved tail to head, a movable finish line.

- :mod:`referee.worm_up.bidding`: the pure bidding logic (tiles, the reveal, the move order,
  :class:`SecretBids` for the phone pages).
- :mod:`referee.worm_up.game`: the referee (``worm-up`` in records).
- :mod:`referee.worm_up.geometry`: chains of touching segments and the finish line.
"""

from referee.worm_up.bidding import TILES, BidError, Mover, Rack, Reveal, SecretBids, reveal
from referee.worm_up.game import Phase, Rule, Status, Worm, WormUp, WormUpSettings, WormUpState

__all__ = ["TILES", "BidError", "Mover", "Phase", "Rack", "Reveal", "Rule", "SecretBids",
           "Status", "Worm", "WormUp", "WormUpSettings", "WormUpState", "reveal"]

"""A first table in doubt (segments of a blue worm on a blue cloth not seen) while the players
bid round after round: when the table finally stands as read, the kept bids are revealed,
and the next bid shows that round's moves were made unseen: they are taken as played, never a
``bid`` foul ("bids for round 2 open once every worm of round 1 has moved").

``data/readings/bids_on_while_the_first_table_was_in_doubt.jsonl`` is the exact record the
camera gave of rendered Worm Up! playthrough 87000 up to the third round's bids.
"""

from __future__ import annotations

from pathlib import Path

from referee.record import fold
from tabletop.events import Notice, Verdict, parse_event
from tabletop.jsonin import loads

RECORD = Path(__file__).parent / "data" / "readings" / \
    "bids_on_while_the_first_table_was_in_doubt.jsonl"


def test_bid_after_a_round_never_seen_moving_takes_its_moves_as_played():
    events = [parse_event(loads(line, RECORD.name)) for line in RECORD.read_text().splitlines()]
    out = fold(events)
    assert not [v for v in out if isinstance(v, Verdict) and not v.legal]
    assert any(isinstance(n, Notice) and "taken as moved" in n.message for n in out)

"""A worm read whole on a table in doubt and one segment short on the next, every segment seen
where the reading in doubt showed it, has not moved since: the segment not seen is still there
(WormUp._scene), so it is not taken back to where it lay before and called for a move it made
while the table was in doubt (trust seed 203417, --misread 0.4 --same-miss: blue's move of
round 2 in doubt, read short on the next table and taken to lie where it lay, then read whole
in round 3 and called a ``turn`` foul)."""

from __future__ import annotations

from tabletop.events import Doubt, SceneSeen, Verdict
from tests.referee.worm_up.tables import Game, advance, table, without


def test_turn_a_worm_moved_while_the_table_was_in_doubt_is_not_called_when_read_whole_later():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="6", green="7")
    g.move("red", 4)
    g.move("yellow", 6)
    w = dict(g.worms)
    w["green"] = advance(g.worms["green"], 7)
    green = list(w).index("green") * 7  # green's first segment in a table's pieces
    g.push(SceneSeen(without(table(w, g.posts), green)))  # green's tail not seen
    g.bids(red="6", yellow="5", green="4")  # move order: green, yellow, red
    g.push(SceneSeen(table({**w, "yellow": advance(w["yellow"], 5)}, g.posts)))  # too early
    g.push(SceneSeen(table(w, g.posts)))  # put back
    w = {**w, "green": advance(w["green"], 4)}
    g.push(SceneSeen(table(w, g.posts)))  # green moves 4 (in doubt: placed after the bids)
    w = {**w, "yellow": advance(w["yellow"], 5)}
    g.push(SceneSeen(table(w, g.posts)))  # yellow moves 5 (in doubt)
    w = {**w, "red": advance(w["red"], 6)}
    g.push(SceneSeen(without(table(w, g.posts), green + 3)))  # red moves 6; green one short
    g.bids(red="4", yellow="6", green="7")
    out = g.push(SceneSeen(table({**w, "red": advance(w["red"], 4)}, g.posts)))
    assert not any(isinstance(o, Verdict) and not o.legal for o in out), out
    assert [(o.player, o.rule) for o in out if isinstance(o, Verdict)] == [("red", "ok")]
    assert not any(isinstance(o, Doubt) for o in out)

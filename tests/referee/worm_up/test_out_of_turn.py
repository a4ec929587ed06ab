"""A worm seen for sure moving out of its turn is that mover's foul even when one of its
segments is not seen (the count is a doubt; who moved is not)."""

from __future__ import annotations

from tabletop.events import Doubt, SceneSeen
from tests.referee.worm_up.tables import Game, advance, table, verdict, without


def _bid(g: Game) -> None:
    assert g.start().legal
    g.bids(red="5", yellow="4", green="6")  # yellow moves first


def test_a_worm_moving_before_its_turn_with_its_head_not_seen_is_an_order_foul():
    g = Game()
    _bid(g)
    scene = table(dict(g.worms, red=advance(g.worms["red"], 5)), g.posts)
    v = verdict(g.push(SceneSeen(without(scene, 6))))
    assert not v.legal and (v.player, v.rule) == ("red", "order")


def test_a_worm_moving_before_the_reveal_with_a_segment_not_seen_is_a_turn_foul():
    g = Game()
    assert g.start().legal
    scene = table(dict(g.worms, green=advance(g.worms["green"], 4)), g.posts)
    v = verdict(g.push(SceneSeen(without(scene, 20))))
    assert not v.legal and (v.player, v.rule) == ("green", "turn")


def test_the_worm_whose_turn_it_is_read_one_short_is_a_doubt():
    g = Game()
    _bid(g)
    scene = table(dict(g.worms, yellow=advance(g.worms["yellow"], 4)), g.posts)
    out = g.push(SceneSeen(without(scene, 13)))
    assert [type(e) for e in out] == [Doubt]


def test_a_worm_short_with_one_sure_segment_elsewhere_is_a_doubt_not_a_move():
    g = Game()
    _bid(g)
    red = [*g.worms["red"][:5], (200.0, 200.0)]  # one segment read far off, one not seen
    out = g.push(SceneSeen(table(dict(g.worms, red=red), g.posts)))
    assert [type(e) for e in out] == [Doubt]

"""One worm misread, the other worms judged (issue 13, referee/worm_up/worm_in_doubt.py): a
worm read with too few or too many segments is in doubt, asked about once, and taken to lie
where it lay; the other worms' moves are judged from what is seen when the verdict cannot
depend on it (its tail seen where it lay or every place it lay read again: it did not move;
else the mover clear of it and the worm in doubt not due before the mover)."""

from __future__ import annotations

from tabletop.events import Doubt, Verdict
from tests.referee.worm_up.tables import Game, advance, verdict


def _said(out):
    return [(type(e).__name__, e.player, getattr(e, "rule", None)) for e in out]


def _scene_with(g: Game, worms: dict) -> tuple:
    return g.scene({**g.worms, **worms})


def test_steps_a_move_of_5_on_a_bid_of_4_is_a_foul_while_another_worm_is_read_short():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    out = _scene_with(g, {"red": advance(g.worms["red"], 5),
                          "green": g.worms["green"][3:]})  # green's tail end not seen
    assert _said(out) == [("Verdict", "red", "steps"), ("Doubt", "green", None)]


def test_doubt_the_worm_read_short_is_asked_about_once_while_the_others_move():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    short = g.worms["green"][3:]
    out = _scene_with(g, {"red": advance(g.worms["red"], 5), "green": short})
    assert _said(out) == [("Verdict", "red", "steps"), ("Doubt", "green", None)]
    red = advance(g.worms["red"], 4)  # put right
    out = _scene_with(g, {"red": red, "green": short})
    assert _said(out) == [("Verdict", "red", "ok")]
    g.worms["red"] = red
    out = _scene_with(g, {"yellow": advance(g.worms["yellow"], 6), "green": short})
    assert _said(out) == [("Verdict", "yellow", "steps")]  # not asked about again
    assert g.state.worm("green").centres_mm == tuple(g.worms["green"])  # where it lay


def test_order_a_move_before_a_worm_read_with_a_phantom_where_it_lay_is_a_foul():
    g = Game()
    assert g.start().legal
    g.bids(yellow="4", red="5", green="6")  # yellow moves first
    phantom = (g.worms["yellow"][-1][0] + 30.0, g.worms["yellow"][-1][1] + 40.0)
    out = _scene_with(g, {"red": advance(g.worms["red"], 5),
                          "yellow": [*g.worms["yellow"], phantom]})  # 8 read, 7 where it lay
    assert ("Verdict", "red", "order") in _said(out)
    assert not [e for e in out if isinstance(e, Verdict) and e.legal]


def test_doubt_a_move_before_a_worm_read_short_that_may_have_moved_unseen_is_no_foul():
    g = Game()
    assert g.start().legal
    g.bids(yellow="4", red="5", green="6")
    out = _scene_with(g, {"red": advance(g.worms["red"], 5),
                          "yellow": g.worms["yellow"][3:]})  # its tail not seen: it may
    # have moved, its new segments not seen either; whether red went out of order depends on it
    assert out and all(isinstance(e, Doubt) for e in out)


def test_doubt_a_foul_of_a_move_that_may_touch_the_worm_read_short_is_asked_about():
    g = Game()
    assert g.start().legal
    g.bids(yellow="4", red="5", green="6")
    # 5 on a bid of 4, the second segment laid 23 mm from green's head: clear of it where it
    # lay, but green read short may have moved unseen: which rule the move breaks first
    # (touch or steps) depends on it
    toward = advance(g.worms["yellow"], 5, [0.0, 50.0, 90.0, 90.0, 90.0])
    out = _scene_with(g, {"yellow": toward, "green": g.worms["green"][3:]})
    assert out and all(isinstance(e, Doubt) for e in out)
    far = advance(g.worms["yellow"], 5)  # straight on: clear of green by far
    out = _scene_with(g, {"yellow": far, "green": g.worms["green"][3:]})
    assert _said(out)[0] == ("Verdict", "yellow", "steps")


def test_order_a_move_before_its_turn_is_a_foul_while_a_worm_taken_as_moved_is_read_short():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    g.worms["green"] = advance(g.worms["green"], 6)
    short = g.worms["green"][:6]  # its head not seen, in every reading from now on
    assert [type(e) for e in _scene_with(g, {"green": short})] == [Doubt]
    g.bids(red="5", yellow="4", green="7")  # green taken as moved; yellow moves first
    assert g.state.unsure == ("green",)
    out = _scene_with(g, {"red": advance(g.worms["red"], 5), "green": short})
    assert ("Verdict", "red", "order") in _said(out)
    assert g.state.unsure == ("green",)  # still to be placed where it is read whole

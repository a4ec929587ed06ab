"""A first table whose worm is read one segment short at an end in every reading (red on a red
gingham): the segment not seen is taken beyond one end, said once as a doubt with the place, and
the race goes on: every later turn judged (issue 13, never a foul from the guess)."""

from __future__ import annotations

import math

from tabletop.events import Accept, Doubt, Notice, Verdict
from tests.referee.worm_up.tables import D, Game, advance, start_table, start_worm, verdict

THREE = ("red", "yellow", "green")


def _first(g: Game, worms) -> tuple[Verdict, list[Doubt]]:
    out = g.scene(worms)
    doubts = [e for e in out if isinstance(e, Doubt)]
    return verdict(out), doubts


def test_setup_with_a_tail_never_seen_is_judged_and_the_tail_said_once():
    g = Game(THREE)
    seen = start_table(THREE)
    seen["red"] = seen["red"][1:]  # its tail is never seen
    v, doubts = _first(g, seen)
    assert v.legal and v.rule == "ok"
    assert len(doubts) == 1 and doubts[0].player == "red"
    assert "6 of its 7 segments seen" in doubts[0].reason
    assert math.dist(doubts[0].where, start_worm(0)[0]) < 1.0
    assert g.referee.describe()["phase"] == "bidding"
    # the race goes on: the next table (the tail still not seen) is the same table
    assert g.scene(seen) == ()
    g.bids(red="4", yellow="5", green="6")
    g.worms = start_table(THREE)
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    out = g.move("green", 7)
    assert not verdict(out).legal and verdict(out).rule == "steps"


def test_setup_with_a_head_never_seen_takes_it_where_the_heads_are_level():
    g = Game(THREE)
    seen = start_table(THREE)
    seen["yellow"] = seen["yellow"][:-1]  # its head is never seen
    v, doubts = _first(g, seen)
    assert v.legal
    assert len(doubts) == 1 and doubts[0].player == "yellow"
    assert math.dist(doubts[0].where, start_worm(1)[-1]) < 1.0
    head = g.referee.describe()["worms"]["yellow"]["head_mm"]
    assert math.dist(head, start_worm(1)[-1]) < 1.0


def test_a_move_legal_only_with_the_segment_at_the_other_end_is_a_doubt_not_a_foul():
    g = Game(THREE)
    worms = start_table(THREE)
    worms["red"] = [(x, y - D) for x, y in worms["red"]]  # a segment further back: still legal
    seen = dict(worms)
    seen["red"] = worms["red"][1:]  # its tail never seen: taken at the head, level with others
    v, doubts = _first(g, seen)
    assert v.legal and len(doubts) == 1 and math.dist(doubts[0].where, start_worm(0)[-1]) < 1
    g.worms = worms
    g.bids(red="4", yellow="5", green="6")
    out = g.move("red", 4)  # legal if the tail was there, 3 too few if the head was
    assert [type(e) for e in out] == [Doubt]
    assert "never seen at the start" in out[0].reason and out[0].player == "red"
    g.worms["red"] = advance(worms["red"], 4)
    assert verdict(g.push(Accept())).legal  # the table says which: the race goes on
    assert verdict(g.move("yellow", 5)).legal


def test_a_foul_by_one_too_many_with_the_guess_right_is_a_doubt_not_legal():
    g = Game(THREE)
    # the heads 22 mm behind the line: red's segment not seen may lie at its head too
    worms = {p: [(x, y - D) for x, y in w] for p, w in start_table(THREE).items()}
    seen = dict(worms)
    seen["red"] = worms["red"][1:]  # tail never seen, and the guess (tail) is right
    assert _first(g, seen)[0].legal
    g.worms = worms
    g.bids(red="4", yellow="5", green="6")
    out = g.move("red", 5)  # 5 on a bid of 4, or 4 if the segment lay at the head
    assert [type(e) for e in out] == [Doubt], out
    out = g.move("red", 6)  # a foul wherever the segment lay
    assert not verdict(out).legal and verdict(out).rule == "steps"


def test_a_way_the_segment_not_seen_could_lie_that_breaks_the_setup_is_not_kept():
    g = Game(THREE)
    seen = start_table(THREE)
    seen["red"] = seen["red"][1:]  # tail never seen; at the head it would lie over the line
    assert _first(g, seen)[0].legal
    g.bids(red="4", yellow="5", green="6")
    v = verdict(g.move("red", 5))  # so 5 on a bid of 4 is a foul
    assert not v.legal and (v.player, v.rule) == ("red", "steps")


def test_a_guessed_worm_seen_whole_where_it_lay_is_settled_not_moved():
    g = Game(THREE)
    worms = start_table(THREE)
    worms["red"] = [(x, y - D) for x, y in worms["red"]]
    seen = dict(worms)
    seen["red"] = worms["red"][1:]
    assert _first(g, seen)[0].legal
    g.worms = worms
    assert g.scene() == ()  # red seen whole: its tail was there all along, nothing moved
    assert math.dist(g.referee.describe()["worms"]["red"]["tail_mm"], worms["red"][0]) < 1.0
    g.bids(red="6", yellow="4", green="5")
    assert verdict(g.move("yellow", 4)).legal
    assert verdict(g.move("green", 5)).legal
    assert verdict(g.move("red", 6)).legal


def test_setup_with_three_segments_never_seen_is_completed_on_the_worms_line():
    g = Game(THREE)
    seen = start_table(THREE)
    red = seen["red"]
    seen["red"] = [red[1], red[2], red[4], red[5]]  # tail, a middle one and the head not seen
    v, doubts = _first(g, seen)
    assert v.legal and len(doubts) == 1 and "4 of its 7 segments seen" in doubts[0].reason
    worm = g.referee.describe()["worms"]["red"]["segments_mm"]
    assert all(math.dist(a, b) < 1.0 for a, b in zip(worm, start_worm(0), strict=True))
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal


def test_a_setup_breaking_the_rules_under_every_guess_stays_in_doubt():
    g = Game(THREE)
    seen = start_table(THREE)
    seen["red"] = [(x, y + 40.0) for x, y in seen["red"][1:]]  # over the line either way
    out = g.scene(seen)
    assert not any(isinstance(e, Verdict) for e in out)
    assert [type(e) for e in out] == [Doubt]
    assert g.referee.describe()["phase"] == "setup"


def test_an_accepted_first_table_with_a_segment_never_seen_starts_the_race():
    g = Game(THREE)
    seen = start_table(THREE)
    seen["green"] = [(x, y + 40.0) for x, y in seen["green"][1:]]  # over the line either way
    assert [type(e) for e in g.scene(seen)] == [Doubt]
    v = verdict(g.push(Accept()))
    assert v.legal, v
    d = g.referee.describe()
    assert d["phase"] == "bidding" and len(d["worms"]["green"]["segments_mm"]) == 7


def test_after_a_table_in_doubt_the_next_worms_in_order_are_no_turn_foul():
    g = Game(THREE)
    assert g.start().legal
    g.bids(red="7", yellow="5", green="4")  # order: green, yellow, red
    moved = advance(g.worms["green"], 4)
    shown = dict(g.worms)
    shown["green"] = moved[:-1]  # its new head not seen
    out = g.scene(shown)
    assert [type(e) for e in out] == [Doubt]
    shown["yellow"] = advance(g.worms["yellow"], 5)
    out = g.scene(shown)  # green still short, yellow moved after it: nobody's foul
    assert not any(isinstance(e, Verdict) and not e.legal for e in out), out
    g.worms["green"], g.worms["yellow"] = moved, shown["yellow"]
    out = g.scene()
    assert [(e.player, e.legal) for e in out if isinstance(e, Verdict)] == [
        ("green", True), ("yellow", True)], out


def test_a_worm_taken_as_moved_and_read_beyond_its_move_is_a_doubt_not_placed_there():
    g = Game(THREE)
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    moved = advance(g.worms["green"], 6)
    shown = dict(g.worms)
    shown["green"] = moved[1:]  # green's move read one short: a doubt
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    out = g.bids(red="5", yellow="6", green="7")  # the players went on: green taken as moved
    assert any(isinstance(e, Notice) and "green is taken as moved" in e.message for e in out)
    g.worms["green"] = moved
    again = dict(g.worms)
    again["green"] = advance(moved, 7)  # green moves again before red: seen only now
    out = g.scene(again)
    assert [type(e) for e in out] == [Doubt] and "moved again" in out[0].reason, out
    assert g.scene() == ()  # put back: green stands where its move of 6 took it
    assert verdict(g.move("red", 5)).legal
    assert verdict(g.move("yellow", 6)).legal
    assert verdict(g.move("green", 7)).legal


def test_a_worm_taken_as_moved_read_apart_is_a_doubt_not_a_pieces_foul():
    g = Game(THREE)
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    moved = advance(g.worms["red"], 4)
    shown = dict(g.worms)
    shown["red"] = moved[1:]
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    g.bids(red="5")  # the players went on: red, yellow and green taken as moved
    apart = dict(g.worms)
    apart["red"] = [*moved[:3], (moved[3][0] + 60.0, moved[3][1]), *moved[4:]]
    out = g.scene(apart)  # a phantom of the cloth joins red, one of its own not seen
    assert not any(isinstance(e, Verdict) and not e.legal for e in out), out
    assert any(isinstance(e, Doubt) and e.player == "red" for e in out)


def test_a_worm_short_at_the_start_with_its_head_read_off_is_still_completed():
    # red on a red gingham (107300): the tail not seen and the head read 6 mm back
    g = Game(THREE)
    seen = start_table(THREE)
    red = seen["red"][1:]
    seen["red"] = [*red[:-1], (red[-1][0], red[-1][1] - 6.0)]
    v, doubts = _first(g, seen)
    assert v.legal and len(doubts) == 1
    assert math.dist(doubts[0].where, start_worm(0)[0]) < 1.0

"""The bidding rules of Worm Up!, one test per rule, on the pure bidding logic."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.worm_up.bidding import (
    TILES,
    BidError,
    Rack,
    SecretBids,
    format_bids,
    parse_bids,
    reveal,
)

PLAYERS = ("red", "yellow", "green", "blue", "purple")


def order(r):
    return [(m.player, m.number) for m in r.order]


# ----------------------------------------------------------------------------- cancellation

@pytest.mark.parametrize(("bids", "cancelled", "movers"), [
    ({"red": "5", "yellow": "5", "green": "6"}, ("red", "yellow"), ["green"]),
    ({"red": "7", "yellow": "7", "green": "7"}, ("red", "yellow", "green"), []),
    ({"red": "4", "yellow": "4", "green": "6", "blue": "6", "purple": "7"},
     ("red", "yellow", "green", "blue"), ["purple"]),
    ({"red": "4", "yellow": "5", "green": "6"}, (), ["red", "yellow", "green"]),
])
def test_equal_numbers_cancel(bids, cancelled, movers):
    r = reveal(bids)
    assert r.cancelled == cancelled
    assert [m.player for m in r.order] == movers


def test_two_xs_cancel_each_other():
    r = reveal({"red": "X", "yellow": "X", "green": "4"})
    assert r.cancelled == ("red", "yellow")
    assert order(r) == [("green", 4)]
    assert r.x_player is None  # a cancelled X moves no post either


def test_three_xs_cancel_too():
    r = reveal({"red": "X", "yellow": "X", "green": "X"})
    assert r.cancelled == ("red", "yellow", "green")
    assert r.order == ()
    assert "no worm moves" in r.summary()


def test_an_x_does_not_cancel_a_number():
    r = reveal({"red": "X", "yellow": "5", "green": "5"})
    assert r.cancelled == ("yellow", "green")
    # 5 was bid (even though cancelled), so it is not free for the X
    assert r.free_numbers == (4, 6, 7)
    assert r.x_player == "red"


# ----------------------------------------------------------------------------- the X

def test_x_takes_a_free_number():
    r = reveal({"red": "4", "yellow": "6", "green": "X"})
    assert r.free_numbers == (5, 7)
    m = r.mover("green")
    assert m is not None and m.is_x and m.number is None and m.free == (5, 7)
    assert r.with_number("green", 7).mover("green").number == 7
    with pytest.raises(BidError, match="6 was bid this round"):
        r.with_number("green", 6)
    with pytest.raises(BidError, match="no successful X"):
        r.with_number("red", 5)


def test_x_declared_number_is_kept_when_free_and_dropped_when_bid():
    kept = reveal({"red": "4", "yellow": "6", "green": "X"}, {"green": 5})
    assert order(kept) == [("red", 4), ("green", 5), ("yellow", 6)]
    assert kept.numbers == {"green": 5}
    dropped = reveal({"red": "4", "yellow": "6", "green": "X"}, {"green": 6})
    assert dropped.mover("green").number is None
    assert dropped.numbers == {}
    assert any("6 was bid" in n for n in dropped.notes)


def test_x_moves_at_the_place_of_the_number_it_takes():
    r = reveal({"red": "5", "yellow": "X", "green": "7"})
    assert r.next_players() == ("yellow", "red")  # X may take 4 (before red) or 6 (after)
    assert r.numbers_allowed("yellow") == (4,)
    assert r.numbers_allowed("yellow", {"red"}) == (4, 6)
    assert r.next_players({"red"}) == ("yellow",)  # 4 and 6 both come before green's 7
    assert r.next_players({"red", "yellow"}) == ("green",)
    six = r.with_number("yellow", 6)
    assert order(six) == [("red", 5), ("yellow", 6), ("green", 7)]
    assert six.next_players() == ("red",)


def test_x_with_no_free_number_cannot_move_but_is_not_cancelled():
    r = reveal({"red": "4", "yellow": "5", "green": "6", "blue": "7", "purple": "X"})
    assert r.free_numbers == ()
    assert r.cancelled == ()
    assert r.mover("purple") is None  # the worm cannot advance
    assert r.x_player == "purple"  # but the X player may still move a finish post
    assert order(r) == [("red", 4), ("yellow", 5), ("green", 6), ("blue", 7)]
    assert r.rack_next.resting["purple"] == "X"  # a successful bid: the X sits out
    assert "no free number" in r.summary()


def test_number_only_with_an_x():
    with pytest.raises(BidError, match="did not bid X"):
        reveal({"red": "4", "yellow": "5", "green": "6"}, {"red": 5})
    with pytest.raises(BidError, match="4-7"):
        reveal({"red": "X", "yellow": "5", "green": "6"}, {"red": 9})


# ----------------------------------------------------------------------------- order of moves

def test_moves_go_lowest_first_then_ascending():
    r = reveal({"red": "7", "yellow": "4", "green": "6", "blue": "5"})
    assert order(r) == [("yellow", 4), ("blue", 5), ("green", 6), ("red", 7)]
    assert r.next_players() == ("yellow",)
    assert r.next_players({"yellow"}) == ("blue",)
    assert r.next_players({"yellow", "blue", "green", "red"}) == ()


# ----------------------------------------------------------------------------- tiles

def test_a_successful_tile_sits_out_exactly_one_round():
    sb = SecretBids(["red", "yellow", "green"])
    for p, t in (("red", "7"), ("yellow", "4"), ("green", "5")):
        sb.submit(p, t)
    sb.reveal()
    assert "7" not in sb.view_for("red")["available"]
    with pytest.raises(BidError, match="red's 7 sits out this round"):
        sb.submit("red", "7")
    for p, t in (("red", "6"), ("yellow", "5"), ("green", "4")):
        sb.submit(p, t)
    sb.reveal()
    # round 3: the 7 is back; the 6 that won round 2 sits out
    assert sb.view_for("red")["available"] == ["4", "5", "7", "X"]
    sb.submit("red", "7")


def test_a_cancelled_tile_does_not_sit_out():
    r = reveal({"red": "6", "yellow": "6", "green": "X"})
    assert r.rack_next.available("red") == TILES
    assert r.rack_next.available("yellow") == TILES
    assert r.rack_next.available("green") == ("4", "5", "6", "7")


def test_a_tile_sitting_out_cannot_be_bid():
    rack = Rack(("red", "yellow", "green"), {"red": "5"})
    with pytest.raises(BidError, match="sits out"):
        rack.check("red", "5")
    with pytest.raises(BidError, match="sits out"):
        reveal({"red": "5", "yellow": "4", "green": "6"}, rack=rack)
    rack.check("yellow", "5")


@pytest.mark.parametrize(("player", "bid", "number", "error"), [
    ("orange", "4", None, "not playing"),
    ("red", "8", None, "not a tile"),
    ("red", "4", 5, "only an X"),
    ("red", "X", 3, "4-7"),
])
def test_submit_refuses_bad_bids(player, bid, number, error):
    sb = SecretBids(["red", "yellow", "green"])
    with pytest.raises(BidError, match=error):
        sb.submit(player, bid, number)
    assert not sb.has_bid("red")


def test_reveal_waits_for_every_bid():
    sb = SecretBids(["red", "yellow", "green"])
    sb.submit("red", "4")
    with pytest.raises(BidError, match="no bid yet from yellow and green"):
        sb.reveal()
    with pytest.raises(BidError, match="no bid yet from yellow"):
        reveal({"red": "4"}, rack=Rack.fresh(["red", "yellow"]))


def test_a_bid_may_change_until_all_are_in_and_not_after():
    sb = SecretBids(["red", "yellow", "green"])
    sb.submit("red", "4")
    sb.submit("red", "X", 6)
    assert sb.view_for("red")["your_bid"] == "X"
    assert sb.view_for("red")["your_number"] == 6
    sb.submit("yellow", "5")
    sb.submit("green", "5")
    with pytest.raises(BidError, match="must be revealed first"):
        sb.submit("red", "7")
    r = sb.reveal()
    assert r.bid_of("red") == "X" and r.mover("red").number == 6
    assert sb.round == 2 and sb.view_for(None)["bids_in"] == []


# ----------------------------------------------------------------------------- secrecy

def test_secret_bids_show_a_player_only_their_own_bid_until_all_are_in():
    sb = SecretBids(["red", "yellow", "green"])
    sb.submit("red", "7")
    sb.submit("yellow", "X", 4)
    for viewer in ("red", "yellow", "green", None):
        view = sb.view_for(viewer)
        assert set(view["bids"]) <= {viewer}
        assert view["bids_in"] == ["red", "yellow"] and view["waiting_for"] == ["green"]
    yellows = sb.view_for("yellow")
    del yellows["available"]  # yellow's own tiles, which include a 7
    assert "7" not in json.dumps(yellows)
    assert sb.view_for("green")["your_bid"] is None
    assert "your_number" not in sb.view_for(None)
    sb.submit("green", "4")
    assert sb.view_for("green")["bids"] == {"red": "7", "yellow": "X", "green": "4"}
    sb.reveal()
    assert sb.view_for("green")["last_reveal"]["bids"]["red"] == "7"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PLAYERS[:4]), st.sampled_from(TILES)),
                min_size=1, max_size=25))
def test_view_for_never_shows_another_bid_before_all_are_in(submissions):
    sb = SecretBids(PLAYERS[:4])
    for player, tile in submissions:
        if sb.all_in():
            sb.reveal()
        try:
            sb.submit(player, tile)
        except BidError:
            continue  # a tile sitting out
        for viewer in PLAYERS[:4]:
            view = sb.view_for(viewer)
            if not sb.all_in():
                assert set(view["bids"]) <= {viewer}
                shown = {k: v for k, v in view.items() if k != "last_reveal"}
                assert all(other not in json.dumps(shown.get("bids")) for other in PLAYERS[:4]
                           if other != viewer)
            else:
                assert len(view["bids"]) == 4


# ----------------------------------------------------------------------------- text form

@given(st.dictionaries(st.sampled_from(PLAYERS), st.sampled_from(TILES), min_size=1),
       st.data())
def test_bids_text_round_trips(bids, data):
    numbers = {p: data.draw(st.sampled_from([4, 5, 6, 7])) for p, t in bids.items() if t == "X"}
    assert parse_bids(format_bids(bids, numbers)) == (bids, numbers)


@pytest.mark.parametrize("text", ["red", "red=8", "red=4:5", "red=X:9", "red=4 red=5", "=4"])
def test_bids_text_refuses_what_is_not_a_bid(text):
    with pytest.raises(BidError):
        parse_bids(text)


def test_reveal_in_text_form():
    bids, numbers = parse_bids("red=X:6 yellow=4 green=4 blue=5")
    r = reveal(bids, numbers)
    assert order(r) == [("blue", 5), ("red", 6)]
    assert r.cancelled == ("yellow", "green")


@given(st.integers(3, 5).flatmap(
    lambda n: st.lists(st.sampled_from(TILES), min_size=n, max_size=n)))
def test_every_reveal_keeps_the_rules(tiles):
    bids = dict(zip(PLAYERS, tiles, strict=False))
    r = reveal(bids)
    counts = {t: tiles.count(t) for t in tiles}
    movers = [m.player for m in r.order]
    for p, t in bids.items():
        if counts[t] > 1:  # equal bids cancel, and their tiles stay available
            assert p in r.cancelled and p not in movers
            assert r.rack_next.resting.get(p) is None
        else:  # a unique bid moves (an X needs a free number) and its tile sits out
            assert p not in r.cancelled
            assert (p in movers) == (t != "X" or bool(r.free_numbers))
            assert r.rack_next.resting[p] == t
    assert not set(r.free_numbers) & {int(t) for t in tiles if t != "X"}
    keys = [m.sort_key for m in r.order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)

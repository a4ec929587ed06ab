"""Rule ``setup`` told apart from a misread: a course that is not found only because a tile may
be misread (face down, not seen, a suit read wrong) is a doubt; a course laid out wrong is
still a ``setup`` verdict (a gate whose suit is not seen: ``test_gate_in_doubt``)."""

from __future__ import annotations

from tabletop.events import Doubt, Notice, Verdict
from tests.factories import tile
from tests.referee.worm_derby.helpers import START, T, course, line, new_game, play, seen

SUNS0 = line(-40, 0, 4, "suns")
MOONS0 = line(40, 0, 4, "moons")
RED = tile(-200, 600, face="up", suit="suns")


def _first(game, *pieces):
    _, out = play(game, game.initial_state(), seen(*pieces))
    return out


def test_setup_a_pylon_read_face_down_is_a_doubt_naming_it():
    game = new_game(variant="slalom", lengths={"suns": 4, "moons": 4})
    pylon_down = tile(0, 1000)
    out = _first(game, [*START, pylon_down, RED], SUNS0, MOONS0)
    assert [type(e) for e in out] == [Doubt]
    assert "(0, 1000)" in out[0].reason and "face up" in out[0].reason


def test_setup_a_pylon_not_seen_with_worms_between_the_start_tiles_is_a_doubt():
    game = new_game(variant="slalom", lengths={"suns": 4, "moons": 4})
    out = _first(game, [*START, RED], SUNS0, MOONS0)
    assert [type(e) for e in out] == [Doubt] and "pylon" in out[0].reason


def test_setup_start_tiles_too_far_apart_are_a_setup_verdict():
    game = new_game(variant="slalom", lengths={"suns": 4, "moons": 4})
    far = [tile(-4 * T, 0, face="up", suit="suns"), tile(4 * T, 0, face="up", suit="moons"),
           tile(0, 1000, face="up", suit="crowns"), RED, tile(300, 600)]
    out = _first(game, far, SUNS0, MOONS0)
    assert [(type(e), getattr(e, "rule", None)) for e in out] == [(Verdict, "setup")]


def test_setup_a_face_up_tile_of_no_gates_suit_is_an_obstacle_and_the_race_is_set_up():
    # a face-down obstacle read face up under a blind's stripes shows "moons": no gate
    game = new_game(variant="slalom", lengths={"suns": 4, "moons": 4})
    out = _first(game, course(gates=[RED, tile(200, 600, face="up", suit="crowns")]), SUNS0,
                 MOONS0)
    assert [(type(e), getattr(e, "rule", None)) for e in out] == [(Verdict, "ok"), (Notice, None)]
    assert "1 gate" in out[0].reason and "(200, 600) shows crowns" in out[1].message
    assert "obstacle" in out[1].message


def test_setup_a_coin_of_no_worm_does_not_stop_the_race_and_lies_as_an_obstacle():
    from tests.factories import coin
    from tests.referee.worm_derby.helpers import D, roll

    game = new_game(lengths={"suns": 4, "moons": 4})
    stray = coin(400, -300, "arms")
    state, out = play(game, game.initial_state(), seen(course(), SUNS0, MOONS0, stray))
    assert [(type(e).__name__, getattr(e, "rule", None)) for e in out][:2] == [
        ("Verdict", "ok"), ("Notice", None)]
    assert "(400, -300)" in out[1].message and "obstacle" in out[1].message
    # later readings with it (or without it: not seen) are judged, fouls too
    suns2, suns3 = line(-40, 2 * D, 4, "suns"), line(-40, 3 * D, 4, "suns")
    _, out = play(game, state, roll("suns", "2"), seen(course(), suns3, MOONS0, stray))
    assert [(type(e).__name__, e.rule) for e in out] == [("Verdict", "steps")]
    _, out = play(game, state, roll("suns", "2"), seen(course(), suns2, MOONS0))
    assert [(type(e).__name__, e.rule) for e in out] == [("Verdict", "ok")]


def test_setup_a_start_tile_never_seen_is_placed_from_the_tails_and_pylon_once_play_is_on():
    from tests.referee.worm_derby.helpers import D, roll

    game = new_game(lengths={"suns": 4, "moons": 4})
    one_start = [START[0], tile(0, 1000, face="up", suit="crowns")]
    state, out = play(game, game.initial_state(), seen(one_start, SUNS0, MOONS0))
    assert [type(e) for e in out] == [Doubt]  # asked first
    suns2 = line(-40, 2 * D, 4, "suns")
    state, out = play(game, state, roll("suns", "2"), seen(one_start, suns2, MOONS0))
    v = [e for e in out if isinstance(e, Verdict)]
    # suns' move judged from the first table with the tile placed there, then the setup
    assert [(x.player, x.legal, x.rule) for x in v] == [("suns", True, "ok"), (None, True, "ok")]
    assert "(101.6, 0)" in v[-1].reason or "(102, 0)" in v[-1].reason
    assert state.course is not None and (2 * T, 0.0) in state.course.start_mm


def test_setup_a_worm_read_one_coin_short_with_a_one_coin_gap_is_set_up_with_a_warning():
    from tabletop.events import Notice
    from tests.referee.worm_derby.helpers import D

    game = new_game(lengths={"suns": 4, "moons": 4})
    gap = [c for c in MOONS0 if c.centre_mm != (40.0, 2 * D)]  # its third coin not seen
    out = _first(game, course(), SUNS0, gap)
    assert isinstance(out[0], Verdict) and out[0].legal
    assert any(isinstance(e, Notice) and "gap" in e.message for e in out)


def test_setup_a_worm_read_two_coins_short_in_a_gap_two_coins_wide_is_set_up_with_them_there():
    from tabletop.events import Notice
    from tests.referee.worm_derby.helpers import D

    game = new_game(lengths={"suns": 4, "moons": 4})
    gaps = [c for c in MOONS0 if c.centre_mm not in ((40.0, D), (40.0, 2 * D))]
    state, out = play(game, game.initial_state(), seen(course(), SUNS0, gaps))
    assert isinstance(out[0], Verdict) and out[0].legal
    notes = [e.message for e in out if isinstance(e, Notice) and "gaps" in e.message]
    assert len(notes) == 1 and "2 coins fewer" in notes[0]
    assert sorted(state.worm("moons").coins_mm) == sorted(c.centre_mm for c in MOONS0)


def test_setup_a_worm_read_two_coins_short_where_its_gaps_hold_one_is_still_a_doubt():
    from tests.referee.worm_derby.helpers import D

    game = new_game(lengths={"suns": 4, "moons": 4})
    gaps = [c for c in MOONS0 if c.centre_mm not in ((40.0, D), (40.0, 3 * D))]  # an end too
    out = _first(game, course(), SUNS0, gaps)
    assert [type(e) for e in out] == [Doubt]


def test_setup_a_worm_read_short_with_a_gap_no_whole_coin_wide_is_still_a_doubt():
    from tests.factories import coin
    from tests.referee.worm_derby.helpers import D

    game = new_game(lengths={"suns": 4, "moons": 4})
    odd = [coin(40, 0, "moons"), coin(40, D, "moons"), coin(40, 3.5 * D, "moons")]
    out = _first(game, course(), SUNS0, odd)
    assert [type(e) for e in out] == [Doubt]


def test_setup_coins_not_seen_are_not_taken_to_lie_where_another_coin_lies():
    from tests.factories import coin
    from tests.referee.worm_derby.helpers import D

    game = new_game(lengths={"suns": 4, "moons": 4})
    gaps = [c for c in MOONS0 if c.centre_mm not in ((40.0, D), (40.0, 2 * D))]
    other = coin(40, 1.5 * D, "arms")  # a coin of no worm where the two would lie
    out = _first(game, course(), SUNS0, [*gaps, other])
    assert [type(e) for e in out] == [Doubt]


def test_setup_an_obstacle_read_face_up_as_moons_in_slalom_lets_every_move_be_judged():
    from tests.referee.worm_derby.helpers import D, roll

    game = new_game(variant="slalom", lengths={"suns": 4, "moons": 4})
    odd = tile(200, 600, face="up", suit="moons")
    state, _ = play(game, game.initial_state(), seen(course(gates=[RED, odd]), SUNS0, MOONS0))
    down = tile(200, 600)  # read as it lies, face down, from then on
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[RED, down]), line(-40, 2 * D, 4, "suns"), MOONS0))
    assert [(type(e), e.rule) for e in out] == [(Verdict, "ok")]
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[RED, down]), line(-40, 3 * D, 4, "suns"), MOONS0))
    assert [(type(e), e.rule) for e in out] == [(Verdict, "steps")]

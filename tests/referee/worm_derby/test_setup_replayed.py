"""A first table read in doubt, rolled on from, and completed by a later reading: the race is set
up from it and the rolls and readings kept since are judged again in turn
(:meth:`WormDerby._replayed_setup`); only when every reading before the last is then legal (a foul
or a doubt there is not provable so late: the table was never asked). Otherwise the race is set
up as the table stands, and the moves not judged are said once (a doubt, never a foul).

Held-out trust 154000 (Cannibal): the first table in doubt, suns rolled 3 and moved, moons rolled
null and moved anyway; the rolls were refused ("no course is set up yet") and the moves were never
judged, so moons' move on the null passed without a foul.
"""

from __future__ import annotations

from pathlib import Path

from referee.record import fold
from tabletop.events import Doubt, Verdict, parse_event
from tabletop.jsonin import loads
from tests.factories import tile
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, seen

NO_PYLON = course()[:2]  # the pylon not seen: no course is found
DOWN = [*NO_PYLON, tile(0, 1000)]  # the pylon read face down
ONE_START = NO_PYLON[:1]  # nor moons' start tile (no course can be guessed either)
SUNS0 = line(-40, 0, 4, "suns")
MOONS0 = line(40, 0, 4, "moons")
SUNS2 = line(-40, 2 * D, 4, "suns")
SUNS3 = line(-40, 3 * D, 4, "suns")
MOONS2 = line(40, 2 * D, 4, "moons")


def _verdicts(out):
    return [(e.player, e.legal, e.rule) for e in out if isinstance(e, Verdict)]


def test_turn_a_worm_moved_on_its_null_roll_while_the_first_table_was_in_doubt_is_a_foul():
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), seen(NO_PYLON, SUNS0, MOONS0),
                      roll("suns", "2"), seen(ONE_START, SUNS2, MOONS0), roll("moons", "null"),
                      seen(course(), SUNS2, MOONS2))
    assert _verdicts(out) == [("moons", False, "turn"), (None, True, "ok")]
    assert "suns 2, moons null" in out[-1].reason and "1 move" in out[-1].reason
    assert state.pending is not None and state.pending.player == "moons"
    # put back: the foul is put right, and it is suns' turn
    state, out = play(game, state, seen(course(), SUNS2, MOONS0))
    assert _verdicts(out) == [] and state.pending is None
    assert game.describe(state)["turn"] == "suns"


def test_steps_a_move_read_when_the_first_table_is_completed_is_judged():
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), seen(NO_PYLON, SUNS0, MOONS0),
                      roll("suns", "2"), seen(ONE_START, SUNS2, MOONS0), roll("moons", "2"),
                      seen(course(), SUNS2, MOONS2))
    assert _verdicts(out) == [("moons", True, "ok"), (None, True, "ok")]
    state, out = play(game, game.initial_state(), seen(NO_PYLON, SUNS0, MOONS0),
                      roll("suns", "2"), seen(course(), SUNS2, MOONS0))  # (_setup_completed)
    assert set(_verdicts(out)) == {("suns", True, "ok"), (None, True, "ok")}
    assert game.describe(state)["turn"] == "moons"
    _, out = play(game, state, roll("moons", "2"), seen(course(), SUNS2, line(40, 3 * D, 4,
                                                                              "moons")))
    assert _verdicts(out) == [("moons", False, "steps")]


def test_steps_a_foul_read_before_the_course_stood_is_not_called_late_but_said_once():
    game = new_game(lengths={"suns": 4, "moons": 4})
    _, out = play(game, game.initial_state(), seen(NO_PYLON, SUNS0, MOONS0),
                  roll("suns", "2"), seen(ONE_START, SUNS3, MOONS0), roll("moons", "2"),
                  seen(course(), SUNS3, MOONS2))
    assert _verdicts(out) == [(None, True, "ok")]  # no foul: suns' 3 steps were never asked
    (d,) = [e for e in out if isinstance(e, Doubt) and "could not be judged" in e.reason]
    assert "suns 2, moons 2" in d.reason


def test_turn_a_worm_of_a_player_who_rolled_is_not_taken_from_a_later_reading():
    game = new_game(lengths={"suns": 4, "moons": 4})
    _, out = play(game, game.initial_state(), seen(course(), SUNS0[1:], line(40, 0, 2, "moons")),
                  roll("suns", "2"), roll("moons", "null"), seen(course(), SUNS2, MOONS2))
    assert all(legal for _, legal, _ in _verdicts(out))  # where the worms started is not known


def test_obstacle_moved_too_far_on_an_ace_while_the_first_table_was_in_doubt_is_a_foul():
    """Not a tile found late: after an ace, only a face-up tile (no obstacle) is taken as one
    the first table missed."""
    game = new_game(lengths={"suns": 4, "moons": 4})
    rock, moved = tile(300, 500), tile(386, 500)
    _, out = play(game, game.initial_state(), seen(NO_PYLON, rock, SUNS0, MOONS0),
                  roll("suns", "2"), seen(ONE_START, rock, SUNS2, MOONS0), roll("moons", "ace"),
                  seen(course(obstacles=[moved]), SUNS2, MOONS0))
    assert _verdicts(out) == [("moons", False, "obstacle"), (None, True, "ok")]


def test_turn_the_one_tile_read_face_down_that_makes_a_course_is_the_pylon_once_play_is_on():
    game = new_game(lengths={"suns": 4, "moons": 4})
    _, out = play(game, game.initial_state(), seen(DOWN, SUNS0, MOONS0),
                  roll("suns", "2"), seen(DOWN, SUNS2, MOONS0), roll("moons", "null"),
                  seen(DOWN, SUNS2, MOONS2))
    assert _verdicts(out) == [("suns", True, "ok"), (None, True, "ok"),
                              ("moons", False, "turn")]


NO_START = [course()[0], course()[2]]  # moons' start tile never seen (suns' and the pylon are)


def test_turn_a_start_tile_never_seen_lies_where_the_tails_and_pylon_put_it_from_the_first_table():
    """Issue 13, a course read with 2 of its 3 face-up tiles: the start tile never seen is
    taken to lie where the worms' tails and the pylon put it on the first table too, so the
    moves made since are judged from it (suns' legal move, then moons' on suns' roll), not
    left unjudged as the race is set up from the table as it stands."""
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), seen(NO_START, SUNS0, MOONS0),
                      roll("suns", "2"), seen(NO_START, SUNS2, MOONS0))
    assert _verdicts(out) == [("suns", True, "ok"), (None, True, "ok")]
    assert "a start tile is not seen; it is taken to lie at (102, 0)" in out[-1].reason
    assert not [e for e in out[2:] if isinstance(e, Doubt)]
    _, out = play(game, state, roll("moons", "2"), seen(NO_START, line(-40, 3 * D, 4, "suns"),
                                                        MOONS0))
    assert _verdicts(out) == [("suns", False, "turn")]


def test_turn_a_race_that_stands_with_no_pylon_seen_judges_the_last_roll_from_its_table():
    """Issue 13 (trust 188017 misread on purpose, the pylon not seen on the first three
    stills): the race stood as the table stood after a worm had moved, so that move was never
    judged (and a foul then put right was called a move before a roll). It is set up as the
    table stood when the last roll was made (the last reading before that roll), and the
    reading is judged as that roll's move; the next foul (suns moving on moons' roll) is
    called, and its putting right is no foul."""
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), seen(NO_PYLON, SUNS0, MOONS0),
                      roll("suns", "2"), seen(NO_PYLON, SUNS2, MOONS0))
    assert _verdicts(out) == [("suns", True, "ok"), (None, True, "ok")]
    assert "as the table stood when suns rolled 2" in out[-1].reason
    assert not [e for e in out[1:] if isinstance(e, Doubt)]
    state, out = play(game, state, roll("moons", "2"),
                      seen(NO_PYLON, line(-40, 4 * D, 4, "suns"), MOONS0))
    assert _verdicts(out) == [("suns", False, "turn")]
    state, out = play(game, state, seen(NO_PYLON, SUNS2, MOONS0))  # put back: no foul
    assert _verdicts(out) == [] and state.pending is None
    _, out = play(game, state, seen(NO_PYLON, SUNS2, MOONS2))
    assert _verdicts(out) == [("moons", True, "ok")]


def test_turn_a_worm_moved_on_a_null_while_the_race_stands_with_no_pylon_seen_is_a_foul():
    """``data/readings/basic_no_pylon_move_on_a_null.jsonl``: trust 188204 as exact records
    with the pylon not seen on the first three stills (``bench_trust.py --first-misread
    pylon-gone``): suns moved 2, moons rolled null and moved anyway. The race stood as the
    table stood after moons' move (a doubt), and moons' worm put back was then called moons'
    foul; now the reading after the null is judged from the table as it stood at the null."""
    record = Path(__file__).parent / "data" / "readings" / "basic_no_pylon_move_on_a_null.jsonl"
    events = [parse_event(loads(text, record.name)) for text in record.read_text().splitlines()]
    out = fold(events)
    assert [(e.seq, e.player, e.rule) for e in out if isinstance(e, Verdict)] == [
        (5, "moons", "turn"), (5, None, "ok")]

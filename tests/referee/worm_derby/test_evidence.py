"""A foul whose evidence is seen is called though a piece elsewhere is not seen
(:mod:`referee.worm_derby.evidence`); a piece not seen is never the evidence."""

from __future__ import annotations

from tabletop.events import Verdict
from tests.factories import tile
from tests.referee.worm_derby.helpers import (
    FIRST,
    MOONS0,
    OBSTACLE,
    SUNS0,
    D,
    course,
    line,
    new_game,
    play,
    roll,
    said,
    seen,
    started,
)

MOONS2 = line(40, 2 * D, 6, "moons")  # moons' worm two steps on
SUNS2 = line(-40, 2 * D, 6, "suns")


def test_turn_a_worm_moved_on_anothers_roll_is_called_though_a_coin_of_the_mover_is_not_seen():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    suns = SUNS0[:2] + SUNS0[3:]  # a coin in the middle of suns' worm (the mover's) not seen
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), suns, MOONS2))
    assert said(out) == [("Verdict", "moons", "turn")]
    v = out[0]
    assert isinstance(v, Verdict) and "Moons' worm moved, but it is suns' turn" in v.reason


def test_turn_a_worm_moved_after_a_null_is_called_though_an_obstacle_is_not_seen():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "null"))  # moons' turn to roll
    _, out = play(game, state, seen(course(), SUNS2, MOONS0))  # the obstacle not seen
    assert said(out) == [("Verdict", "suns", "turn")]


def test_turn_a_worm_moved_read_one_coin_short_is_called_though_a_tile_is_not_seen():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "null"))
    _, out = play(game, state, seen(course(), SUNS2[1:], MOONS0))  # its tail not seen
    assert said(out) == [("Verdict", "suns", "turn")]


def test_turn_is_never_called_on_one_coin_of_another_worm_seen_in_a_new_place():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    moons = [*MOONS0[1:], line(40, 6 * D, 1, "moons")[0]]  # one coin in a new place (its tail
    # not seen): one coin may be a misread; suns' coin not seen makes the reading incomplete
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS0[:2] + SUNS0[3:], moons))
    assert said(out) and all(kind == "Doubt" for kind, _, _ in said(out))


def test_turn_is_never_called_on_a_worm_read_two_coins_short():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    _, out = play(game, state, seen(course(), SUNS0[:2] + SUNS0[3:], MOONS2[2:]))
    assert said(out) and all(kind == "Doubt" for kind, _, _ in said(out))


def test_setup_a_tile_not_seen_when_the_course_was_set_up_joins_it_before_the_first_roll():
    game = new_game()
    state = started(game, seen(course(), SUNS0, MOONS0).scene)  # the obstacle not seen
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS0, MOONS0))
    assert said(out) == [("Notice", None, None)]
    assert state.table is not None and OBSTACLE in state.table.pieces
    state, out = play(game, state, roll("suns", "2"),
                      seen(course(obstacles=[OBSTACLE]), SUNS2, MOONS0))
    assert said(out) == [("Verdict", "suns", "ok")]


def test_setup_a_tile_more_after_the_first_roll_is_no_new_course():
    game = new_game()
    state = started(game, seen(course(), SUNS0, MOONS0).scene)
    state, _ = play(game, state, roll("suns", "null"))
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS0, MOONS0))
    assert not out and state.table is not None and OBSTACLE not in state.table.pieces


def test_overlap_a_coin_laid_over_the_head_is_called_though_an_obstacle_beside_is_not_seen():
    beside = tile(-40 - D / 2 - 25.4 - 3, 3 * D)  # 3 mm clear of suns' worm: not hidden by it
    game = new_game()
    state = started(game, FIRST, seen(course(obstacles=[OBSTACLE, beside]), SUNS0, MOONS0).scene)
    state, _ = play(game, state, roll("suns", "2"))
    over = [*line(-40, 2 * D, 5, "suns"), *line(-40, 6 * D + 14, 1, "suns")]
    after, out = play(game, state, seen(course(obstacles=[OBSTACLE]), over, MOONS0))
    assert said(out) == [("Verdict", "suns", "overlap")]
    assert after.table == state.table  # the obstacle is still there, the foul changes nothing


def test_doubt_a_legal_move_beside_an_obstacle_not_seen_is_confirmed_not_faulted():
    beside = tile(-40 - D / 2 - 25.4 - 3, 3 * D)
    game = new_game()
    state = started(game, FIRST, seen(course(obstacles=[OBSTACLE, beside]), SUNS0, MOONS0).scene)
    state, _ = play(game, state, roll("suns", "2"))
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS2, MOONS0))
    assert said(out) == [("Verdict", "suns", "ok")]


def test_turn_a_worm_placed_from_a_reading_after_its_unseen_move_is_read_again_not_faulted():
    game = new_game()
    state = started(game, FIRST)
    # suns' move is never seen: taken as played when moons rolls; suns read at 4 steps on...
    state, _ = play(game, state, roll("suns", "2"), roll("moons", "3"))
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), line(-40, 4 * D, 6, "suns"),
                                        MOONS0))
    assert not out
    # ...then seen two steps on (a foul put back, or a misread): a correction, not a move
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS2, MOONS0))
    assert not out
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS2,
                                        line(40, 3 * D, 6, "moons")))
    assert said(out) == [("Verdict", "moons", "ok")]
    # once a move is judged, suns' worm is where it was read: moving it now is a foul
    state, out = play(game, state, roll("suns", "null"),
                      seen(course(obstacles=[OBSTACLE]), line(-40, 4 * D, 6, "suns"),
                           line(40, 3 * D, 6, "moons")))
    assert ("Verdict", "suns", "turn") in said(out)


def test_steps_counted_across_the_one_place_a_coin_not_seen_can_lie_are_a_foul():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "4"))
    too_far = [c for c in line(-40, 5 * D, 6, "suns") if c.y_mm != 8 * D]  # 5 steps, a coin
    # laid not seen: it lies between the two seen two widths apart (the worm is one chain)
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), too_far, MOONS0))
    assert said(out) == [("Verdict", "suns", "steps")]
    legal = [c for c in line(-40, 4 * D, 6, "suns") if c.y_mm != 7 * D]  # 4 steps
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), legal, MOONS0))
    assert said(out) == [("Verdict", "suns", "ok")]


def test_turn_a_worm_moved_on_anothers_roll_read_split_by_one_coin_not_seen_is_called():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    moons = MOONS2[:3] + MOONS2[4:]  # moons' worm moved, a coin in its middle not seen
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS0, moons))
    assert said(out) == [("Verdict", "moons", "turn")]


def test_turn_is_never_called_on_a_worm_split_by_a_gap_no_single_coin_fills():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    moons = [*MOONS2[:3], *line(40, 7 * D, 2, "moons")]  # a gap of two coins' width
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS0, moons))
    assert ("Verdict", "moons", "turn") not in said(out)


def test_turn_a_worm_moved_after_a_null_is_called_though_its_new_head_is_not_seen():
    # two steps after a null, the new head not seen: one coin in a new place, but the two
    # places its tail coins left lie empty (one coin not seen leaves one place empty at most)
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "null"))  # moons' turn to roll
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), SUNS2[:-1], MOONS0))
    assert said(out) == [("Verdict", "suns", "turn")]


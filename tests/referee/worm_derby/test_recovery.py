"""Recovery after a wrong call (issue 13, item 4): a verdict the table overrules (accept, undo,
a fix of the misread) puts the game back on track at once, and the turns after it are judged
against the corrected table and roll; an illegal verdict left unresolved while the other
player goes on is told once, not verdict after verdict."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import Accept, Correction, Doubt, Notice, SceneSeen, Undo, Undone, Verdict
from tabletop.scene import Piece
from tests.factories import coin, setup, tile
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, seen, started

OBSTACLE = tile(0, 500)
SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
SUNS2 = line(-40, 2 * D, 6, "suns")
SUNS3 = line(-40, 3 * D, 6, "suns")
MOONS3 = line(40, 3 * D, 6, "moons")
TABLE = course(obstacles=[OBSTACLE])
START = [setup("worm-derby", ["suns", "moons"]), seen(TABLE, SUNS0, MOONS0)]


def _said(events):
    """(seq, kind, player, rule) of every verdict and notice, undone ones marked."""
    out = fold(events)
    return [(e.seq, type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Notice | Undone)]


def test_recovery_a_misread_coin_fixed_is_judged_at_once_and_the_next_turn_runs_on():
    off = coin(40 + 12, 5 * D, "moons")  # moons' top coin read 12 mm off: not moons' move
    misread = seen(TABLE, SUNS2, MOONS0[:5], off)
    index = len(misread.scene.pieces) - 1
    fix = Correction("change", index, MOONS0[5])
    said = _said([*START, roll("suns", "2"), misread, fix, roll("moons", "3"),
                  seen(TABLE, SUNS2, MOONS3)])
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "moons", "turn"),
                    (4, "Verdict", "suns", "ok"), (6, "Verdict", "moons", "ok")]


def test_recovery_an_illegal_call_accepted_lets_the_next_player_be_judged():
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS3, MOONS0), Accept(),
                  roll("moons", "3"), seen(TABLE, SUNS3, MOONS3)])
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "steps"),
                    (4, "Verdict", None, "ok"), (6, "Verdict", "moons", "ok")]


def test_recovery_a_wrong_legal_call_undone_judges_the_move_again_on_the_old_table():
    # suns' move was read as legal, but the players take it back: the roll is suns' again
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS2, MOONS0), Undo(),
                  SceneSeen(seen(TABLE, SUNS0, MOONS0).scene), seen(TABLE, SUNS3, MOONS0)])
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                    (4, "Undone", None, None), (6, "Verdict", "suns", "steps")]


def test_recovery_an_illegal_call_undone_then_put_right_is_judged_legal_and_play_goes_on():
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS3, MOONS0), Undo(),
                  seen(TABLE, SUNS2, MOONS0), roll("moons", "3"), seen(TABLE, SUNS2, MOONS3)])
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "steps"),
                    (4, "Undone", None, None), (5, "Verdict", "suns", "ok"),
                    (7, "Verdict", "moons", "ok")]


def test_pending_an_unresolved_foul_is_told_once_while_both_players_go_on():
    moons_more = line(40, 5 * D, 6, "moons")
    suns_more = line(-40, 6 * D, 6, "suns")
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS3, MOONS0),
                  roll("moons", "3"), seen(TABLE, SUNS3, MOONS3),
                  roll("suns", "2"), seen(TABLE, suns_more, MOONS3),
                  roll("moons", "2"), seen(TABLE, suns_more, moons_more)])
    verdicts = [s for s in said if s[1] == "Verdict"]
    notices = [s for s in said if s[1] == "Notice"]
    assert verdicts == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "steps")]
    assert len(notices) == 1


def test_recovery_a_move_put_back_before_the_next_roll_is_taken_back_and_played_again():
    # suns' move judged legal is taken back by the players (the table as it was): no "turn"
    # verdicts against suns after it; the roll of 2 is played again and judged
    out = fold([*START, roll("suns", "2"), seen(TABLE, SUNS2, MOONS0),
                seen(TABLE, SUNS0, MOONS0[:5]), seen(TABLE, SUNS3, MOONS0),
                roll("moons", "3")])
    said = [(e.seq, type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Notice)]
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                    (4, "Notice", None, None), (5, "Verdict", "suns", "steps"),
                    (6, "Notice", None, None)]
    assert "taken back" in out[2].message


def test_recovery_a_move_is_not_taken_back_once_the_next_player_has_rolled():
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS2, MOONS0), roll("moons", "3"),
                  seen(TABLE, SUNS0, MOONS0)])
    assert said[-1] == (5, "Verdict", "suns", "turn")


# a worm read in part after its doubted move stood (a worm of four coins: moons' coins read two
# at a time, never the same two): its readings together fit it lying still, never a move
SHORT_SUNS0 = line(-40, 0, 4, "suns")
SHORT_MOONS0 = line(40, 0, 4, "moons")
SHORT_SUNS2 = line(-40, 2 * D, 4, "suns")
SHORT_MOONS3 = line(40, 3 * D, 4, "moons")
SHORT_START = [setup("worm-derby", ["suns", "moons"], lengths={"suns": 4, "moons": 4}),
               seen(TABLE, SHORT_SUNS0, SHORT_MOONS0)]


def test_turn_a_worm_read_in_part_after_its_doubted_move_is_not_moved_before_a_roll():
    m = SHORT_MOONS3
    said = _said([*SHORT_START, roll("suns", "2"), seen(TABLE, SHORT_SUNS2, SHORT_MOONS0),
                  roll("moons", "3"), seen(TABLE, SHORT_SUNS2, m[0], m[3]),  # doubted
                  roll("suns", "2"),  # the doubted move stands as read
                  seen(TABLE, line(-40, 4 * D, 4, "suns"), m[1], m[3]),
                  seen(TABLE, line(-40, 4 * D, 4, "suns"), m[0], m[2])])
    verdicts = [s for s in said if s[1] == "Verdict"]
    assert verdicts == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                        (7, "Verdict", "suns", "ok")]


def test_turn_the_next_moves_after_a_worm_read_in_part_are_judged_against_the_last_table():
    m = SHORT_MOONS3
    suns4 = line(-40, 4 * D, 4, "suns")
    said = _said([*SHORT_START, roll("suns", "2"), seen(TABLE, SHORT_SUNS2, SHORT_MOONS0),
                  roll("moons", "3"), seen(TABLE, SHORT_SUNS2, m[0], m[3]),
                  roll("suns", "2"), seen(TABLE, suns4, m[1], m[3]), seen(TABLE, suns4, m[0], m[2]),
                  roll("moons", "2"), seen(TABLE, suns4, line(40, 5 * D, 4, "moons")),
                  roll("suns", "3"), seen(TABLE, line(-40, 7 * D, 4, "suns"),
                                          line(40, 5 * D, 4, "moons"))])
    verdicts = [s for s in said if s[1] == "Verdict"]
    assert verdicts == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                        (7, "Verdict", "suns", "ok"), (10, "Verdict", "moons", "ok"),
                        (12, "Verdict", "suns", "ok")]


def test_turn_a_worm_read_in_part_that_moves_before_its_roll_is_its_foul():
    m = SHORT_MOONS3
    suns4 = line(-40, 4 * D, 4, "suns")
    said = _said([*SHORT_START, roll("suns", "2"), seen(TABLE, SHORT_SUNS2, SHORT_MOONS0),
                  roll("moons", "3"), seen(TABLE, SHORT_SUNS2, m[0], m[3]),
                  roll("suns", "2"), seen(TABLE, suns4, m[1], m[3]),
                  seen(TABLE, suns4, line(40, 6 * D, 4, "moons"))])  # moons moved on, unrolled
    verdicts = [s for s in said if s[1] == "Verdict"]
    assert verdicts[-1] == (8, "Verdict", "moons", "turn")


def test_turn_a_cannibals_victim_read_a_coin_short_where_no_coin_ate_it_keeps_the_coin():
    # moons' worm, placed from a reading after its doubted move stood, is read one end coin
    # short while suns moves (no suns coin lies there: not eaten); read whole again, it is
    # where it lay, not a move before moons' roll
    m = SHORT_MOONS3
    suns4 = line(-40, 4 * D, 4, "suns")
    said = _said([setup("worm-derby", ["suns", "moons"], cannibal=True,
                        lengths={"suns": 4, "moons": 4}),
                  seen(TABLE, SHORT_SUNS0, SHORT_MOONS0), roll("suns", "2"),
                  seen(TABLE, SHORT_SUNS2, SHORT_MOONS0), roll("moons", "3"),
                  seen(TABLE, SHORT_SUNS2, m[0], m[3]), roll("suns", "2"),
                  seen(TABLE, SHORT_SUNS2, m), seen(TABLE, suns4, m[:3]), seen(TABLE, suns4, m)])
    verdicts = [s for s in said if s[1] == "Verdict"]
    assert verdicts == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                        (8, "Verdict", "suns", "ok")]


def test_steps_a_worm_known_in_part_read_whole_with_a_coin_of_no_suit_is_judged():
    # moons' head was not seen after its move of 3 (it stood as read, three coins known); on
    # its next roll its worm is read with one coin of no suit, at its head, far from suns:
    # that coin is moons', and the move is judged
    m = SHORT_MOONS3
    suns4 = line(-40, 4 * D, 4, "suns")
    moons5 = line(40, 5 * D, 4, "moons")
    suitless = Piece("coin", moons5[3].x_mm, moons5[3].y_mm)
    said = _said([*SHORT_START, roll("suns", "2"), seen(TABLE, SHORT_SUNS2, SHORT_MOONS0),
                  roll("moons", "3"), seen(TABLE, SHORT_SUNS2, m[:3]),  # doubted
                  roll("suns", "2"), seen(TABLE, suns4, m[:3]),
                  roll("moons", "2"), seen(TABLE, suns4, moons5[:3], suitless)])
    verdicts = [s for s in said if s[1] == "Verdict"]
    assert verdicts[-1] == (9, "Verdict", "moons", "ok")


def test_obstacle_moved_on_an_ace_read_in_doubt_stands_when_its_player_rolls_again():
    # suns slide the obstacle 30 mm on an ace; that reading misses another obstacle near it
    # (a doubt); suns roll again without a fix: the obstacle lies where it was read, the other stays
    near = tile(100, 560)
    table = course(obstacles=[OBSTACLE, near])
    slid = tile(30, 500)
    game = new_game()
    state = started(game, seen(table, SUNS0, MOONS0).scene)
    state, out = play(game, state, roll("suns", "ace"),
                      seen(course(obstacles=[slid]), SUNS0, MOONS0), roll("suns", "2"))
    assert any(isinstance(e, Doubt) for e in out)
    assert any(isinstance(e, Notice) and "stands as read" in e.message for e in out)
    assert state.table is not None and state.doubted is None
    obstacles = sorted((p.x_mm, p.y_mm) for p in state.table.pieces
                       if p.kind == "tile" and p.face == "down")
    assert obstacles == [(30, 500), (100, 560)]
    _, out = play(game, state, seen(course(obstacles=[slid, near]), SUNS2, MOONS0))
    assert [(type(e).__name__, getattr(e, "rule", None)) for e in out] == [("Verdict", "ok")]

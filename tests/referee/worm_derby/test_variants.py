"""Worm Derby variants, rule by rule: Slalom gates and aces, Cannibal worms."""

from __future__ import annotations

from referee.worm_derby import Cannibal, Slalom, SlalomCannibal, WormDerby
from tabletop.events import Verdict
from tests.factories import scene, tile
from tests.referee.worm_derby.helpers import D, coins_at, course, line, new_game, play, roll, seen
from tests.referee.worm_derby.helpers import started as start_game

SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")


def only_verdict(out) -> Verdict:
    vs = [e for e in out if isinstance(e, Verdict)]
    assert len(vs) == 1, out
    return vs[0]


def test_variants_are_subclasses_found_from_the_setup_options():
    assert type(new_game()) is WormDerby
    assert type(new_game(variant="slalom")) is Slalom
    assert type(new_game(cannibal=True)) is Cannibal
    assert type(new_game(variant="slalom", cannibal=True)) is SlalomCannibal


# --------------------------------------------------------------------------- Slalom

def _slalom(gate):
    game = new_game(["suns"], variant="slalom", lengths={"suns": 2})
    first = scene(course(gates=[gate]), line(-40, 0, 2, "suns"))
    state = start_game(game, first, scene(course(gates=[gate]), line(-40, 261, 2, "suns")))
    return game, state


# the table frame is the printed mat's (x right, y down): a worm heading +y (down the mat)
# has +x on its left


def test_slalom_pass_right_of_red_tiles():
    red_left = tile(20, 300, face="up", suit="suns")
    game, state = _slalom(red_left)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[red_left]), line(-40, 261 + 2 * D, 2, "suns")))
    assert only_verdict(out).legal


def test_slalom_passing_left_of_a_red_tile_is_refused():
    red_right = tile(-100, 300, face="up", suit="suns")
    game, state = _slalom(red_right)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[red_right]), line(-40, 261 + 2 * D, 2, "suns")))
    v = only_verdict(out)
    assert not v.legal and v.rule == "gate" and "red gate" in v.reason
    assert v.where == (-100.0, 300.0)


def test_slalom_pass_left_of_blue_tiles():
    blue_right = tile(-100, 300, face="up", suit="arms")
    game, state = _slalom(blue_right)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[blue_right]), line(-40, 261 + 2 * D, 2, "suns")))
    assert only_verdict(out).legal


def test_slalom_gates_are_red_or_blue():
    green = tile(-100, 300, face="up", suit="crowns")
    game = new_game(["suns"], variant="slalom", lengths={"suns": 2})
    first = scene(course(gates=[green]), line(-40, 0, 2, "suns"))
    step = game.step(game.initial_state(), seen(first.pieces), 1)
    assert step.state.course is not None and step.state.course.gates == ()  # an obstacle
    assert "gates show suns or arms" in step.outputs[1].message


def test_slalom_left_and_right_follow_the_frame_setting():
    from dataclasses import replace

    red = tile(20, 300, face="up", suit="suns")
    game, state = _slalom(red)
    game.settings = replace(game.settings, y_axis_down=False)  # y away from the viewer
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[red]), line(-40, 261 + 2 * D, 2, "suns")))
    assert only_verdict(out).rule == "gate"


def test_slalom_an_ace_is_one_step():
    game = new_game(["suns"], variant="slalom")
    state = start_game(game, scene(course(), SUNS0))
    state, out = play(game, state, roll("suns", "ace"),
                      seen(course(), line(-40, D, 6, "suns")))
    assert only_verdict(out).legal and "1 step" in only_verdict(out).reason


def test_basic_face_up_tiles_other_than_start_and_pylon_are_obstacles_with_a_warning():
    game = new_game(["suns"])
    first = scene(course(gates=[tile(-100, 300, face="up", suit="suns")]), SUNS0)
    out = game.step(game.initial_state(), seen(first.pieces), 1).outputs
    v = only_verdict(out)
    assert v.legal
    assert any(getattr(e, "level", "") == "warning" and "counts as an obstacle" in e.message
               for e in out)


# --------------------------------------------------------------------------- Cannibal

MOONS_ACROSS = coins_at([(-40 + k * D, 6 * D) for k in range(6)], "moons")


def _cannibal():
    game = new_game(cannibal=True)
    state = start_game(game, scene(course(), SUNS0, MOONS0), scene(course(), SUNS0, MOONS_ACROSS))
    return game, state


def _eaten():
    game, state = _cannibal()
    state, out = play(game, state, roll("suns", "3"),
                      seen(course(), line(-40, D, 6, "suns"), MOONS_ACROSS[1:]))
    return game, state, out


def test_cannibal_a_step_may_eat_an_end_coin_and_ends_the_move():
    game, state, out = _eaten()
    v = only_verdict(out)
    assert v.legal and "ate an end coin of moons' worm" in v.reason
    d = game.describe(state)
    assert d["worms"][1]["length"] == 5 and d["worms"][1]["eaten"] == 1
    assert d["turn"] == "moons"


def test_cannibal_eating_ends_the_move():
    game, state = _cannibal()
    _, out = play(game, state, roll("suns", "3"),
                  seen(course(), line(-40, 2 * D, 6, "suns"), MOONS_ACROSS[1:]))
    v = only_verdict(out)
    assert (v.legal, v.rule) == (False, "cannibal") and "eating ends the move" in v.reason
    assert len(v.pieces) == 2  # the coin that ate and the one laid after it


def test_cannibal_a_coin_eaten_is_taken_off_the_table():
    game, state = _cannibal()
    _, out = play(game, state, roll("suns", "3"),
                  seen(course(), line(-40, D, 6, "suns"), MOONS_ACROSS))
    v = only_verdict(out)
    assert (v.legal, v.rule) == (False, "cannibal") and "not taken away" in v.reason


def test_cannibal_no_eating_a_worm_shorter_than_three():
    game = new_game(cannibal=True, lengths={"suns": 6, "moons": 2})
    short = MOONS_ACROSS[:2]
    state = start_game(game, scene(course(), SUNS0, line(40, 0, 2, "moons")),
                       scene(course(), SUNS0, short))
    _, out = play(game, state, roll("suns", "3"),
                  seen(course(), line(-40, D, 6, "suns"), short[1:]))
    v = only_verdict(out)
    assert not v.legal


def test_cannibal_the_eaten_worm_must_next_move_away_from_the_attacker():
    game, state, _ = _eaten()
    suns = line(-40, D, 6, "suns")
    # leading with the end beside suns's head (up from (-40 + D, 6 D)) is moving towards it
    toward = [*coins_at([(-40 + D, 8 * D), (-40 + D, 7 * D)], "moons"), *MOONS_ACROSS[1:4]]
    _, out = play(game, state, roll("moons", "2"), seen(course(), suns, toward))
    v = only_verdict(out)
    assert not v.legal and v.rule == "direction" and "move away" in v.reason
    away = coins_at([(-40 + k * D, 6 * D) for k in range(3, 8)], "moons")
    _, out = play(game, state, roll("moons", "2"), seen(course(), suns, away))
    assert only_verdict(out).legal, only_verdict(out).reason


def test_cannibal_no_worm_moves_more_steps_than_its_length():
    game = new_game(["suns"], cannibal=True, lengths={"suns": 2})
    state = start_game(game, scene(course(), line(-40, 0, 2, "suns")))
    state, _ = play(game, state, roll("suns", "5"))
    assert game.describe(state)["roll"] == "2"


def test_cannibal_an_ace_may_return_an_eaten_coin_then_roll_again():
    game, state, _ = _eaten()
    returned = coins_at([(-40 + k * D, 6 * D) for k in range(1, 7)], "moons")
    state, out = play(game, state, roll("moons", "ace"),
                      seen(course(), line(-40, D, 6, "suns"), returned))
    v = only_verdict(out)
    assert v.legal and "returned an eaten coin" in v.reason
    d = game.describe(state)
    assert d["worms"][1]["length"] == 6 and d["worms"][1]["eaten"] == 0 and d["roll"] == "again"


def test_cannibal_the_eaten_worm_may_not_attack_its_attacker_on_its_next_turn():
    game, state, _ = _eaten()
    assert not {v for v, _ in game.edible(state, "moons")} & {"suns"}
    away = coins_at([(-40 + k * D, 6 * D) for k in range(3, 8)], "moons")
    state, out = play(game, state, roll("moons", "2"),
                      seen(course(), line(-40, D, 6, "suns"), away))
    assert only_verdict(out).legal
    assert state.truce == () and state.flee == ()
    assert ("suns", 0) in game.edible(state, "moons")


def test_slalom_a_worm_finishes_only_after_passing_every_gate():
    from tabletop.events import Finish, Notice
    from tests.referee.worm_derby.helpers import lap

    far_gate = tile(300, 150, face="up", suit="arms")  # off the course: never passed
    path = lap(-60, 60, 300)
    game = new_game(["suns"], variant="slalom", lengths={"suns": 2})
    state = start_game(game, scene(course(pylon_y=300, gates=[far_gate]),
                                   coins_at(path[:2], "suns")))
    outs, i = [], 0
    for r in [5] * 8:
        i += r
        state, out = play(game, state, roll("suns", str(r)),
                          seen(course(pylon_y=300, gates=[far_gate]),
                               coins_at(path[i:i + 2], "suns")))
        outs += out
    assert not [e for e in outs if isinstance(e, Finish)]
    assert any(isinstance(e, Notice) and "has not passed the blue gate" in e.message
               for e in outs)


def test_undo_after_a_move_gives_the_turn_back():
    from referee.record import Referee
    from tabletop.events import Roll, SceneSeen, Undo
    from tests.factories import setup

    r = Referee()
    events = [setup("worm-derby", ["suns", "moons"]), SceneSeen(scene(course(), SUNS0, MOONS0)),
              Roll("suns", "2"), SceneSeen(scene(course(), line(-40, 2 * D, 6, "suns"), MOONS0))]
    for seq, e in enumerate(events):
        r.push(e, seq)
    assert r.describe()["turn"] == "moons"
    r.push(Undo(), 4)
    d = r.describe()
    assert d["turn"] == "suns" and d["roll"] == "2" and d["worms"][0]["coins"][0] == [-40.0, 0.0]

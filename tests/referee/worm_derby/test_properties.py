"""Property tests: the referee agrees with its own move generator, and never lets a coin into
an obstacle."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tabletop.events import Verdict
from tests.factories import coin, scene, tile
from tests.referee.worm_derby.helpers import D, T, coins_at, course, line, new_game, play, roll
from tests.referee.worm_derby.helpers import started as start_game

SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
HEAD = (-300.0, 400.0 + 5 * D)
MOONS = line(-300 + 3 * D, 380, 6, "moons")

tiles_near_head = st.lists(
    st.tuples(st.floats(-110, 110), st.floats(-60, 140), st.floats(0, 89.9)),
    min_size=0, max_size=5)


def _table(tiles):
    worm = line(HEAD[0], HEAD[1] - 5 * D, 6, "suns")
    placed = [tile(HEAD[0] + dx, HEAD[1] + dy, a) for dx, dy, a in tiles]
    for t in placed:  # tiles must not overlap the worms or each other on the starting table
        assume(all(math.dist(t.centre_mm, c.centre_mm) > T * 0.75 + D / 2 for c in worm + MOONS))
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assume(math.dist(a.centre_mm, b.centre_mm) > T * 1.5)
    return worm, placed


def _generated(tiles, value):
    game = new_game()
    worm, placed = _table(tiles)
    state = start_game(game, scene(course(), SUNS0, MOONS0),
                       scene(course(obstacles=placed), worm, MOONS))
    state, _ = play(game, state, roll("suns", str(value)))
    if state.roll is None:  # the worm could not move at all: the turn passed
        return None
    moves = [m for m in game.legal_moves(state, "suns", int(state.roll)) if m]
    assume(moves)
    best = max(moves, key=len)
    forward = best in game.legal_moves(state, "suns", int(state.roll))[:1]
    body = [c.centre_mm for c in worm] if forward else [c.centre_mm for c in worm][::-1]
    for q in best:
        body = [*body[1:], q]
    return game, state, placed, body, best


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(tiles=tiles_near_head, value=st.integers(2, 5))
def test_any_legal_move_the_engine_generates_is_judged_legal(tiles, value):
    got = _generated(tiles, value)
    assume(got is not None)
    game, state, placed, body, _ = got
    _, out = play(game, state, _seen(placed, body))
    v = next(e for e in out if isinstance(e, Verdict))
    assert v.legal, v.reason


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(tiles=tiles_near_head, value=st.integers(2, 5), which=st.integers(0, 4),
       target=st.integers(0, 20))
def test_any_single_coin_perturbation_into_an_obstacle_is_not_legal(tiles, value, which,
                                                                     target):
    got = _generated(tiles, value)
    assume(got is not None)
    game, state, placed, body, best = got
    spots = [t.centre_mm for t in placed] + [c.centre_mm for c in MOONS]
    spot = spots[target % len(spots)]
    k = len(body) - len(best) + which % len(best)  # one of the placed coins
    bad = list(body)
    bad[k] = (spot[0] + 2.0, spot[1] - 1.0)  # into an obstacle, a little off its centre
    _, out = play(game, state, _seen(placed, bad))
    vs = [e for e in out if isinstance(e, Verdict)]
    assert vs and not vs[0].legal, vs


def _seen(placed, body):
    from tests.referee.worm_derby.helpers import seen

    return seen(course(obstacles=placed), coins_at(body, "suns"), MOONS)


def test_generated_moves_go_round_obstacles():
    game = new_game()
    worm = line(HEAD[0], HEAD[1] - 5 * D, 6, "suns")
    wall = [tile(HEAD[0], HEAD[1] + D / 2 + 1 + T / 2)]  # straight on is blocked
    state = start_game(game, scene(course(), SUNS0, MOONS0),
                       scene(course(obstacles=wall), worm, MOONS))
    state, _ = play(game, state, roll("suns", "3"))
    moves = game.legal_moves(state, "suns", 3)
    assert max(len(m) for m in moves) == 3


pieces_st = st.lists(st.one_of(
    st.builds(lambda x, y, s: coin(x, y, s), st.floats(-200, 200), st.floats(-50, 400),
              st.sampled_from(["suns", "moons", "arms"])),
    st.builds(lambda x, y, a, f: tile(x, y, a, f), st.floats(-200, 200), st.floats(-50, 400),
              st.floats(0, 89), st.sampled_from(["up", "down"]))), max_size=14)
event_st = st.one_of(
    st.builds(lambda ps: ("scene", ps), pieces_st),
    st.builds(lambda p, v: ("roll", p, v), st.sampled_from(["suns", "moons"]),
              st.sampled_from(["null", "ace", "2", "3", "4", "5"])))


@settings(max_examples=40, deadline=None)
@given(events=st.lists(event_st, max_size=8), variant=st.sampled_from(["basic", "slalom"]),
       cannibal=st.booleans())
def test_any_record_is_judged_without_crashing(events, variant, cannibal):
    from referee.record import fold
    from tabletop.events import Roll, SceneSeen
    from tests.factories import setup

    first = SceneSeen(scene(course(), SUNS0, MOONS0))
    record = [setup("worm-derby", ["suns", "moons"], variant=variant, cannibal=cannibal), first]
    for e in events:
        if e[0] == "scene":
            record.append(SceneSeen(scene(course(), e[1], SUNS0[:3], MOONS0[:4])))
        else:
            record.append(Roll(e[1], e[2]))
    for out in fold(record):
        if isinstance(out, Verdict):
            assert out.reason and out.rule

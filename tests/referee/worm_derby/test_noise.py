"""Vision noise: coins measured with about 0.6 mm of noise per coordinate are still read as the
same worms, and a legal move is still judged legal."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.worm_derby.worms import extract_worm
from tabletop.events import SceneSeen, Verdict
from tests.factories import scene
from tests.referee.worm_derby.helpers import D, coins_at, course, line, new_game, play, roll
from tests.referee.worm_derby.helpers import started as start_game

SIGMA_MM = 0.6
SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")


def bent(start, heading_deg, turn_deg, n=6):
    """``n`` touching coin centres from ``start``, turning ``turn_deg`` at every coin."""
    pts = [start]
    a = math.radians(heading_deg)
    for _ in range(n - 1):
        pts.append((pts[-1][0] + D * math.cos(a), pts[-1][1] + D * math.sin(a)))
        a += math.radians(turn_deg)
    return pts


def noisy(points, rng):
    """Each point moved by normal noise of ``SIGMA_MM`` per coordinate, the move at most
    ``2 * SIGMA_MM`` long (vision's centre error p95 is about 1.0-1.3 mm: an unbounded normal
    sometimes opens a 4 mm gap between touching coins, which is a split worm, not noise)."""
    out = []
    for x, y in points:
        dx, dy = rng.normal(0, SIGMA_MM, 2)
        k = min(1.0, 2 * SIGMA_MM / max(math.hypot(dx, dy), 1e-9))
        out.append((x + k * dx, y + k * dy))
    return out


worms_st = st.tuples(st.floats(0, 360), st.sampled_from([0.0, 10.0, -15.0, 25.0, -30.0]),
                     st.floats(0, 360), st.sampled_from([0.0, 12.0, -20.0, 30.0]),
                     st.integers(0, 2**32 - 1))


@settings(max_examples=60, deadline=None)
@given(worms=worms_st)
def test_noisy_coins_are_read_as_the_same_worms(worms):
    h1, t1, h2, t2, seed = worms
    rng = np.random.default_rng(seed)
    suns = bent((-300.0, 400.0), h1, t1)
    moons = bent((300.0, 400.0), h2, t2)
    s = scene(course(), coins_at(noisy(suns, rng), "suns"), coins_at(noisy(moons, rng), "moons"))
    for suit, truth in (("suns", suns), ("moons", moons)):
        w = extract_worm(s, suit, D)
        assert w.ok, w.detail
        got = [s.pieces[i].centre_mm for i in w.coins]
        if math.dist(got[0], truth[0]) > math.dist(got[0], truth[-1]):
            got = got[::-1]
        assert all(math.dist(a, b) < 5 * SIGMA_MM for a, b in zip(got, truth, strict=True))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=st.sampled_from([0.0, 10.0, -15.0, 20.0]), value=st.integers(2, 5),
       seed=st.integers(0, 2**32 - 1))
def test_a_legal_move_seen_with_noise_is_judged_legal(turn, value, seed):
    rng = np.random.default_rng(seed)
    game = new_game()
    worm = bent((-300.0, 400.0), 90.0, turn)
    moons = line(-300 + 4 * D, 380, 6, "moons")
    seen_worm = noisy(worm, rng)
    table = scene(course(), coins_at(seen_worm, "suns"), moons)
    state = start_game(game, scene(course(), SUNS0, MOONS0), table)
    state, _ = play(game, state, roll("suns", str(value)))
    assert state.roll is not None
    track = [tuple(c) for c in state.worm("suns").coins_mm]
    moves = [m for m in game.legal_moves(state, "suns", int(state.roll)) if m]
    best = max(moves, key=len)
    # the first coin placed touches the head: the end it lies nearer to. The player places
    # the coins against the real head, not the measured one, and the new picture measures
    # every coin once more: noise is added to true places only (never twice to one coin).
    same_order = math.dist(track[0], seen_worm[0]) < math.dist(track[0], seen_worm[-1])
    truth = list(worm) if same_order else list(worm[::-1])  # in the track's order
    head_at_end = math.dist(best[0], track[-1]) < math.dist(best[0], track[0])
    body = truth if head_at_end else truth[::-1]
    head_seen = track[-1] if head_at_end else track[0]
    shift = (body[-1][0] - head_seen[0], body[-1][1] - head_seen[1])
    for q in best:
        body = [*body[1:], (q[0] + shift[0], q[1] + shift[1])]
    after = scene(course(), coins_at(noisy(body, rng), "suns"), moons)
    _, out = play(game, state, SceneSeen(after))
    v = next(e for e in out if isinstance(e, Verdict))
    assert v.legal, v.reason


@pytest.mark.parametrize(("gap_d", "rule"), [(1.3, "shape"), (1.0 - 5.0 / D, "overlap")])
def test_the_noise_tolerance_still_tells_touching_and_overlapping(gap_d, rule):
    # the head at (-40, 5 D); the next coin straight on, gap_d diameters from it
    game = new_game()
    state = start_game(game, scene(course(), SUNS0, MOONS0))
    moved = [*SUNS0[1:], *coins_at([(-40.0, 5 * D + gap_d * D)], "suns")]
    state2, _ = play(game, state, roll("suns", "2"))
    _, out = play(game, state2, SceneSeen(scene(course(), moved, MOONS0)))
    v = next(e for e in out if isinstance(e, Verdict))
    assert not v.legal and v.rule == rule, v.reason


def _hook(clear_mm):
    """Suns' worm (up the y axis, head at (-40, 5 D)) on a roll of 2: a coin laid beside its
    head, then one turning back down beside it, ``clear_mm`` (centre to centre) from the body
    coin below the head."""
    body = [(-40.0, k * D) for k in range(6)]
    first, below = (-40.0 - D, 5 * D), body[4]
    lo, hi = math.radians(255), math.radians(270)  # the second coin's bearing from the first
    for _ in range(60):
        mid = (lo + hi) / 2
        second = (first[0] + D * math.cos(mid), first[1] + D * math.sin(mid))
        lo, hi = (mid, hi) if math.dist(second, below) > clear_mm else (lo, mid)
    return body, [*body[2:], first, second]


@pytest.mark.parametrize(("clear_mm", "legal"), [(21.5, True), (19.5, False)])
def test_shape_a_coin_read_touching_its_worms_body_only_within_the_noise_is_no_loop(clear_mm,
                                                                                      legal):
    body, moved = _hook(clear_mm)
    assert math.dist(moved[-1], moved[-2]) == pytest.approx(D, abs=0.05)
    game = new_game()
    state = start_game(game, scene(course(), coins_at(body, "suns"), MOONS0))
    state2, _ = play(game, state, roll("suns", "2"))
    _, out = play(game, state2, SceneSeen(scene(course(), coins_at(moved, "suns"), MOONS0)))
    v = next(e for e in out if isinstance(e, Verdict))
    assert v.legal == legal and (legal or v.rule == "shape"), v.reason


@pytest.mark.parametrize(("clear_mm", "status"), [(21.5, "ok"), (19.5, "branch")])
def test_shape_a_worm_branches_only_where_a_coin_surely_touches_a_third(clear_mm, status):
    _, moved = _hook(clear_mm)
    assert extract_worm(scene(coins_at(moved, "suns")), "suns", D).status == status

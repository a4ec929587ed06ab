"""Property tests: any bend of a worm, with vision noise, is judged by the count it moved."""

from __future__ import annotations

import itertools
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.worm_up import geometry as geo
from tabletop.events import SceneSeen
from tests.referee.worm_up.tables import FINISH, START, Game, advance, start_table, table, verdict

headings = st.lists(st.floats(min_value=80.0, max_value=100.0), min_size=7, max_size=7)
noise = st.lists(st.tuples(st.floats(-2.0, 2.0), st.floats(-2.0, 2.0)), min_size=21,
                 max_size=21)


def _jitter(worms, offsets):
    it = iter(offsets)
    return {p: [(x + dx, y + dy) for (x, y), (dx, dy) in zip(w, it, strict=False)]
            for p, w in worms.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bid=st.sampled_from([4, 5, 6, 7]), moved=st.integers(1, 7), bends=headings, jitter=noise)
def test_a_move_is_legal_exactly_when_it_moves_the_number_bid(bid, moved, bends, jitter):
    g = Game()
    g.start()
    others = [n for n in (4, 5, 6, 7) if n != bid][:2]
    g.bids(red=str(bid), yellow=str(others[0]), green=str(others[1]))
    first = min(bid, *others)
    mover = {bid: "red", others[0]: "yellow", others[1]: "green"}[first]
    worms = dict(g.worms)
    worms[mover] = advance(worms[mover], moved, bends[:moved])
    v = verdict(g.scene(_jitter(worms, jitter)))
    if moved == first:
        assert v.legal, v
        head = g.referee.describe()["worms"][mover]["head_mm"]
        assert geo.dist(tuple(head), worms[mover][-1]) < 3.0
    else:
        assert not v.legal and v.rule == "steps", v


@settings(max_examples=40, deadline=None)
@given(points=st.lists(st.tuples(st.floats(-100, 100), st.floats(-100, 100)), min_size=2,
                       max_size=7))
def test_best_chain_links_only_touching_neighbours(points):
    order = geo.best_chain(points, 20.0, 4.0)
    if order is not None:
        assert sorted(order) == list(range(len(points)))
        assert all(geo.touch(points[a], points[b], 20.0, 4.0)
                   for a, b in itertools.pairwise(order))


def _turned(points, deg, shift):
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    return [(x * c - y * s + shift[0], x * s + y * c + shift[1]) for x, y in points]


@settings(max_examples=30, deadline=None)
@given(deg=st.floats(0.0, 360.0), shift=st.tuples(st.floats(-500, 500), st.floats(-500, 500)))
def test_the_course_may_lie_any_way_round_on_the_table(deg, shift):
    players = ("red", "yellow", "green")
    g = Game(players)
    worms = {p: _turned(w, deg, shift) for p, w in start_table(players).items()}
    posts = _turned([*START, *FINISH], deg, shift)
    v = verdict(g.push(SceneSeen(table(worms, posts))))
    assert v.legal, v
    g.bids(red="4", yellow="5", green="6")
    moved = dict(worms)
    moved["red"] = advance(worms["red"], 4, 90.0 + deg)
    assert verdict(g.push(SceneSeen(table(moved, posts)))).legal
    wrong = dict(moved)
    wrong["yellow"] = advance(worms["yellow"], 4, 90.0 + deg)
    v = verdict(g.push(SceneSeen(table(wrong, posts))))
    assert not v.legal and v.rule == "steps"


@settings(max_examples=60, deadline=None)
@given(changes=st.lists(st.tuples(st.sampled_from(["red", "yellow", "green", "post"]),
                                  st.integers(0, 6),
                                  st.tuples(st.floats(-700, 700), st.floats(-700, 700))),
                        max_size=6),
       drop=st.lists(st.integers(0, 24), max_size=2),
       phase=st.sampled_from(["bidding", "moving"]))
def test_any_table_gets_at_most_one_verdict_and_never_an_exception(changes, drop, phase):
    g = Game()
    g.start()
    if phase == "moving":
        g.bids(red="X", yellow="5", green="6")
    worms = {p: list(w) for p, w in g.worms.items()}
    posts = list(g.posts)
    for who, i, xy in changes:
        if who == "post":
            posts[i % 4] = xy
        else:
            worms[who][i] = xy
    scene = table(worms, posts)
    for i in sorted(set(drop), reverse=True):
        if i < len(scene.pieces):
            scene = scene.without_piece(i)
    out = g.push(SceneSeen(scene))
    verdicts = [e for e in out if e.type == "verdict"]
    assert len(verdicts) <= 1
    if not changes and not drop:
        assert out == ()
    for v in verdicts:
        assert v.reason.endswith(".") and "\n" not in v.reason

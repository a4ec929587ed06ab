"""A coin read with another worm's suit (issue 13 item 3: the previous accepted table resolves
doubtful readings of pieces that did not move): the worm lying still shows all its coins where
they lay and one more where none of its coins lay, the mover's worm one coin short, so that
coin is the mover's, or a worm's moved out of turn
(:func:`referee.worm_derby.reading._coin_read_as_still`)."""

from __future__ import annotations

from dataclasses import replace

from referee.worm_derby.reading import ReadingRules, reconcile
from tabletop.scene import Scene
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


def moved(steps: int, head_as: str) -> list:
    """Suns' worm ``steps`` steps on, its head read as a ``head_as`` coin."""
    worm = line(-40, steps * D, 6, "suns")
    return [*worm[:-1], replace(worm[-1], suit=head_as)]


def test_steps_a_move_too_long_is_called_though_the_movers_head_reads_as_the_other_worms():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), moved(3, "moons"), MOONS0))
    assert said(out) == [("Verdict", "suns", "steps")]


def test_steps_a_legal_move_is_confirmed_though_the_movers_head_reads_as_the_other_worms():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    after, out = play(game, state, seen(course(obstacles=[OBSTACLE]), moved(2, "moons"), MOONS0))
    assert said(out) == [("Verdict", "suns", "ok")]
    assert after.table is not None
    assert sum(1 for p in after.table.pieces if p.kind == "coin" and p.suit == "moons") == 6


def test_shape_a_coin_read_as_a_still_worms_is_not_lent_when_that_worm_moved():
    # moons' worm shows a coin off its old places and one of them missing: it may have moved
    # (out of turn), so its extra coin is not the mover's
    old = Scene.of([*SUNS0, *MOONS0])
    moons = [*MOONS0[1:], *line(40, 6 * D, 2, "moons")]
    new = Scene.of([*line(-40, 2 * D, 5, "suns"), *moons])
    r = reconcile(old, new, ReadingRules(D, 50.8, {"suns": 6, "moons": 6}, "suns",
                                         frozenset({"suns", "moons"})))
    assert not r.complete
    assert not any("whose worm lies still" in s for s in r.resolved)


def test_shape_a_coin_of_a_still_worm_far_from_the_mover_is_not_lent():
    old = Scene.of([*SUNS0, *MOONS0])
    far = line(300, 0, 1, "moons")
    new = Scene.of([*line(-40, 2 * D, 5, "suns"), *MOONS0, *far])
    r = reconcile(old, new, ReadingRules(D, 50.8, {"suns": 6, "moons": 6}, "suns",
                                         frozenset({"suns", "moons"})))
    assert not r.complete


def test_setup_a_first_table_with_a_coin_read_as_the_other_worms_is_set_up():
    # moons' head read as a sun: suns' coins are two chains, moons' worm one short; the coin
    # joins moons' worm and leaves suns' one chain, so it is moons'
    game = new_game()
    first = seen(course(obstacles=[OBSTACLE]), SUNS0, MOONS0[:-1],
                 replace(MOONS0[-1], suit="suns"))
    step = game.step(game.initial_state(), first, 1)
    assert said(step.outputs) == [("Verdict", None, "ok")]
    assert step.state.table is not None
    assert sum(1 for p in step.state.table.pieces if p.kind == "coin" and p.suit == "moons") == 6


def test_setup_a_coin_read_as_the_other_worms_that_fits_neither_way_is_asked_about():
    # suns' worm one coin too many as one chain: which coin is not suns' is not known
    game = new_game()
    first = seen(course(obstacles=[OBSTACLE]), SUNS0, replace(SUNS0[0], y_mm=-D, suit="suns"),
                 MOONS0[:-1])
    step = game.step(game.initial_state(), first, 1)
    assert not any(getattr(o, "legal", False) for o in step.outputs)


def test_turn_a_worm_moved_out_of_turn_is_called_though_a_new_coin_reads_as_the_rollers():
    game = new_game()
    state = started(game, FIRST)
    state, out = play(game, state, roll("suns", "2"),
                      seen(course(obstacles=[OBSTACLE]), line(-40, 2 * D, 6, "suns"), MOONS0),
                      roll("moons", "2"))
    assert said(out)[0] == ("Verdict", "suns", "ok")
    worm = line(-40, 4 * D, 6, "suns")  # two steps more; its first new coin read as a moon
    worm[4] = replace(worm[4], suit="moons")
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), worm, MOONS0))
    assert said(out) == [("Verdict", "suns", "turn")]

"""The mover's own fouls judged on a reading of its worm one coin short (issue 13: "a foul only
when it holds for every way the unseen pieces could be"): ``steps`` and ``overlap`` are called
when the move is that foul wherever the coin not seen lies and keeps the worm one chain (where
it lay, in the gap it leaves, touching either end at any angle); when one of those ways makes
the move legal, or another rule, the table is asked."""

from __future__ import annotations

from tests.factories import coin
from tests.referee.worm_derby.helpers import (
    FIRST,
    MOONS0,
    OBSTACLE,
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


def _judged(value, worm):
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", value))
    return play(game, state, seen(course(obstacles=[OBSTACLE]), worm, MOONS0))


def test_steps_five_whole_steps_on_a_three_whatever_the_tail_coin_not_seen_does():
    moved = line(-40, 5 * D, 6, "suns")  # five coins laid; the tail (the old head) stayed
    _, out = _judged("3", moved[1:])
    assert said(out) == [("Verdict", "suns", "steps")]
    assert "5 steps" in out[0].reason


def test_overlap_head_laid_over_whatever_a_middle_coin_not_seen_does():
    moved = [*line(-40, 2 * D, 5, "suns"), coin(-40, 6.7 * D, "suns")]  # 2 steps, head over
    _, out = _judged("2", [c for c in moved if c != moved[1]])
    assert said(out) == [("Verdict", "suns", "overlap")]


def test_doubt_overlap_not_proved_when_the_overlapping_coin_is_not_seen():
    # the coin laid over the head is the one not seen: laid touching it instead, the move of
    # two steps is legal, so the table is asked
    moved = [*line(-40, 2 * D, 5, "suns"), coin(-40, 6.7 * D, "suns")]
    _, out = _judged("2", moved[:-1])
    assert [k for k, _, _ in said(out)] == ["Doubt"]


def test_doubt_steps_not_proved_when_the_coin_not_seen_may_be_the_tail_still_there():
    # four steps on a 3, the head not seen: three coins seen laid, and with the coin not seen
    # still where the tail lay the move is three steps, legal, so the table is asked
    moved = line(-40, 4 * D, 6, "suns")
    _, out = _judged("3", moved[:-1])
    assert [k for k, _, _ in said(out)] == ["Doubt"]

"""The worm whose move is next read one segment short at an end of its chain in every reading
(a camera missing one place, a segment on a cloth of its colour): judged under every count it
may have moved (its tail where it lay or moved, its head laid or not); a verdict only when
every count gives the same one (referee/worm_up/short_counts.py)."""

from __future__ import annotations

from tabletop.events import Doubt, SceneSeen, Verdict
from tests.referee.worm_up.tables import Game, moved, verdict, without


def test_one_too_many_with_its_tail_not_seen_is_a_steps_foul_wherever_it_lies():
    g = Game()
    whole = moved(g, "red", 5)  # a bid of 4; its tail (where it lay) not seen
    v = verdict(g.push(SceneSeen(without(whole, 0))))
    assert not v.legal and (v.player, v.rule) == ("red", "steps")
    assert "not seen" in v.reason


def test_one_too_many_with_its_head_not_seen_may_be_a_legal_move_so_a_doubt():
    # 5 laid, the last not seen: or 4 laid with the tail where it lay not seen
    g = Game()
    out = g.push(SceneSeen(without(moved(g, "red", 5), 6)))
    assert [type(e) for e in out] == [Doubt], out


def test_a_legal_move_with_an_end_not_seen_stays_a_doubt():
    # its tail not seen: a move of 4 with the tail where it lay, or of 5 with the head ahead
    for k in (0, 6):
        g = Game()
        out = g.push(SceneSeen(without(moved(g, "red", 4), k)))
        assert [type(e) for e in out] == [Doubt], (k, out)


def test_a_worm_not_to_move_read_short_is_never_judged_from_a_guess():
    g = Game()
    whole = moved(g, "yellow", 5)  # red moves first
    worm = [i for i, p in enumerate(whole.pieces) if p.color == "yellow"]
    out = g.push(SceneSeen(without(whole, worm[-1])))  # its head not seen
    assert not any(isinstance(e, Verdict) and "not seen" in e.reason for e in out), out

"""An ``order`` or ``turn`` foul only when it is provable from what was read
(referee/worm_up/turns.py ``rule_in_its_turn``): every worm due before the mover is where a
judged move or a table read before the round's reveal put it. A worm taken as moved and placed
where a table read it after the reveal (``placed_late``) may lie where its move of this round
already took it, unseen: then a doubt, never a foul.

``worms_taken_as_moved_then_the_next_round_read.jsonl`` is the exact record the camera gave of
a rendered playthrough (session 19's report play 138617, Worm Up! under a blind): the first
table was in doubt and stood as read after round 1 (its worms mid-race, the heads taken at the
start line); round 2 was read short throughout, so every worm was taken as moved at the bids;
the first table of round 3 showed blue's move of 4, and blue, seen 2 of 7 at the bids (its
tail end), was placed there as if it had not moved: yellow's move then gave the false alarm
"It is blue's move before yellow".
"""

from __future__ import annotations

from pathlib import Path

from referee.record import Referee
from tabletop.events import Doubt, Verdict, parse_event
from tabletop.jsonin import loads
from tests.referee.worm_up.tables import Game, advance, verdict

READINGS = Path(__file__).parent / "data" / "readings"


def _replay(name: str) -> tuple[Referee, list[tuple]]:
    """The referee after an exact record, and the outputs of each of its events."""
    path = READINGS / f"{name}.jsonl"
    referee = Referee()
    return referee, [referee.push(parse_event(loads(line, path.name)), k)
                     for k, line in enumerate(path.read_text().splitlines())]


def test_an_order_foul_needs_every_worm_due_before_the_mover_proved_still():
    _, out = _replay("worms_taken_as_moved_then_the_next_round_read")
    fouls = [e for step in out for e in step if isinstance(e, Verdict) and not e.legal]
    assert not fouls, fouls  # 138617: "yellow order: It is blue's move before yellow (6)"
    # round 3 (blue 4, yellow 6, red 7): blue's move in doubt, yellow's and red's judged
    assert verdict(out[24]).legal and verdict(out[24]).player == "yellow"
    assert verdict(out[25]).legal and verdict(out[25]).player == "red"


def test_a_mover_seen_at_the_bids_without_its_head_is_not_placed_from_a_table_after_the_reveal():
    referee = Referee()
    path = READINGS / "worms_taken_as_moved_then_the_next_round_read.jsonl"
    lines = path.read_text().splitlines()
    for k, line in enumerate(lines[:24]):  # to round 3's first table (blue's move of 4)
        out = referee.push(parse_event(loads(line, path.name)), k)
    state = referee.state
    assert "blue" in state.unsure, state.unsure  # its 2 segments seen at the bids, its tail
    assert any(isinstance(e, Doubt) for e in out), out
    assert state.worm("blue").head_mm[1] > state.worm("blue").tail_mm[1]  # toward the finish


def _green_placed_after_the_reveal() -> Game:
    """Round 1 (red 4, yellow 5, green X): green's move read with its head not seen (a doubt);
    round 2 (red 5, green 6, yellow 7): green taken as moved at the bids, its number never
    known; the first table after the reveal shows green moved again (before red, unseen):
    green is placed there."""
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="X")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    g.worms["green"] = advance(g.worms["green"], 6)
    shown = dict(g.worms)
    shown["green"] = g.worms["green"][:6]  # its head not seen
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    g.bids(red="5", green="6", yellow="7")
    assert g.state.unsure == ("green",)
    g.worms["green"] = advance(g.worms["green"], 6)  # out of its turn, before red
    out = g.scene()
    assert not [e for e in out if isinstance(e, Verdict)], out
    assert g.state.unsure == () and g.state.placed_late == ("green",)
    return g


def test_an_order_foul_after_a_worm_placed_after_the_reveal_is_a_doubt():
    g = _green_placed_after_the_reveal()
    assert verdict(g.move("red", 5)).legal
    out = g.move("yellow", 7)  # after green in the order, which may have moved unseen
    assert not [e for e in out if isinstance(e, Verdict)], out
    assert [(type(e), e.player) for e in out] == [(Doubt, "yellow")]
    assert "green's worm was placed" in out[0].reason


def test_an_order_foul_before_a_worm_proved_still_is_a_foul_all_the_same():
    g = _green_placed_after_the_reveal()
    out = g.move("yellow", 7)  # before red, which lies where its judged move put it
    v = verdict(out)
    assert not v.legal and (v.player, v.rule) == ("yellow", "order"), v


def test_a_move_taken_as_made_proves_no_foul_and_is_taken_as_moved_again_after_a_doubt():
    # misread sim 159306 (exact records misread, 0.5, the same piece missed in both readings):
    # yellow's move of 7 read 6 of 7 (a doubt), taken as moved at the bids; blue moves before
    # yellow and is put back; yellow, read where that table showed it, had its move of 4 taken
    # as made before it was made; its real move was then a doubt, and yellow got "Only one worm
    # may move at a time" and, next round judged from where it no longer lay, "moved 4 of 7"
    _, out = _replay("a_move_taken_as_made_before_it_was_made")
    fouls = [e for step in out for e in step if isinstance(e, Verdict) and not e.legal]
    assert [(v.player, v.rule) for v in fouls] == [("red", "steps")], fouls  # the real one
    assert verdict(out[30]).legal and verdict(out[30]).player == "yellow"  # round 3: 7

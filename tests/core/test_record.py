"""Record folding shared by every game: setup first, hands skipped, corrections, accept, undo."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from referee.base import Game, Step
from referee.record import Referee, fold
from referee.registry import find_game, register_game
from tabletop.errors import RecordFormatError
from tabletop.events import (
    Accept,
    Correction,
    Roll,
    SceneSeen,
    Undo,
    Undone,
    Verdict,
)
from tabletop.scene import Piece, Scene
from tests.factories import coin, scene, setup


@dataclass(frozen=True)
class CountState:
    table: Scene | None
    moves: int = 0


@register_game
class CoinCount(Game):
    """A toy game for these tests: a scene is legal when it has no more coins than the last."""

    name = "test-coin-count"
    aliases = ("tcc",)

    def initial_state(self):
        return CountState(None)

    def step(self, state, event, seq):
        if isinstance(event, Roll):
            return Step(state)
        assert isinstance(event, SceneSeen)
        new = event.scene
        if state.table is not None and len(new.of_kind("coin")) > len(state.table.of_kind("coin")):
            return Step(state, (Verdict(seq, None, False, "extra", "a coin appeared"),))
        return Step(replace(state, table=new, moves=state.moves + 1),
                    (Verdict(seq, None, True, "ok", "fine"),))

    def accept(self, state, scene, seq):
        return Step(replace(state, table=scene), (Verdict(seq, None, True, "ok", "accepted"),))

    def describe(self, state):
        return {"moves": state.moves}


S2 = scene(coin(0, 0), coin(30, 0))
S3 = scene(coin(0, 0), coin(30, 0), coin(60, 0))


def test_games_are_found_by_name_or_alias_and_unknown_names_are_refused():
    assert find_game("tcc") is CoinCount
    with pytest.raises(RecordFormatError, match="unknown game 'chess'"):
        find_game("chess")


def test_a_record_must_begin_with_a_setup():
    with pytest.raises(RecordFormatError, match="must begin with a setup"):
        fold([SceneSeen(S2)])


def test_scenes_with_a_hand_over_the_table_are_never_judged():
    out = fold([setup("tcc", ["a"]), SceneSeen(S2.with_hand(True))])
    assert out == []


def test_verdict_seq_is_the_position_of_the_judged_event():
    out = fold([setup("tcc", ["a"]), SceneSeen(S2), SceneSeen(S3)])
    assert [(v.seq, v.legal) for v in out] == [(1, True), (2, False)]


def test_after_an_illegal_verdict_the_last_accepted_table_stands():
    r = Referee()
    for i, e in enumerate([setup("tcc", ["a"]), SceneSeen(S2), SceneSeen(S3)]):
        r.push(e, i)
    assert r.state.table == S2


def test_correction_fixes_the_last_scene_and_the_fixed_scene_is_judged():
    events = [setup("tcc", ["a"]), SceneSeen(S2), SceneSeen(S3), Correction("remove", index=2)]
    out = fold(events)
    assert (out[-1].seq, out[-1].legal) == (3, True)


def test_accept_makes_the_last_scene_the_table():
    r = Referee()
    for i, e in enumerate([setup("tcc", ["a"]), SceneSeen(S2), SceneSeen(S3), Accept()]):
        r.push(e, i)
    assert r.state.table == S3


def test_undo_returns_to_before_the_last_verdict():
    r = Referee()
    for i, e in enumerate([setup("tcc", ["a"]), SceneSeen(S2), SceneSeen(scene(coin(0, 0)))]):
        r.push(e, i)
    assert r.describe()["moves"] == 2
    assert r.push(Undo(), 3) == (Undone(3, 2),)
    assert r.state.table == S2 and r.describe()["moves"] == 1
    assert r.push(Undo(), 4) == (Undone(4, 1),)
    undo3 = r.push(Undo(), 5)
    assert isinstance(undo3[0], Verdict) and undo3[0].rule == "undo" and not undo3[0].legal


def test_output_events_in_a_record_are_derived_anew_not_trusted():
    fake = Verdict(1, None, False, "made-up", "not ours")
    events = [setup("tcc", ["a"]), SceneSeen(S2), fake]
    assert fold(events) == [Verdict(1, None, True, "ok", "fine")]


def test_a_replay_gives_the_same_outputs():
    events = [setup("tcc", ["a"]), SceneSeen(S2), Roll("a", "3"), SceneSeen(S3),
              Correction("change", index=0, piece=Piece("post", 0, 0)), Undo(), Accept()]
    assert fold(events) == fold(list(events))

"""Jungle: the first table stands from imperfect readings (a token one reading lacks is carried
from another that saw it; one token never seen is taken to stand on its start square, with a
warning), and the turns after it are judged."""

from __future__ import annotations

from referee.jungle import geometry as g
from referee.record import fold
from tabletop.events import Doubt, Notice, SceneSeen, Setup, Verdict
from tabletop.scene import Scene
from tests.referee.jungle.helpers import start_tokens

PLAYERS = ("ann", "bob")


def _setup() -> Setup:
    return Setup("jungle", PLAYERS, {})


def _seen(pieces) -> SceneSeen:
    return SceneSeen(Scene.of(pieces))


def _verdicts(out) -> list[tuple[int, bool, str]]:
    return [(v.seq, v.legal, v.rule) for v in out if isinstance(v, Verdict)]


def test_setup_one_token_never_seen_stands_on_its_start_square_with_a_warning():
    out = fold([_setup(), _seen(start_tokens(removed=("b2",)))])
    assert _verdicts(out) == [(1, True, "ok")]
    warned = [o for o in out if isinstance(o, Notice)]
    assert len(warned) == 1 and "cat" in warned[0].message and "b2" in warned[0].message


def test_setup_two_tokens_never_seen_are_asked_about():
    out = fold([_setup(), _seen(start_tokens(removed=("b2", "c3")))])
    assert _verdicts(out) == [] and isinstance(out[-1], Doubt)
    assert out[-1].where == g.square_centre_mm(g.parse_square("b2"))


def test_setup_a_token_one_reading_lacks_is_carried_from_another_that_saw_it():
    out = fold([_setup(), _seen(start_tokens(removed=("b2", "c3"))),
                _seen(start_tokens(removed=("g3", "e3")))])
    assert isinstance(out[0], Doubt)
    assert _verdicts(out) == [(2, True, "ok")]
    assert not [o for o in out if isinstance(o, Notice)]  # each token was seen once


def test_water_a_foul_after_a_setup_with_a_token_never_seen_is_called():
    tokens = start_tokens(removed=("c7",))
    out = fold([_setup(), _seen(tokens), _seen(start_tokens({"e3": "e4"}, removed=("c7",)))])
    assert _verdicts(out) == [(1, True, "ok"), (2, False, "water")]
    assert out[-1].player == "ann"


def test_turn_a_first_move_out_of_turn_is_called_though_a_token_it_cannot_change_is_unseen():
    out = fold([_setup(), _seen(start_tokens({"c7": "c8"}, removed=("e3",)))])
    assert _verdicts(out) == [(1, False, "turn")] and out[-1].player == "bob"


def test_setup_the_accepted_table_has_the_token_never_seen_at_its_square():
    from referee.jungle.game import Jungle
    game = Jungle(_setup())
    step = game.step(game.initial_state(), _seen(start_tokens(removed=("b2",))), 1)
    ids = {p.id: (p.x_mm, p.y_mm) for p in step.state.table.pieces}
    assert len(ids) == 16
    assert ids[51] == g.square_centre_mm(g.parse_square("b2"))  # ann's cat


def test_water_a_token_never_seen_at_the_setup_first_seen_in_the_water_is_called():
    # two tokens never seen: no first table; the leopard's first sighting is its move into the
    # water from its start square, a foul, not the table as set up
    out = fold([_setup(), _seen(start_tokens(removed=("e3", "c3"))),
                _seen(start_tokens({"e3": "e4"}, removed=("c3",)))])
    assert isinstance(out[0], Doubt)
    assert _verdicts(out) == [(2, False, "water")] and out[-1].player == "ann"


def test_steps_a_token_never_seen_at_the_setup_first_seen_two_squares_on_is_called():
    # one token never seen stands on its start square: its first sighting two squares on is
    # its move from there, a foul
    out = fold([_setup(), _seen(start_tokens(removed=("e3",))),
                _seen(start_tokens({"e3": "e5"}))])
    assert _verdicts(out) == [(1, True, "ok"), (2, False, "steps")]
    assert out[-1].player == "ann"

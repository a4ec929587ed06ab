"""Cases laying a game's own pieces: Worm Up! segments, Jungle tokens."""

from __future__ import annotations

import pytest

from tabletop.markers import JUNGLE_TOKEN_IDS
from tabletop.render.errors import RenderError
from tabletop.render.variety import GAME_PIECES, draw_case, draw_game_case


@pytest.mark.parametrize("game, own", [("worm-up", "segment"), ("jungle", "token")])
def test_a_game_case_lays_that_games_own_pieces_and_names_the_game(game, own):
    case = draw_game_case(123, game, size=(320, 180), n_pieces=20)
    kinds = {p.kind for p in case.scene.pieces}
    assert own in kinds
    assert kinds <= set(GAME_PIECES[game])
    assert case.conditions["game"] == game
    assert case.name == f"{game}-123"


def test_jungle_tokens_are_the_animals_each_once():
    case = draw_game_case(7, "jungle", size=(320, 180), n_pieces=30)
    ids = [p.id for p in case.scene.pieces if p.kind == "token"]
    assert ids and len(set(ids)) == len(ids)
    assert set(ids) <= set(JUNGLE_TOKEN_IDS)


def test_a_game_case_leaves_the_usual_cases_alone():
    before = draw_case(90001, size=(320, 180))
    draw_game_case(90001, "worm-up", size=(320, 180))
    assert draw_case(90001, size=(320, 180)) == before
    assert "game" not in before.conditions


def test_an_unknown_game_is_named_in_the_error():
    with pytest.raises(RenderError, match="chess"):
        draw_game_case(1, "chess")

"""The registry: a game registers once; names, options and cards are checked when it does."""

from __future__ import annotations

import pytest

from referee.base import Game
from referee.registry import Choice, FlagSet, GameSpec, find_game, find_spec, register
from tabletop.errors import RecordFormatError


class Plain(Game):
    name = "test-registry-plain"
    aliases = ("trp",)
    option_names = frozenset({"sizes", "speed", "fast", "slow"})

    def initial_state(self):
        return None

    def step(self, state, event, seq):
        raise NotImplementedError

    def accept(self, state, scene, seq):
        raise NotImplementedError


def test_a_game_is_found_by_its_name_and_aliases_once_registered():
    spec = register(GameSpec(Plain, default_players=("a", "b")))
    assert find_spec("trp") is spec and find_game("test-registry-plain") is Plain
    assert spec.title == "test-registry-plain"  # no title: its name


def test_a_name_another_game_has_is_refused():
    class Thief(Plain):
        name = "test-registry-thief"
        aliases = ("jungle",)

    with pytest.raises(ValueError, match="'jungle' is already 'jungle'"):
        register(GameSpec(Thief))
    with pytest.raises(RecordFormatError, match="unknown game 'test-registry-thief'"):
        find_game("test-registry-thief")


@pytest.mark.parametrize(("kw", "error"), [
    ({"options": (Choice("colour", "Colour", ("red",)),)}, "option 'colour' is not among"),
    ({"options": (FlagSet("speeds", "Speeds", ("fast", "warp")),)}, "option 'warp' is not among"),
    ({"inputs": ("dice",)}, "unknown input card 'dice'"),
    ({"turn_verb": "dance"}, "turn_verb must be one of"),
    ({"default_players": ()}, "at least one player"),
])
def test_a_spec_that_does_not_fit_its_game_is_refused(kw, error):
    with pytest.raises(ValueError, match=error):
        GameSpec(Plain, **kw)


def test_every_product_game_declares_its_players_and_kinds():
    for name in ("worm-derby", "worm-up", "jungle"):
        spec = find_spec(name)
        assert spec.default_players and spec.piece_kinds and spec.title != name

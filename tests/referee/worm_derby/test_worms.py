"""Worm extraction: chains of touching coins of one suit; loops, branches and splits are
statuses, not exceptions."""

from __future__ import annotations

import json
import math

import pytest

from referee.worm_derby.settings import WormSettings
from referee.worm_derby.worms import extract_worm
from tabletop.scene import Piece, Scene
from tests.factories import coin, scene
from tests.referee.worm_derby.helpers import D, line


def test_a_chain_of_touching_coins_is_a_worm_in_order():
    s = scene(line(0, 0, 3, "suns")[::-1], coin(100, 100, "moons"))
    w = extract_worm(s, "suns", D)
    assert w.ok and [s.pieces[i].y_mm for i in w.coins] in ([0, D, 2 * D], [2 * D, D, 0])


def test_touching_allows_real_placement_up_to_the_named_tolerance():
    pair = scene(coin(0, 0), coin(1.09 * D, 0))
    assert extract_worm(pair, "suns", D).ok
    assert extract_worm(pair, "suns", D, WormSettings(touch_factor=1.05)).status == "split"


@pytest.mark.parametrize(("pieces", "status"), [
    ([], "missing"),
    ([coin(0, 0), coin(3 * D, 0)], "split"),
    ([coin(0, 0), coin(D, 0), coin(2 * D, 0), coin(D, D)], "branch"),
    ([coin(0, 0), coin(D, 0), coin(D / 2, D * math.sqrt(3) / 2)], "loop"),
])
def test_a_worm_is_never_split_branched_or_looped(pieces, status):
    w = extract_worm(scene(pieces), "suns", D)
    assert w.status == status and not w.ok and w.detail


def test_coins_face_down_or_of_other_suits_are_not_part_of_the_worm():
    s = scene(coin(0, 0), coin(D, 0, "moons"), Piece("coin", 2 * D, 0, suit="suns", face="down"))
    assert extract_worm(s, "suns", D).coins == (0,)


def test_the_worms_of_the_development_scenes_are_found(devscenes):
    for path in sorted(devscenes.glob("*.json")):
        truth = json.loads(path.read_text())
        in_worms = {i for chain in truth["worms"] for i in chain}
        # stray coins (not in a worm) become posts: only the worms' coins are read
        pieces = [Piece("coin", p["x"], p["y"], suit=p.get("suit")) if i in in_worms
                  else Piece("post", p["x"], p["y"]) for i, p in enumerate(truth["pieces"])]
        s = Scene.of(pieces)
        by_suit: dict[str, list[list[int]]] = {}
        for chain in truth["worms"]:
            by_suit.setdefault(pieces[chain[0]].suit, []).append(chain)
        for suit, chains in by_suit.items():
            w = extract_worm(s, suit, D)
            if len(chains) == 1:
                assert w.ok, (path.name, suit, w.detail)
                assert list(w.coins) in (chains[0], chains[0][::-1]), path.name
            else:
                assert w.status == "split", (path.name, suit)

"""Reading a still table twice: a piece seen in either reading is there."""

from __future__ import annotations

import doctest

import live.read_twice
from live.read_twice import merge_readings
from tests.factories import coin, scene, tile


def test_a_coin_missed_in_one_reading_and_seen_in_the_other_is_there():
    worm = [coin(19.05 * k, 0, "moons") for k in range(6)]
    first = scene(worm[:3], worm[4:], tile(80, 60))
    second = scene(worm[:4], worm[5:], tile(80, 60))
    merged = merge_readings(first, second)
    assert sorted(p.x_mm for p in merged.pieces if p.kind == "coin") == \
        sorted(p.x_mm for p in worm)
    assert sum(p.kind == "tile" for p in merged.pieces) == 1


def test_a_piece_read_a_few_millimetres_off_in_one_reading_is_one_piece_midway():
    first = scene(coin(0, 0), tile(60, 0))
    second = scene(coin(3, -2), tile(62, 1))
    assert [p.centre_mm for p in merge_readings(first, second).pieces] == \
        [(1.5, -1.0), (61.0, 0.5)]


def test_the_second_readings_pieces_keep_their_indices_and_what_only_the_first_saw_follows():
    first = scene(tile(60, 0), coin(0, 0))
    second = scene(coin(0, 0), coin(19.05, 0))
    merged = merge_readings(first, second)
    assert merged.pieces[:2] == second.pieces and merged.pieces[2] == first.pieces[0]


def test_a_coin_read_with_another_suit_is_one_coin_as_the_second_reading_says():
    first = scene(coin(0, 0, "suns"))
    second = scene(coin(1, 0, "moons"))
    assert [(p.suit, p.x_mm) for p in merge_readings(first, second).pieces] == [("moons", 0.5)]


def test_two_pieces_of_different_kinds_at_one_place_are_both_kept():
    first = scene(tile(0, 0))
    second = scene(coin(0, 0))
    assert {p.kind for p in merge_readings(first, second).pieces} == {"tile", "coin"}


def test_each_piece_of_the_second_reading_stands_for_one_piece_of_the_first():
    first = scene(coin(0, 0), coin(6, 0))  # two coins read where the second saw one
    second = scene(coin(3, 0))
    assert len(merge_readings(first, second).pieces) == 2


def test_read_twice_doctests():
    assert doctest.testmod(live.read_twice).failed == 0

"""Worm Up!'s start and turn rules as named checks: each says its code about the worm that
breaks it, and nothing about a table by the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.registry import make_game
from referee.worm_up import WormUp
from referee.worm_up.setup_rules import (
    START_RULES,
    StartCheck,
    read_setup,
    rule_finish_ahead,
    rule_head_between_posts,
    rule_head_just_behind,
    rule_head_not_over_line,
    rule_worm_behind_start,
    rule_worm_points_at_start,
    rule_worm_straight,
)
from referee.worm_up.state import Phase, Worm
from referee.worm_up.table import read_table
from referee.worm_up.turns import TURN_RULES, TurnCheck, rule_after_the_reveal
from tabletop.events import Setup
from tests.referee.worm_up.tables import FINISH, START, start_worm, table

THREE = ("red", "yellow", "green")


def _check(red: list[tuple[float, float]], finish=FINISH) -> tuple[StartCheck, Worm]:
    game = make_game(Setup("worm-up", THREE, {}))
    assert isinstance(game, WormUp)
    worms = {p: start_worm(i) for i, p in enumerate(THREE)}
    worms["red"] = red
    read = read_table(game, table(worms, (*START, *finish)))
    return StartCheck(game, read, START, finish), Worm("red", tuple(red))


def test_start_rules_are_named_rule_functions_each_once():
    names = [r.__name__ for r in START_RULES]
    assert all(n.startswith("rule_") for n in names) and len(set(names)) == len(names)


def test_every_start_rule_passes_a_worm_set_up_by_the_rules():
    check, red = _check(start_worm(0))
    assert rule_finish_ahead(check) is None
    assert [r.__name__ for r in START_RULES if r(check, red) is not None] == []


@pytest.mark.parametrize(("rule", "red", "words"), [
    (rule_worm_straight, [*start_worm(0)[:3], (61.0, start_worm(0)[3][1]), *start_worm(0)[4:]],
     "straight line"),
    (rule_worm_behind_start, [(x, y + 200.0) for x, y in start_worm(0)], "behind the start"),
    (rule_worm_points_at_start, [(-70.0 + 20.0 * i, -40.0) for i in range(7)], "lie along it"),
    (rule_head_not_over_line, [(x, y + 15.0) for x, y in start_worm(0)], "over the start line"),
    (rule_head_just_behind, [(x, y - 40.0) for x, y in start_worm(0)], "mm behind the start"),
    (rule_head_between_posts, [(x - 400.0, y) for x, y in start_worm(0)], "between the start"),
])
def test_start_rule_says_setup_about_the_worm_that_breaks_it(rule, red, words):
    check, worm = _check(red)
    found = rule(check, worm)
    assert found is not None and (found.rule, found.player) == ("setup", "red")
    assert words in found.reason and not found.legal


def test_rule_finish_ahead_the_finish_posts_stand_well_ahead_of_the_start():
    check, _ = _check(start_worm(0), finish=((0.0, 5.0), (300.0, 5.0)))
    found = rule_finish_ahead(check)
    assert found is not None and found.rule == "setup" and "well ahead" in found.reason


def test_turn_rules_are_named_rule_functions_each_once():
    names = [r.__name__ for r in TURN_RULES]
    assert all(n.startswith("rule_") for n in names) and len(set(names)) == len(names)


def test_rule_after_the_reveal_no_worm_moves_while_bids_are_open():
    game = make_game(Setup("worm-up", THREE, {}))
    assert isinstance(game, WormUp)
    worms = {p: start_worm(i) for i, p in enumerate(THREE)}
    state = read_setup(game, table(worms), strict=True)
    state = replace(state, phase=Phase.BIDDING)
    worms["red"] = [(x, y + 20.0) for x, y in worms["red"]]
    found = rule_after_the_reveal(TurnCheck(state, read_table(game, table(worms)), ("red",),
                                            None))
    assert found is not None and (found.rule, found.player) == ("turn", "red")
    assert "before the bids of round 1" in found.reason

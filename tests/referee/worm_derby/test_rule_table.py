"""Worm Derby's rules as named checks: each rule function found by its name says its own code,
and says nothing about a table that keeps it."""

from __future__ import annotations

import inspect

import pytest

from referee.worm_derby import game as game_module
from referee.worm_derby.move_rules import (
    MOVE_RULES,
    MoveCheck,
    rule_as_many_as_possible,
    rule_at_most_the_roll,
    rule_obstacles_stay,
    rule_other_worms_stay,
    rule_worm_is_one_chain,
    rule_worm_keeps_its_length,
    rule_worm_moved,
)
from referee.worm_derby.setup_rules import (
    SETUP_RULES,
    WORM_START_RULES,
    SetupCheck,
    rule_course_found,
    rule_no_stray_coins,
    rule_obstacles_clear,
    rule_tiles_apart,
    rule_worm_length,
    rule_worm_straight,
)
from tabletop.scene import Scene
from tests.factories import coin, scene, tile
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, started

SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
OBSTACLE = tile(0, 500)
FIRST = scene(course(obstacles=[OBSTACLE]), SUNS0, MOONS0)


def _move(after: Scene, value: str = "3") -> MoveCheck:
    game = new_game()
    state, _ = play(game, started(game, FIRST), roll("suns", value))
    return MoveCheck(game, state, after, "suns", int(value))


def _setup(table: Scene) -> SetupCheck:
    return SetupCheck(new_game(), table)


def test_rule_tables_hold_named_rule_functions_each_once():
    names = [rule.__name__ for _, rule in MOVE_RULES] + [r.__name__ for r in SETUP_RULES] + \
        [r.__name__ for r in WORM_START_RULES]
    assert all(n.startswith("rule_") for n in names) and len(set(names)) == len(names)


def test_every_move_rule_passes_a_legal_move():
    move = _move(scene(course(obstacles=[OBSTACLE]), line(-40, 3 * D, 6, "suns"), MOONS0))
    assert [rule.__name__ for _, rule in MOVE_RULES if rule(move) is not None] == []


@pytest.mark.parametrize(("rule", "after", "value", "code"), [
    (rule_obstacles_stay, scene(course(obstacles=[tile(60, 500)]), SUNS0, MOONS0), "3",
     "obstacle"),
    (rule_worm_is_one_chain, scene(course(obstacles=[OBSTACLE]), SUNS0[:5],
                                   [coin(-40, 300, "suns")], MOONS0), "3", "shape"),
    (rule_other_worms_stay, scene(course(obstacles=[OBSTACLE]), SUNS0, line(40, D, 6, "moons")),
     "3", "turn"),
    (rule_worm_keeps_its_length, scene(course(obstacles=[OBSTACLE]), SUNS0[:5], MOONS0), "3",
     "shape"),
    (rule_worm_moved, scene(course(obstacles=[OBSTACLE]), SUNS0, MOONS0,
                            [tile(-300, 700, face="down")]), "3", "turn"),
    (rule_at_most_the_roll, scene(course(obstacles=[OBSTACLE]), line(-40, 3 * D, 6, "suns"),
                                  MOONS0), "2", "steps"),
    (rule_as_many_as_possible, scene(course(obstacles=[OBSTACLE]),
                                     line(-40, 2 * D, 6, "suns"), MOONS0), "4", "steps"),
])
def test_move_rule_says_its_own_code(rule, after, value, code):
    found = rule(_move(after, value))
    assert found is not None and found.rule == code and not found.legal


def test_every_setup_rule_passes_a_legal_course():
    check = _setup(FIRST)
    assert [rule.__name__ for rule in SETUP_RULES if rule(check) is not None] == []


@pytest.mark.parametrize(("rule", "table", "misread"), [
    (rule_course_found, scene(course(obstacles=[OBSTACLE])[:2], SUNS0, MOONS0), True),
    (rule_tiles_apart, scene(course(obstacles=[OBSTACLE, tile(10, 510)]), SUNS0, MOONS0),
     False),
    (rule_obstacles_clear, scene(course(obstacles=[tile(0, 60)]), SUNS0, MOONS0), False),
    (rule_no_stray_coins, scene(course(obstacles=[OBSTACLE]), SUNS0, MOONS0,
                                [coin(300, 300, None)]), True),
])
def test_setup_rule_says_setup_and_whether_a_misread_could_explain_it(rule, table, misread):
    found = rule(_setup(table))
    assert found is not None and found.rule == "setup" and bool(found.doubt) == misread


@pytest.mark.parametrize(("rule", "worm", "misread"), [
    (rule_worm_length, SUNS0[:4], True),
    (rule_worm_straight, [*SUNS0[:5], coin(-40 + 8, 5 * D, "suns")], False),
])
def test_worm_start_rule_says_setup(rule, worm, misread):
    check = _setup(scene(course(obstacles=[OBSTACLE]), worm, MOONS0))
    found = rule(check, "suns", check.shapes["suns"])
    assert found is not None and found.rule == "setup" and bool(found.doubt) == misread


def test_base_game_has_no_variant_branches():
    source = inspect.getsource(game_module)
    for branch in ("if self.cannibal", "self.slalom", "if slalom", "eaten_player is not None"):
        assert branch not in source

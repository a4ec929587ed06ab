"""Worm Derby's rules as named checks: each rule function found by its name says its own code,
and says nothing about a table that keeps it."""

from __future__ import annotations

import inspect

import pytest

from referee.worm_derby import game as game_module
from referee.worm_derby.ace_rules import ACE_RULES, judge_obstacle_move
from referee.worm_derby.move_rules import (
    MOVE_RULES,
    RULES_BY_CODE,
    MoveCheck,
    rule_as_many_as_possible,
    rule_at_most_the_roll,
    rule_obstacles_stay,
    rule_other_worms_stay,
    rule_worm_is_one_chain,
    rule_worm_keeps_its_length,
    rule_worm_moved,
)
from referee.worm_derby.roll_rules import (
    ROLL_RULES,
    rule_in_turn,
    rule_player_in_race,
    rule_roll_played_first,
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
from tabletop.events import Verdict
from tabletop.scene import Scene
from tests.factories import coin, scene, tile
from tests.referee.worm_derby.helpers import (
    D,
    course,
    line,
    new_game,
    play,
    roll,
    seen,
    started,
)

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
        [r.__name__ for r in WORM_START_RULES] + [r.__name__ for r in ACE_RULES] + \
        [r.__name__ for r in ROLL_RULES]
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
    assert rule in RULES_BY_CODE[code]


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


def _after_ace(obstacles_before, obstacles_after):
    game = new_game()
    first = scene(course(obstacles=obstacles_before), SUNS0, MOONS0)
    _, out = play(game, started(game, first), roll("suns", "ace"),
                  seen(course(obstacles=obstacles_after), SUNS0, MOONS0))
    verdicts = [e for e in out if isinstance(e, Verdict)]
    assert len(verdicts) == 1, out
    return verdicts[0]


def test_ace_rule_one_obstacle_only_one_moves():
    game = new_game()
    first = scene(course(obstacles=[tile(0, 500), tile(300, 300)]), SUNS0, MOONS0)
    state, _ = play(game, started(game, first), roll("suns", "ace"))
    found, after = judge_obstacle_move(
        game, state, scene(course(obstacles=[tile(40, 500), tile(330, 300)]), SUNS0, MOONS0),
        "suns")
    assert (found.legal, found.rule) == (False, "obstacle") and after is state
    assert "only one obstacle" in found.reason


def test_ace_rule_lands_clear_the_moved_obstacle_overlaps_nothing():
    v = _after_ace([tile(0, 500), tile(60, 500)], [tile(30, 500), tile(60, 500)])
    assert (v.legal, v.rule) == (False, "overlap") and "moved obstacle" in v.reason


def test_ace_rules_pass_an_obstacle_moved_by_the_rules():
    v = _after_ace([tile(0, 500), tile(60, 500)], [tile(-40, 500), tile(60, 500)])
    assert v.legal and "roll again" in v.reason


def test_base_game_has_no_variant_branches():
    source = inspect.getsource(game_module)
    for branch in ("if self.cannibal", "self.slalom", "if slalom", "eaten_player is not None"):
        assert branch not in source


@pytest.mark.parametrize(("rule", "player", "roll_first", "words"), [
    (rule_player_in_race, "arms", None, "Arms is not playing"),
    (rule_in_turn, "moons", None, "It is suns' turn to roll"),
    (rule_roll_played_first, "suns", "3", "has a roll of 3 to play first"),
])
def test_roll_rule_says_turn(rule, player, roll_first, words):
    game = new_game()
    state = started(game, FIRST)
    if roll_first is not None:
        state, _ = play(game, state, roll("suns", roll_first))
    found = rule(game, state, roll(player, "2"))
    assert found is not None and found.rule == "turn" and words in found.reason
    assert [r.__name__ for r in ROLL_RULES if r(game, state, roll("suns", "2")) is not None] \
        == ([] if roll_first is None else ["rule_roll_played_first"])

"""Worm Derby, rule by rule: each test is named after the rule it checks."""

from __future__ import annotations

import math
import re

import pytest

from referee.record import fold
from tabletop.errors import RecordFormatError
from tabletop.events import Doubt, Finish, Notice, Rounded, SceneSeen, Verdict, Winner
from tests.factories import coin, scene, setup, tile
from tests.referee.worm_derby.helpers import (
    D,
    T,
    coins_at,
    course,
    lap,
    line,
    new_game,
    play,
    roll,
    seen,
    started,
)

SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
FIRST = scene(course(obstacles=[tile(0, 500)]), SUNS0, MOONS0)


def verdicts(out):
    return [e for e in out if isinstance(e, Verdict)]


def only_verdict(out) -> Verdict:
    vs = verdicts(out)
    assert len(vs) == 1, out
    return vs[0]


# --------------------------------------------------------------------------- setup

def test_setup_course_is_read_from_the_face_up_tiles():
    out = fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(FIRST)])
    v = only_verdict(out)
    assert v.legal and "1000 mm away" in v.reason and "1 obstacle," in v.reason


def test_setup_players_are_suits():
    with pytest.raises(RecordFormatError, match="suit names"):
        new_game(["alice", "bob"])


def test_setup_worm_lengths_are_two_to_six():
    with pytest.raises(RecordFormatError, match="2..6"):
        new_game(["suns"], lengths={"suns": 7})


def test_setup_unknown_variant_is_refused():
    with pytest.raises(RecordFormatError, match="unknown worm-derby variant"):
        new_game(["suns"], variant="relay")


def test_setup_obstacles_keep_three_tile_widths_from_the_start_line():
    first = scene(course(obstacles=[tile(0, 120)]), SUNS0, MOONS0)
    v = only_verdict(fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)]))
    assert not v.legal and v.rule == "setup" and "start line" in v.reason
    assert v.pieces == (3,)


def test_setup_obstacles_keep_three_tile_widths_from_the_pylon():
    first = scene(course(obstacles=[tile(0, 1000 - 2 * T)]), SUNS0, MOONS0)
    v = only_verdict(fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)]))
    assert not v.legal and "pylon" in v.reason


def test_setup_small_table_is_allowed_with_a_warning():
    first = scene(course(pylon_y=400), SUNS0, MOONS0)
    out = fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)])
    assert verdicts(out)[0].legal
    warnings = [e for e in out if isinstance(e, Notice) and e.level == "warning"]
    assert warnings and "Small table" in warnings[0].message


def test_setup_worms_start_straight():
    bent = [*line(-40, 0, 5, "suns"), coin(-40 + 12, 5 * D - 3, "suns")]
    first = scene(course(), bent, MOONS0)
    v = only_verdict(fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)]))
    assert not v.legal and "straight" in v.reason


def test_setup_worms_start_perpendicular_to_the_start_line():
    a = math.radians(30)
    leaning = coins_at([(-40 + i * D * math.sin(a), i * D * math.cos(a)) for i in range(6)],
                       "suns")
    first = scene(course(), leaning, MOONS0)
    v = only_verdict(fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)]))
    assert not v.legal and "perpendicular" in v.reason


def test_setup_worms_start_with_one_end_between_the_start_tiles():
    first = scene(course(), line(-40, 100, 6, "suns"), MOONS0)
    v = only_verdict(fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)]))
    assert not v.legal and "between the start tiles" in v.reason


def test_setup_worm_length_must_match_the_options():
    first = scene(course(), line(-40, 0, 4, "suns"), MOONS0)
    out = fold([setup("worm-derby", ["suns", "moons"], lengths={"suns": 5}), SceneSeen(first)])
    assert [type(e) for e in out] == [Doubt]  # a coin may be hidden: asked, not faulted
    assert "4 coins; it should have 5" in out[0].reason


def test_setup_without_a_pylon_is_refused():
    first = scene(START_ONLY := [tile(-2 * T, 0, face="up"), tile(2 * T, 0, face="up")], SUNS0)
    del START_ONLY
    out = fold([setup("worm-derby", ["suns"]), SceneSeen(first)])
    assert [type(e) for e in out] == [Doubt] and "three face-up tiles" in out[0].reason


# --------------------------------------------------------------------------- turns and dice

def test_turn_players_roll_in_setup_order():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, roll("moons", "3"))
    v = only_verdict(out)
    assert not v.legal and v.rule == "turn" and "suns' turn" in v.reason


def test_turn_nothing_moves_before_a_roll():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, seen(course(obstacles=[tile(0, 500)]),
                                    line(-40, D, 6, "suns"), MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "turn" and "before a roll" in v.reason


def test_turn_only_the_rolling_players_worm_moves():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), SUNS0, line(40, 2 * D, 6, "moons")))
    v = only_verdict(out)
    assert not v.legal and v.rule == "turn" and "Moons' worm moved" in v.reason


def test_dice_null_means_no_move_and_the_turn_passes():
    game = new_game()
    state = started(game, FIRST)
    state, out = play(game, state, roll("suns", "null"))
    assert not verdicts(out) and game.describe(state)["turn"] == "moons"


def test_dice_a_roll_moves_that_many_steps():
    game = new_game()
    state = started(game, FIRST)
    state, out = play(game, state, roll("suns", "3"),
                      seen(course(obstacles=[tile(0, 500)]), line(-40, 3 * D, 6, "suns"),
                           MOONS0))
    v = only_verdict(out)
    assert v.legal and v.rule == "ok" and "3 steps" in v.reason
    assert len(v.pieces) == 3 and game.describe(state)["turn"] == "moons"


def test_steps_more_than_the_roll_are_refused():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), line(-40, 3 * D, 6, "suns"), MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "steps"


def test_steps_fewer_than_possible_are_refused():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, roll("suns", "4"),
                  seen(course(obstacles=[tile(0, 500)]), line(-40, 2 * D, 6, "suns"), MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "steps" and "4 were possible" in v.reason


def _boxed_in(free_steps: int):
    """Suns' worm in a dead-end corridor of tiles: ``free_steps`` steps fit ahead of it, and
    its tail end is walled off too."""
    x = -300.0
    wall = []
    top = 200 + (5 + free_steps) * D + D / 2 + 0.6 + T / 2
    for y in range(0, 12):
        cy = 200 + y * T
        wall += [tile(x - D / 2 - T / 2 - 0.6, cy), tile(x + D / 2 + T / 2 + 0.6, cy)]
    wall += [tile(x, top), tile(x, 200 - D / 2 - 0.6 - T / 2)]
    worm = line(x, 200, 6, "suns")
    return wall, worm, x


def test_steps_fewer_when_the_whole_roll_is_truly_impossible_are_legal():
    game = new_game(["suns"])
    first = scene(course(), SUNS0)
    wall, worm, x = _boxed_in(2)
    table = scene(course(obstacles=wall), worm)
    state = started(game, first, table)
    moved = line(x, 200 + 2 * D, 6, "suns")
    _, out = play(game, state, roll("suns", "4"), seen(course(obstacles=wall), moved))
    v = only_verdict(out)
    assert v.legal, v.reason
    assert "as many as possible" in v.reason


def test_dice_a_worm_that_cannot_step_passes_its_turn():
    game = new_game(["suns", "moons"])
    wall, worm, _ = _boxed_in(0)
    state = started(game, FIRST, scene(course(obstacles=wall), worm, MOONS0))
    state, out = play(game, state, roll("suns", "3"))
    assert isinstance(out[0], Notice) and "cannot make a single step" in out[0].message
    assert game.describe(state)["turn"] == "moons"


def test_direction_all_steps_of_a_turn_go_the_same_way():
    game = new_game()
    state = started(game, FIRST)
    old = line(-40, 0, 6, "suns")
    both_ends = [coin(-40 - D, D, "suns"), *old[1:5], coin(-40 + D, 4 * D, "suns")]
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), both_ends, MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "direction" and "both ends" in v.reason


def test_shape_a_worm_never_loops_or_branches():
    game = new_game()
    state = started(game, FIRST)
    body = line(-40, 2 * D, 4, "suns")
    n1 = coin(-40, 6 * D, "suns")
    n2 = coin(-40 + D * math.sin(math.radians(60)), 5.5 * D, "suns")  # touches n1 and the body
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), body, n1, n2, MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "shape" and "never branches" in v.reason


def test_shape_a_placed_coin_must_touch_the_worms_end():
    game = new_game()
    state = started(game, FIRST)
    body = line(-40, D, 5, "suns")
    far = coin(-40, 5 * D + 1.5 * D, "suns")
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), body, far, MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "shape" and "split" in v.reason


def test_overlap_a_placed_coin_overlaps_nothing():
    game = new_game(["suns"])
    first = scene(course(), SUNS0)
    block = tile(-40, 6 * D + T / 2 - 4)  # overlaps where the next coin would go by 4 mm
    table = scene(course(obstacles=[block]), SUNS0)
    state = started(game, first, table)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[block]), line(-40, D, 6, "suns")))
    v = only_verdict(out)
    assert not v.legal and v.rule == "overlap" and "tile" in v.reason
    assert 3 in v.pieces  # the tile, by its index in the judged scene (after the 3 course tiles)


def test_overlap_other_worms_are_obstacles():
    game = new_game()
    moons = line(-40 + D, 6 * D + 0.2, 6, "moons")
    moons = coins_at([(-40, 6 * D + D / 2 + 5), *[(-40 + k * D, 6 * D + D / 2 + 5)
                                                   for k in range(1, 6)]], "moons")
    table = scene(course(obstacles=[tile(0, 500)]), SUNS0, moons)
    state = started(game, FIRST, table)
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=[tile(0, 500)]), line(-40, D, 6, "suns"), moons))
    v = only_verdict(out)
    assert not v.legal and v.rule == "overlap" and "moons coin" in v.reason


# --------------------------------------------------------------------------- the gap rule

def _gap_table(gap_mm: float):
    """Suns' head just below a gap between the corners of two diamond tiles at y = 6 D - D/2
    (the next coin would go straight through it)."""
    y = 5 * D + D / 2
    h = T / math.sqrt(2)
    left = tile(-40 - gap_mm / 2 - h, y, 45)
    right = tile(-40 + gap_mm / 2 + h, y, 45)
    return [left, right]


@pytest.mark.parametrize(("gap_mm", "legal"), [(D - 0.5, False), (D - 0.1, True),
                                               (D + 0.5, True), (D - 2.0, False)])
def test_gap_a_coin_cannot_pass_between_obstacles_closer_than_its_diameter(gap_mm, legal):
    game = new_game(["suns"])
    tiles = _gap_table(gap_mm)
    first = scene(course(), SUNS0)
    state = started(game, first, scene(course(obstacles=tiles), SUNS0))
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=tiles), line(-40, 2 * D, 6, "suns")))
    v = only_verdict(out)
    assert v.legal is legal, v.reason
    if not legal:
        assert v.rule == "gap"
        width = float(re.search(r"a ([0-9.]+) mm gap", v.reason).group(1))
        assert width == pytest.approx(gap_mm, abs=0.051) and "a coin needs 19.05 mm" in v.reason
        assert v.reason.startswith("The first coin would pass through")
        assert math.dist(v.where, (-40, 5 * D + D / 2)) < 1.0
        assert {3, 4} <= set(v.pieces)


def test_gap_rule_is_checked_for_each_step_in_order():
    game = new_game(["suns"])
    tiles = [(t := _gap_table(D - 1.0))[0].moved_to(t[0].x_mm, t[0].y_mm + D),
             t[1].moved_to(t[1].x_mm, t[1].y_mm + D)]
    state = started(game, scene(course(), SUNS0), scene(course(obstacles=tiles), SUNS0))
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=tiles), line(-40, 2 * D, 6, "suns")))
    v = only_verdict(out)
    assert not v.legal and v.rule == "gap" and v.reason.startswith("The second coin")


# --------------------------------------------------------------------------- rounding, finish

def _walk(game, state, path, worm_len, rolls, player="suns"):
    """Moves a worm along ``path`` (coin centres), ``rolls`` steps per turn."""
    i = 0
    outs = []
    for r in rolls:
        i += r
        coins = coins_at(path[i:i + worm_len], player)
        state, out = play(game, state, roll(player, str(r)), seen(course(pylon_y=300), coins))
        outs.extend(out)
        assert verdicts(out) and verdicts(out)[0].legal, verdicts(out)[0].reason
    return state, outs


def test_rounding_and_finish_a_worm_that_goes_round_the_far_side_wins():
    path = lap(-60, 60, 300)
    game = new_game(["suns"], lengths={"suns": 2})
    state = started(game, scene(course(pylon_y=300), coins_at(path[:2], "suns")))
    state, outs = _walk(game, state, path, 2, [5] * 8)
    rounded = [e for e in outs if isinstance(e, Rounded)]
    assert len(rounded) == 1 and rounded[0].player == "suns"
    fin = [e for e in outs if isinstance(e, Finish)]
    assert len(fin) == 1 and fin[0].place == 1
    assert any(isinstance(e, Winner) and e.player == "suns" for e in outs)
    assert game.describe(state)["places"] == ["suns"]


def test_rounding_out_and_back_down_one_side_is_not_rounding():
    up = [(-60, y * D) for y in range(15)]
    path = up + up[::-1][1:]
    game = new_game(["suns"], lengths={"suns": 2})
    state = started(game, scene(course(pylon_y=300), coins_at(path[:2], "suns")))
    # up 12 steps, then back: the worm reverses (its other end leads)
    i, outs = 0, []
    for r in [4, 4, 4]:
        i += r
        state, out = play(game, state, roll("suns", str(r)),
                          seen(course(pylon_y=300), coins_at(path[i:i + 2], "suns")))
        outs += out
    back = [(-60, y * D) for y in range(12, -1, -1)]
    j = 0
    for r in [4, 4, 4]:
        j += r
        state, out = play(game, state, roll("suns", str(r)),
                          seen(course(pylon_y=300), coins_at(back[j - 1:j + 1][::-1], "suns")))
        outs += out
    assert all(v.legal for v in verdicts(outs)), [v.reason for v in verdicts(outs)]
    assert not [e for e in outs if isinstance(e, (Rounded, Finish))]


def test_rounding_wriggling_back_and_forth_over_the_far_ray_is_not_rounding():
    path = lap(-60, 60, 300)
    far = min(range(len(path)), key=lambda k: -path[k][1])  # the coin on the far-side ray
    game = new_game(["suns"], lengths={"suns": 2})
    state = started(game, scene(course(pylon_y=300), coins_at(path[:2], "suns")))
    outs = []
    i = 0
    for r in [5] * ((far - 2) // 5):
        i += r
        state, out = play(game, state, roll("suns", str(r)),
                          seen(course(pylon_y=300), coins_at(path[i:i + 2], "suns")))
        outs += out
    for k in range(3):  # over the ray, back, over again, back
        nxt = far + 2 if k % 2 == 0 else far - 3
        steps = abs(nxt - i)
        if steps < 2:
            continue
        state, out = play(game, state, roll("suns", str(min(5, steps))),
                          seen(course(pylon_y=300), coins_at(path[nxt:nxt + 2], "suns")))
        outs += out
        i = nxt
    assert not [e for e in outs if isinstance(e, Rounded)], [v.reason for v in verdicts(outs)]


# --------------------------------------------------------------------------- ace: obstacles

def test_ace_moves_one_obstacle_at_most_a_tile_width_then_the_player_rolls_again():
    game = new_game()
    state = started(game, FIRST)
    state, out = play(game, state, roll("suns", "ace"),
                      seen(course(obstacles=[tile(40, 500, 30)]), SUNS0, MOONS0))
    v = only_verdict(out)
    assert v.legal and "roll again" in v.reason
    assert game.describe(state)["roll"] == "again" and game.describe(state)["turn"] == "suns"
    _, out = play(game, state, seen(course(obstacles=[tile(40, 500, 30)]),
                                    line(-40, D, 6, "suns"), MOONS0))
    assert only_verdict(out).rule == "turn"


def test_ace_an_obstacle_moves_no_more_than_one_tile_width():
    game = new_game()
    state = started(game, FIRST)
    _, out = play(game, state, roll("suns", "ace"),
                  seen(course(obstacles=[tile(80, 500)]), SUNS0, MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "obstacle" and "at most one tile width" in v.reason


def test_ace_start_tiles_and_pylon_never_move():
    game = new_game()
    state = started(game, FIRST)
    moved = [tile(-2 * T, 0, face="up", suit="suns"), tile(2 * T, 0, face="up", suit="moons"),
             tile(20, 1000, face="up", suit="crowns"), tile(0, 500)]
    _, out = play(game, state, roll("suns", "ace"), seen(moved, SUNS0, MOONS0))
    v = only_verdict(out)
    assert not v.legal and v.rule == "obstacle" and "never move" in v.reason


# --------------------------------------------------------------------------- dashboard

def test_describe_tells_whose_turn_the_roll_worms_course_and_places():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "3"))
    d = game.describe(state)
    assert d["turn"] == "suns" and d["roll"] == "3" and d["places"] == []
    assert d["awaiting"] == "move"
    assert [w["player"] for w in d["worms"]] == ["suns", "moons"]
    assert d["worms"][0]["coins"][0] == [-40.0, 0.0] and d["worms"][0]["rounded"] is False
    assert d["course"]["pylon"] == [0.0, 1000.0]
    assert d["course"]["far_ray"][0] == [0.0, 1000.0] and d["course"]["far_ray"][1][1] > 1000


def test_gap_a_sharp_bend_is_fine_when_the_coin_can_slide_round_its_own_body():
    # the straight way from the head to the new coin clips the coin behind the head; sliding
    # round it is free, so the step is legal
    game = new_game(["suns"], lengths={"suns": 3})
    base = [(-300.0, 400.0), (-300.0, 400.0 + D), (-300.0, 400.0 + 2 * D)]
    a = math.radians(-90 + 75)
    q = (base[-1][0] + D * math.cos(a), base[-1][1] + D * math.sin(a))
    state = started(game, scene(course(), line(-40, 0, 3, "suns")),
                    scene(course(), coins_at(base, "suns")))
    state, _ = play(game, state, roll("suns", "2"))
    from referee.worm_derby.steps import StepWorld

    world = StepWorld([], game.pieces)
    assert world.slide_problem(base[-1], [base[1]], q) is None
    _, out = play(game, state, seen(course(), coins_at([*base[1:], q], "suns")))
    v = only_verdict(out)
    assert v.rule == "steps"  # legal as a step; only one of two possible steps was taken


def test_setup_the_start_tiles_are_the_pair_the_worms_start_between():
    # a decoy pair of face-up tiles four widths apart, farther from the pylon's line than the
    # real start tiles: the worms' ends say which pair is the start
    decoys = [tile(-2 * T, -400, face="up", suit="moons"), tile(2 * T, -400, face="up",
                                                                suit="moons")]
    first = scene(course(obstacles=[tile(0, 500)]), decoys, SUNS0, MOONS0)
    out = fold([setup("worm-derby", ["suns", "moons"]), SceneSeen(first)])
    v = only_verdict(out)
    assert v.legal and "1000 mm away" in v.reason
    assert sum(1 for e in out if isinstance(e, Notice) and "counts as an obstacle" in e.message) \
        == 2


# --------------------------------------------------------------------------- a whole worm moved

FOUR = {"suns": 4, "moons": 4}


def _four_coin_game():
    game = new_game(lengths=FOUR)
    first = scene(course(obstacles=[tile(0, 500)]), line(-40, 0, 4, "suns"),
                  line(40, 0, 4, "moons"))
    return game, started(game, first)


def test_steps_a_whole_worm_moved_is_read_from_the_end_that_needs_fewest_steps():
    """Every coin moved: either end may have led, and the stills cannot tell which. Four coins
    laid on from the tail's end, touching it, are four steps (legal on a 4) though the same
    table is also what five steps from the head curling back round would leave."""
    game, state = _four_coin_game()
    back = line(-40, -4 * D, 4, "suns")  # y = -4D .. -D: on from the old tail at y = 0
    _, out = play(game, state, roll("suns", "4"),
                  seen(course(obstacles=[tile(0, 500)]), back, line(40, 0, 4, "moons")))
    v = only_verdict(out)
    assert v.legal and "4 steps" in v.reason, v.reason


def test_steps_a_whole_worm_moved_one_coin_beyond_either_end_is_more_than_the_roll():
    """Every coin moved and the new worm a coin's width clear of both old ends: a step was laid
    and picked up again unseen, five steps on a 4."""
    game, state = _four_coin_game()
    ahead = line(-40, 5 * D, 4, "suns")  # y = 5D .. 8D: one coin's room after the head at 3D
    _, out = play(game, state, roll("suns", "4"),
                  seen(course(obstacles=[tile(0, 500)]), ahead, line(40, 0, 4, "moons")))
    v = only_verdict(out)
    assert not v.legal and v.rule == "steps" and v.player == "suns", v.reason

"""The gap the player points at: the straight crossing and the gap nearest one click."""

from __future__ import annotations

import json
import math

import pytest

from referee.geometry import ObstacleSet, cross_straight, crossing_in_scene, fit_in_scene, gap_at
from tabletop.cli import main
from tabletop.scene import Piece, Scene

D = 19.05
T = 50.8


def two_tiles(gap_mm: float, angle_deg: float = 0.0) -> list[Piece]:
    """Two tiles side by side, ``gap_mm`` apart along x, both turned by ``angle_deg`` about
    the middle of the gap (so the gap keeps its width)."""
    a = math.radians(angle_deg)
    out = []
    for dx in (-(T + gap_mm) / 2, (T + gap_mm) / 2):
        out.append(Piece.tile(dx * math.cos(a), dx * math.sin(a), angle_deg=angle_deg))
    return out


@pytest.mark.parametrize(("gap_mm", "fits"), [(15.3, False), (D - 0.2, False), (D, True),
                                              (25.0, True)])
@pytest.mark.parametrize("angle_deg", [0.0, 17.5, 60.0])
def test_a_click_either_side_of_a_gap_is_answered_by_that_gap(gap_mm, fits, angle_deg):
    obstacles = ObstacleSet.from_pieces(two_tiles(gap_mm, angle_deg))
    a = math.radians(angle_deg)
    across = (-math.sin(a), math.cos(a))  # perpendicular to the row of tiles
    start = (-40 * across[0] + 3.0, -40 * across[1])
    goal = (40 * across[0] - 2.0, 40 * across[1])
    c = cross_straight(obstacles, start, goal, D)
    assert c.fits is fits
    assert c.clearance_mm == pytest.approx(gap_mm, abs=1e-6)
    assert c.pinch_mm is not None and math.dist(c.pinch_mm, (0.0, 0.0)) < 3.5
    e1, e2 = c.edges_mm
    assert math.dist(e1, e2) == pytest.approx(gap_mm, abs=1e-6)


def test_a_narrow_gap_with_a_wide_way_round_answers_both_questions():
    table = Scene.of([*two_tiles(15.3), Piece("coin", 0.0, -40.0, suit="suns")])
    straight = crossing_in_scene(table, (0.0, -40.0), (0.0, 40.0))
    round_ = fit_in_scene(table, (0.0, -40.0), (0.0, 40.0))
    assert not straight.fits and straight.clearance_mm == pytest.approx(15.3, abs=1e-6)
    assert round_.fits and len(round_.path_mm) > 2  # the way round the tiles


def test_a_straight_way_into_a_piece_is_blocked_where_it_meets_it():
    obstacles = ObstacleSet.from_pieces([Piece.tile(0, 0)])
    c = cross_straight(obstacles, (0.0, -80.0), (0.0, 80.0), D)
    assert not c.fits and c.clearance_mm == 0.0
    assert c.pinch_mm == pytest.approx((0.0, -T / 2))


def test_a_straight_way_past_every_gap_is_open():
    c = cross_straight(ObstacleSet.from_pieces(two_tiles(15.3)), (-80.0, -60.0),
                       (-80.0, 60.0), D)
    assert c.fits and c.pinch_mm is None and c.edges_mm is None


def test_a_gap_between_two_coins_is_measured_between_their_rims():
    obstacles = ObstacleSet.from_pieces([Piece("coin", 0, 0, suit="suns"),
                                         Piece("coin", D + 17.0, 0, suit="moons")])
    c = cross_straight(obstacles, (D / 2 + 8.5, -30.0), (D / 2 + 8.5, 30.0), D)
    assert not c.fits and c.clearance_mm == pytest.approx(17.0)
    assert c.edges_mm[0] == pytest.approx((D / 2, 0.0))


def test_one_click_asks_about_the_gap_nearest_it_not_a_wider_one():
    pieces = [Piece.tile(0, 0), Piece.tile(T + 15.3, 0), Piece.tile(2 * T + 15.3 + 40.0, 0)]
    obstacles = ObstacleSet.from_pieces(pieces)
    narrow = gap_at(obstacles, (T / 2 + 7.0, 5.0), D)
    wide = gap_at(obstacles, (1.5 * T + 15.3 + 20.0, -5.0), D)
    assert not narrow.fits and narrow.clearance_mm == pytest.approx(15.3)
    assert wide.fits and wide.clearance_mm == pytest.approx(40.0)
    assert narrow.pinch_mm[1] == pytest.approx(5.0)  # between parallel edges: at the click


def test_a_gap_with_a_third_piece_on_it_is_no_gap():
    pieces = [Piece.tile(0, 0), Piece.tile(T + 60.0, 0), Piece("coin", T / 2 + 30.0, 0)]
    c = cross_straight(ObstacleSet.from_pieces(pieces), (T / 2 + 5.0, -40.0),
                       (T / 2 + 5.0, 40.0), D)
    # the way crosses the 20.475 mm gap between the left tile and the coin, not the 60 mm one
    assert c.clearance_mm == pytest.approx(30.0 - D / 2)


def test_fit_command_prints_the_straight_crossing_beside_the_way_round(tmp_path, capsys):
    path = tmp_path / "scene.json"
    table = Scene.of([*two_tiles(15.3), Piece("coin", 0.0, -40.0, suit="suns")])
    path.write_text(json.dumps(table.to_json()))
    assert main(["fit", str(path), "--from", "0,-40", "--to", "0,40"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is True and out["straight_fits"] is False
    assert out["straight_clearance_mm"] == pytest.approx(15.3)
    assert out["straight_pinch"] == pytest.approx([0.0, 0.0], abs=1e-6)
    assert len(out["straight_edges"]) == 2

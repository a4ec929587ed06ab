"""The gap fit: can a coin slide from A to B, how wide is the narrowest place, where is it."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import FitResult, ObstacleSet, fit_path
from tabletop.cli import main
from tabletop.scene import Piece, Scene
from tests.referee.geometry.grid_widest import Grid

D = 19.05
T = 50.8


def room(gap_mm: float, n: int = 5) -> list[Piece]:
    """A square room of touching tiles (n tiles a side) with one doorway ``gap_mm`` wide in the
    middle of its top wall (at y = n T / 2 + T / 2)."""
    half = n * T / 2
    out = []
    for k in range(n):
        c = -half + T / 2 + k * T
        out += [Piece.tile(c, -half - T / 2), Piece.tile(-half - T / 2, c),
                Piece.tile(half + T / 2, c)]
    out += [Piece.tile(-half - T / 2, -half - T / 2), Piece.tile(half + T / 2, -half - T / 2),
            Piece.tile(-half - T / 2, half + T / 2), Piece.tile(half + T / 2, half + T / 2)]
    for k in range(n // 2 + 1):
        x = gap_mm / 2 + T / 2 + k * T
        if x - T / 2 < half:
            out += [Piece.tile(x, half + T / 2), Piece.tile(-x, half + T / 2)]
    return out


DOOR_Y = 5 * T / 2 + T / 2


@pytest.mark.parametrize(("gap_mm", "fits"), [(D - 0.5, False), (D, True), (D + 0.5, True),
                                              (12.0, False), (30.0, True)])
def test_a_coin_slides_through_a_doorway_at_least_its_diameter_wide(gap_mm, fits):
    r = fit_path(ObstacleSet.from_pieces(room(gap_mm)), (0.0, 0.0), (0.0, 250.0), D)
    assert r.fits is fits
    assert r.clearance_mm == pytest.approx(gap_mm, abs=0.05)
    assert r.pinch_mm is not None and math.dist(r.pinch_mm, (0.0, DOOR_Y)) < T / 2 + 0.1
    assert r.path_mm[0] == (0.0, 0.0) and r.path_mm[-1] == (0.0, 250.0)


@pytest.mark.parametrize("gap_mm", [D - 0.5, D + 0.5])
def test_the_best_path_bends_to_the_doorway_from_anywhere_in_the_room(gap_mm):
    r = fit_path(ObstacleSet.from_pieces(room(gap_mm)), (-80.0, -70.0), (90.0, 260.0), D)
    assert r.fits is (gap_mm >= D)
    assert r.clearance_mm == pytest.approx(gap_mm, abs=0.05)
    assert len(r.path_mm) > 2
    obstacles = ObstacleSet.from_pieces(room(gap_mm))
    for a, b in zip(r.path_mm, r.path_mm[1:], strict=False):  # the path never crosses a tile
        assert obstacles.clearance_of_segment(a, b) > 0


def test_a_closed_room_has_no_way_out():
    closed = [*room(30.0), Piece.tile(0.0, DOOR_Y)]
    r = fit_path(ObstacleSet.from_pieces(closed), (0.0, 0.0), (0.0, 250.0), D)
    assert not r.fits and r.clearance_mm < 1.0


def test_an_open_table_has_no_pinch():
    r = fit_path(ObstacleSet.from_pieces([]), (0.0, 0.0), (500.0, 0.0), D)
    assert r.fits and r.pinch_mm is None and r.path_mm == ((0.0, 0.0), (500.0, 0.0))


def test_a_coin_cannot_start_inside_an_obstacle():
    r = fit_path(ObstacleSet.from_pieces([Piece.tile(0, 0)]), (0.0, 0.0), (200.0, 0.0), D)
    assert not r.fits


def test_coins_are_discs_measured_exactly():
    # a ring of touching coins (radius 120 mm) with one 18 mm gap between two rims
    radius, gap = 120.0, 18.0
    step = 2 * math.asin(D / (2 * radius))
    first_gap = 2 * math.asin((D + gap) / (2 * radius))
    ring, a = [], first_gap
    while a < 2 * math.pi - step / 2:
        ring.append(Piece("coin", radius * math.cos(a), radius * math.sin(a), suit="moons"))
        a += step
    # close the ring: the last coin may overlap the first a little, never leave a gap
    ring.append(Piece("coin", radius, 0.0, suit="moons"))
    r = fit_path(ObstacleSet.from_pieces(ring), (0.0, 0.0), (300.0, 300.0), 17.0)
    assert r.clearance_mm == pytest.approx(gap, abs=0.05) and r.fits
    middle = (radius * (1 + math.cos(first_gap)) / 2, radius * math.sin(first_gap) / 2)
    assert math.dist(r.pinch_mm, middle) < 0.1


@settings(max_examples=6, deadline=None)
@given(angle=st.floats(0, 90), dx=st.floats(-300, 300), dy=st.floats(-300, 300),
       gap=st.floats(15.0, 24.0))
def test_the_fit_does_not_depend_on_where_the_room_lies(angle, dx, dy, gap):
    a = math.radians(angle)

    def move(x, y):
        return (x * math.cos(a) - y * math.sin(a) + dx, x * math.sin(a) + y * math.cos(a) + dy)

    tiles = [Piece.tile(*move(p.x_mm, p.y_mm), angle_deg=angle) for p in room(gap)]
    r = fit_path(ObstacleSet.from_pieces(tiles), move(0, 0), move(0, 250), D)
    assert r.clearance_mm == pytest.approx(gap, abs=0.05)
    assert r.fits is (gap >= D)


def test_the_json_form_is_the_contracts():
    r = FitResult(True, 19.5, ((0.0, 0.0), (1.0, 2.0)), (0.5, 1.0))
    assert r.to_json() == {"fits": True, "clearance_mm": 19.5, "path": [[0.0, 0.0], [1.0, 2.0]],
                           "pinch": [0.5, 1.0]}


# --------------------------------------------------------------------------- tabletop fit

def test_fit_command_prints_the_fit_as_json(tmp_path, capsys):
    path = tmp_path / "room.json"
    path.write_text(Scene.of(room(D - 0.5)).dumps())
    assert main(["fit", str(path), "--from", "0,0", "--to", "0,250"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is False and out["clearance_mm"] == pytest.approx(D - 0.5, abs=0.05)
    assert out["path"][0] == [0.0, 0.0] and len(out["pinch"]) == 2


def test_fit_command_ignores_the_coin_that_slides(tmp_path, capsys):
    path = tmp_path / "room.json"
    path.write_text(Scene.of([*room(30.0), Piece("coin", 0.0, 0.0, suit="suns")]).dumps())
    assert main(["fit", str(path), "--from", "0,0", "--to", "0,250"]) == 0
    assert json.loads(capsys.readouterr().out)["fits"] is True


@pytest.mark.parametrize("args", [["--from", "0", "--to", "1,1"],
                                  ["--from", "0,0", "--to", "1,x"],
                                  ["--from", "0,0", "--to", "1,1", "--coin", "0"]])
def test_fit_command_bad_point_is_a_usage_error_naming_the_file(tmp_path, capsys, args):
    path = tmp_path / "x.json"
    path.write_text(Scene.of([]).dumps())
    assert main(["fit", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert "x.json" in err and err.count("\n") == 1


def test_fit_command_takes_negative_points(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text(Scene.of([]).dumps())
    assert main(["fit", str(path), "--from", "-10,-5", "--to", "-1,2"]) == 0
    assert json.loads(capsys.readouterr().out)["path"][0] == [-10.0, -5.0]


@pytest.mark.parametrize(("name", "text"), [
    ("record.jsonl", '{"type": "setup", "game": "worm-derby", "players": ["suns"]}\n'
                     '{"type": "roll", "player": "suns", "value": "2"}\n'),
    ("record.json", '{"type": "roll", "player": "suns", "value": "2"}\n'
                    '{"type": "roll", "player": "moons", "value": "3"}\n'),
    ("notes.txt", "hello\n")])
def test_fit_command_says_a_file_is_not_a_scene_or_an_image(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text)
    assert main(["fit", str(path), "--from", "0,0", "--to", "1,1"]) == 1
    err = capsys.readouterr().err
    assert f"{path} is not a scene JSON or an image" in err and err.count("\n") == 1


def test_fit_command_missing_file_is_one_line_naming_it(tmp_path, capsys):
    assert main(["fit", str(tmp_path / "gone.json"), "--from", "0,0", "--to", "1,1"]) == 1
    err = capsys.readouterr().err
    assert "gone.json" in err and err.count("\n") == 1


def test_fit_command_image_needs_a_calibration(tmp_path, capsys):
    image = tmp_path / "table.png"
    image.write_bytes(b"not really")
    assert main(["fit", str(image), "--from", "0,0", "--to", "1,1"]) == 2
    err = capsys.readouterr().err
    assert "needs --calibration" in err and err.count("\n") == 1


def test_fit_command_unreadable_scene_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{")
    assert main(["fit", str(path), "--from", "0,0", "--to", "1,1"]) == 1
    assert "bad.json" in capsys.readouterr().err


def test_a_coin_always_finds_the_way_over_the_open_table():
    # tiles along two sides of a square metre, one in the middle; starts all over the empty
    # corner far from every piece (where the roadmap is thinnest) must reach the middle
    pieces = [Piece.tile(x, 0) for x in range(0, 1001, 200)]
    pieces += [Piece.tile(1000, y) for y in range(200, 1001, 200)] + [Piece.tile(500, 500, 30)]
    obstacles = ObstacleSet.from_pieces(pieces)
    stuck = [(x, y) for x in range(-80, 400, 40) for y in range(700, 1100, 40)
             if not fit_path(obstacles, (x, y), (600.0, 250.0), D).fits]
    assert stuck == []


# --------------------------------------------------------------------------- the widest way

# an audited table (detected, mm): a 19 mm gap between the first two tiles, the start above
# its mouth, the goal below it among coins; the way round the second tile is 24 mm wide
AUDIT_TILES = [(241.36, 79.26, 76.66), (309.31, 63.08, 76.58), (370.07, -56.18, 2.29),
               (211.42, -12.34, 89.08), (-382.19, -67.03, 39.44), (505.73, -320.4, 60.68)]
AUDIT_COINS = [(-475.15, 219.47), (544.19, 55.64), (274.01, -12.95), (319.74, -47.64),
               (301.77, -83.33), (257.59, -2.91), (305.66, -34.41), (319.99, -96.53),
               (261.91, 15.67), (290.87, -22.16), (277.94, -36.54), (277.27, -55.53),
               (327.45, -65.16), (286.24, -72.3), (333.81, -83.15), (-150.29, -8.69),
               (73.23, -135.3), (-148.39, -179.89)]


def audit_table() -> list[Piece]:
    return ([Piece.tile(x, y, a) for x, y, a in AUDIT_TILES]
            + [Piece("coin", x, y, suit="suns") for x, y in AUDIT_COINS]
            + [Piece("post", 166.38, -74.3)])


@pytest.mark.parametrize("start", [(284.5, 110.1), (284.5, 150.0)])
def test_a_start_at_the_mouth_of_a_narrow_gap_takes_the_wide_way_round(start):
    obstacles = ObstacleSet.from_pieces(audit_table())
    r = fit_path(obstacles, start, (276.1, 31.9), 24.0)
    assert r.fits and r.clearance_mm == pytest.approx(24.067, abs=0.01)
    assert r.pinch_mm == pytest.approx((276.1, 31.9))
    for a, b in zip(r.path_mm, r.path_mm[1:], strict=False):  # never into the gap
        assert 2 * obstacles.clearance_of_segment(a, b) >= 24.0


def gap_mouth_case(seed: int) -> tuple[list[Piece], tuple[float, float], tuple[float, float]]:
    """Two tiles with a gap of 0.6 to 1.1 coin diameters, the start near one mouth and the goal
    near the other, other tiles and coins around (a random table, reproducible by seed)."""
    rng = random.Random(seed)
    while True:
        gap, a = rng.uniform(0.6, 1.1) * D, rng.uniform(0, 90)
        ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
        h = (T + gap) / 2
        out = [Piece.tile(150 - h * ca, 150 - h * sa, a), Piece.tile(150 + h * ca, 150 + h * sa, a)]
        while len(out) < 2 + rng.randint(2, 5):
            p = Piece.tile(rng.uniform(0, 300), rng.uniform(0, 300), rng.uniform(0, 89))
            if all(math.dist(p.centre_mm, q.centre_mm) > T * 1.2 for q in out):
                out.append(p)
        out += [Piece("coin", rng.uniform(0, 300), rng.uniform(0, 300), suit="suns")
                for _ in range(rng.randint(0, 8))]
        side, off = rng.choice([-1, 1]), rng.uniform(T / 2 + 5, T / 2 + 40)
        s = (150 - sa * off * side + rng.uniform(-10, 10) * ca,
             150 + ca * off * side + rng.uniform(-10, 10) * sa)
        g = (150 + sa * off * side + rng.uniform(-10, 10) * ca,
             150 - ca * off * side + rng.uniform(-10, 10) * sa)
        obstacles = ObstacleSet.from_pieces(out)
        if obstacles.clearance_of_point(s) > 5 and obstacles.clearance_of_point(g) > 5:
            return out, s, g


# seeds 15, 19, 23 and 44 once fooled the fit (it took the gap when the way round was wider)
@pytest.mark.parametrize("seed", [15, 19, 23, 44, 3, 8])
def test_the_fit_is_as_wide_as_a_brute_force_grid_path(seed):
    pieces, s, g = gap_mouth_case(seed)
    obstacles = ObstacleSet.from_pieces(pieces)
    r = fit_path(obstacles, s, g, D)
    grid = Grid(obstacles, (-150.0, -150.0), (450.0, 450.0), 1.0)
    assert not grid.passable(s, g, r.clearance_mm + 2.0), "the fit missed a wider way"
    assert grid.passable(s, g, r.clearance_mm - 2.0), "the fit claims a way that is not there"

"""``draw_case``: every table, light and clutter kind can be drawn and renders a sane picture;
the layouts are physically possible and the truth is where the picture is."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from shapely.geometry import Point, Polygon

from tabletop.pieceset import PieceSet
from tabletop.render import (
    CLUTTER_KINDS,
    LIGHT_KINDS,
    TABLE_FAMILY,
    TABLE_KINDS,
    RenderError,
    draw_case,
)
from tabletop.render.layouts import Placer
from tabletop.scene import Scene

SMALL = (320, 180)
PS = PieceSet()


def _sane(image: np.ndarray) -> None:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert gray.std() > 2.0  # not blank
    assert (gray >= 250).mean() < 0.5 and (gray <= 3).mean() < 0.5  # not clipped everywhere


def _footprint(p) -> Polygon:
    geom, _ = Placer(Point(0, 0), [], PS).footprint(p)
    return geom


def test_same_seed_same_bytes():
    a = draw_case(11, size=SMALL, n_pieces=12).render()
    b = draw_case(11, size=SMALL, n_pieces=12).render()
    assert a.image.tobytes() == b.image.tobytes()
    assert a.truth_json() == b.truth_json()


def test_families_are_the_seven_named_ones():
    assert set(TABLE_FAMILY) == set(TABLE_KINDS)
    assert set(TABLE_FAMILY.values()) == {"wood", "felt", "cloth", "pattern", "stone", "white",
                                          "laminate"}


@pytest.mark.parametrize("table", TABLE_KINDS)
def test_every_table_kind_renders_a_sane_picture(table):
    case = draw_case(5, table=table, size=SMALL, n_pieces=8, light="soft", clutter="none")
    assert case.conditions["table"] == table
    assert case.conditions["table_family"] == TABLE_FAMILY[table]
    _sane(case.render().image)


@pytest.mark.parametrize("light", LIGHT_KINDS)
def test_every_light_kind_renders_a_sane_picture(light):
    case = draw_case(6, light=light, size=SMALL, n_pieces=10)
    assert case.conditions["light"] == light
    _sane(case.render().image)


@pytest.mark.parametrize("clutter", CLUTTER_KINDS)
def test_every_clutter_kind_is_drawn_and_kept_off_the_pieces(clutter):
    case = draw_case(7, clutter=clutter, size=SMALL, n_pieces=25)
    assert case.conditions["clutter"] == clutter
    if clutter == "none":
        assert case.distractors == ()
    else:
        assert case.distractors
        kinds = {d["kind"] for d in case.distractors}
        assert (clutter == "mixed" and len(kinds) >= 2) or kinds == {clutter}
    feet = [_footprint(p) for p in case.scene.pieces]
    for d in case.distractors:
        w, h = d["size_mm"]
        a = math.radians(d["angle_deg"])
        cx, cy = d["centre_mm"]
        poly = Polygon([(cx + math.cos(a) * x - math.sin(a) * y,
                         cy + math.sin(a) * x + math.cos(a) * y)
                        for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2),
                                     (-w / 2, h / 2))])
        if d["kind"] == "mug":
            poly = Point(cx, cy).buffer(w / 2)
        assert all(poly.intersection(f).area == 0 for f in feet)
    r = case.render()
    _sane(r.image)
    truth = r.truth_json()
    assert truth["distractors"] == [dict(d) for d in case.distractors]
    assert truth["conditions"] == dict(case.conditions)
    assert all(p["kind"] in ("coin", "tile", "post") for p in truth["pieces"])


def test_pinned_choices_that_do_not_exist_are_one_line_errors():
    with pytest.raises(RenderError, match="table"):
        draw_case(1, table="plywood")
    with pytest.raises(RenderError, match="n_pieces"):
        draw_case(1, n_pieces=0)
    with pytest.raises(RenderError, match="gap_worm"):
        draw_case(1, kinds=("coin",), gap_worm=True)


def test_gap_worm_can_be_pinned_off():
    assert all(not draw_case(s, size=SMALL, n_pieces=30, gap_worm=False).gaps
               for s in range(40, 46))


def _square(tile) -> Polygon:
    geom, _ = Placer(Point(0, 0), [], PS).footprint(tile)
    return geom


@pytest.mark.parametrize("seed", range(100, 106))
def test_gap_worm_coins_touch_both_tiles(seed):
    case = draw_case(seed, size=SMALL, n_pieces=20, clutter="none", gap_worm=True)
    assert case.gaps and case.conditions["gap_worm"] == "yes"
    pieces = case.scene.pieces
    for gap in case.gaps:
        worm = case.worms[gap["worm"]]
        assert 17.0 <= gap["width_mm"] <= 22.0
        for t in gap["between"]:
            square = _square(pieces[t])
            clear = [square.exterior.distance(Point(pieces[i].x_mm, pieces[i].y_mm))
                     - PS.coin_radius_mm for i in worm]
            assert all(c > -1e-6 for c in clear)  # no coin lies on a tile
            assert min(clear) <= 0.5  # and one touches it
        for a, b in itertools.pairwise(worm):  # the worm's coins touch each other
            d = math.hypot(pieces[a].x_mm - pieces[b].x_mm, pieces[a].y_mm - pieces[b].y_mm)
            assert PS.coin_diameter_mm - 1e-6 <= d <= PS.coin_diameter_mm + 0.5


@pytest.mark.parametrize("seed", [201, 202, 203, 204])
def test_no_two_footprints_overlap(seed):
    case = draw_case(seed, size=SMALL, n_pieces=100)
    assert len(case.scene) == 100
    feet = [_footprint(p) for p in case.scene.pieces]
    for i in range(len(feet)):
        for j in range(i):
            assert feet[i].intersection(feet[j]).area < 1e-6


def test_worm_up_segments_and_tokens_when_asked_for():
    case = draw_case(9, size=SMALL, n_pieces=40, kinds=("segment", "token", "coin"))
    kinds = {p.kind for p in case.scene.pieces}
    assert kinds == {"segment", "token", "coin"}
    _sane(case.render().image)


def test_blind_stripes_alternate_across_the_table():
    case = draw_case(12, light="blind", table="laminate-grey", clutter="none", n_pieces=1,
                     size=(480, 270), hand=False)
    blind = case.settings.blind
    r = case.render()
    gray = cv2.GaussianBlur(cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY).astype(float), (0, 0), 2)
    a = math.radians(blind.angle_deg)
    across = np.array([-math.sin(a), math.cos(a)])
    c = case.pose.pixels_to_table(np.array([239.5]), np.array([134.5]))
    centre = np.array([c[0][0], c[1][0]])
    ts = np.arange(-2.0, 2.0, 1.0 / 16) * blind.period_mm
    px = case.pose.project_table(centre[None, :] + ts[:, None] * across[None, :])
    inside = (px[:, 0] > 5) & (px[:, 0] < 474) & (px[:, 1] > 5) & (px[:, 1] < 264)
    values = np.array([gray[round(v), round(u)] for u, v in px[inside]])
    want = np.array([blind.factor(*(centre + t * across)) for t in ts[inside]])
    assert values.size >= 24
    assert np.corrcoef(values, want)[0, 1] > 0.8  # bright where the blind lets light through
    bright = values > (values.max() + values.min()) / 2
    assert np.count_nonzero(bright[1:] != bright[:-1]) >= 3  # light, shade, light, shade
    assert values.max() - values.min() > 25


@pytest.mark.parametrize("seed, table", [(301, "walnut"), (302, "felt-blue"), (303, "slate"),
                                         (304, "gingham-red"), (305, "oak")])
def test_truth_projects_onto_the_pieces(seed, table):
    case = draw_case(seed, table=table, size=(480, 270), n_pieces=15, hand=False)
    with_pieces = case.render()
    empty = replace(case, scene=Scene(())).render()
    diff = np.abs(with_pieces.image.astype(int) - empty.image.astype(int)).max(axis=2)
    diff = cv2.blur(diff.astype(np.float32), (3, 3))
    for t in with_pieces.truth:
        if t.visible_fraction < 1.0:
            continue
        u, v = (round(x) for x in t.top_px)
        assert diff[v, u] > 8, (t.kind, t.top_px)


@pytest.mark.parametrize("width", [17.0, 18.5, 19.05, 20.0, 22.0])
@pytest.mark.parametrize("max_coins", [2, 6])
def test_gap_worm_touches_both_tiles_at_any_width(width, max_coins):
    from tabletop.render.layouts import gap_worm

    for seed in range(5):
        tiles, coins, g = gap_worm(np.random.default_rng(seed), (10.0, -30.0), PS, width,
                                   max_coins)
        assert g == width and 2 <= len(coins) <= max_coins
        for tile in tiles:
            edge = _square(tile).exterior
            clear = [edge.distance(Point(c.x_mm, c.y_mm)) - PS.coin_radius_mm for c in coins]
            assert all(_square(tile).distance(Point(c.x_mm, c.y_mm)) > 0 for c in coins)
            assert min(clear) > -1e-6 and min(clear) <= 0.5


def _edge_cases(n: int) -> list[int]:
    seeds = [s for s in range(400, 520)
             if draw_case(s, size=SMALL, n_pieces=15).settings.table_edge is not None]
    return seeds[:n]


@pytest.mark.parametrize("seed", _edge_cases(3))
def test_a_table_edge_has_everything_on_the_table_and_the_floor_beyond(seed):
    case = draw_case(seed, size=SMALL, n_pieces=15)
    edge = case.settings.table_edge
    for p in case.scene.pieces:
        assert edge.beyond_mm(p.x_mm, p.y_mm) < -30.0
    for d in case.distractors:
        assert edge.beyond_mm(*d["centre_mm"]) < 0.0
    with_edge = case.render().image.astype(float)
    without = replace(case, settings=replace(case.settings, table_edge=None)).render().image
    x, y = case.pose.pixels_to_table(*np.meshgrid(np.arange(320.0), np.arange(180.0)))
    past = np.nan_to_num(edge.beyond_mm(x, y), nan=-1e9)
    change = np.abs(with_edge - without.astype(float)).max(axis=2)
    floor, table = past > 20.0, past < -100.0  # (JPEG blocks blur the line's neighbourhood)
    assert floor.sum() > 100 and table.sum() > 100
    assert change[floor].mean() > 10.0  # the floor replaces the table there
    assert change[table].max() == 0.0  # and the table is untouched


def test_a_hand_case_shows_a_hand_and_a_plain_render_keeps_its_truth_keys():
    case = draw_case(21, size=SMALL, n_pieces=10, hand=True, clutter="mug")
    r = case.render()
    assert case.conditions["hand"] == "yes" and r.truth_json()["hand"] is True
    plain = replace(r, distractors=(), conditions=None).truth_json()
    assert "distractors" not in plain and "conditions" not in plain
    json.dumps(r.truth_json())

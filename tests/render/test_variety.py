"""``draw_case``: every table, light and clutter kind can be drawn and renders a sane picture;
the layouts are physically possible and the truth is where the picture is."""

from __future__ import annotations

import math

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

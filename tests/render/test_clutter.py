"""Clutter: what each thing looks like and where its footprint is."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Point

from tabletop.render.clutter import CLUTTER, card_image, make_clutter
from tabletop.render.shapes import RoundedBox


def test_a_phone_has_rounded_corners():
    phone = RoundedBox((0.0, 0.0), 8.0, 0.0, half_mm=36.0, half_y_mm=75.0, corner_mm=10.0)
    origin = np.array([0.0, 0.0, 1000.0])
    down = np.array([[0.0, 0.0, -1.0]])

    def hits(x: float, y: float) -> bool:
        return bool(phone.intersect(origin + np.array([x, y, 0.0]), down).mask[0])

    assert hits(0.0, 0.0) and hits(35.0, 0.0) and hits(0.0, 74.0)
    assert not hits(35.5, 74.5)  # the corner is cut away
    assert hits(33.0, 71.0)  # inside the corner's arc
    assert phone.edge_distance_mm(np.array([0.0]), np.array([0.0]))[0] == pytest.approx(36.0)


@pytest.mark.parametrize("suit, red", [("hearts", True), ("diamonds", True), ("spades", False),
                                       ("clubs", False)])
def test_card_pips_are_red_or_black_by_suit(suit, red):
    img = card_image("7", suit).astype(int)
    ink = img.sum(axis=2) < 500
    b, r = img[..., 0][ink].mean(), img[..., 2][ink].mean()
    assert ink.mean() > 0.02  # pips and indices
    assert (r > b + 60) == red


@pytest.mark.parametrize("kind", CLUTTER)
def test_clutter_footprint_holds_its_items(kind):
    item = make_clutter(kind, np.random.default_rng(3), (40.0, -20.0), 30.0)
    assert item.kind == kind and item.items
    assert item.decals or item.props
    for entry in item.items:
        assert entry["kind"] == kind
        assert item.footprint.buffer(0.01).contains(Point(entry["centre_mm"]))
        w, h = entry["size_mm"]
        assert w > 0 and h > 0
    for decal in item.decals:  # printed sheets carry ink
        assert decal.image_bgr.min() < 150
    assert item.footprint.area > 100.0

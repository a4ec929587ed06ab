"""A coin whose face shows a coloured ink lies face up: a value's numeral is black. The namer's
"value up" (``coin-down``) stands only where the face shows no coloured ink."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render.variety import draw_case
from vision.coin_faces import face_suits_shown
from vision.detections import Detections
from vision.namer import Namer, NamerConfig, name_detections
from vision.suits import DEFAULT_SUIT_INKS
from vision.topview import TopView

INKS = dict(DEFAULT_SUIT_INKS)


@pytest.fixture(scope="module")
def dark_felt_coins() -> tuple:
    """Coins on black felt under three lamps (render seed 644010): the namer calls two arms
    coins "value up" (their blue symbol dark on a dark table) at their true places."""
    seed = 644010
    case = draw_case(seed, kinds=("coin",), n_pieces=30 + seed % 51, table="felt-black",
                     light="three-lamps")
    r = case.render()
    cal = r.calibration()
    coins = [p for p, t in zip(r.scene.pieces, r.truth, strict=True)
             if p.kind == "coin" and not t.occluded and t.visible_fraction >= 1]
    foot = np.array([[p.x_mm, p.y_mm] for p in coins])
    seen = TopView(cal).camera.seen_at(foot, PieceSet().coin_thickness_mm)
    return r.image, cal, coins, foot, seen


def test_a_coin_showing_a_coloured_ink_is_not_read_value_up(dark_felt_coins) -> None:
    image, cal, coins, foot, seen = dark_felt_coins
    arms = [i for i, p in enumerate(coins) if p.suit == "arms" and p.face != "down"]
    assert len(arms) >= 4
    dets = Detections.of(foot[arms], ["coin"] * len(arms), confidence=[0.1] * len(arms),
                         seen_mm=seen[arms], suit=[None] * len(arms))  # a stage's unsure read
    named = name_detections(Namer(NamerConfig()), image, cal, dets)
    assert list(named.suit) == ["arms"] * len(arms)
    assert "down" not in list(named.face)


def test_the_namers_value_up_stands_where_the_face_shows_black_ink(dark_felt_coins) -> None:
    """Black ink is no proof of a suit: a coin the namer calls value up whose face reads black
    (a moon, or a numeral) stays value up."""
    image, cal, coins, foot, seen = dark_felt_coins
    value = [i for i, p in enumerate(coins) if p.face == "down"]
    moons = [i for i, p in enumerate(coins) if p.suit == "moons" and p.face != "down"]
    rows = value + moons
    assert value and moons
    dets = Detections.of(foot[rows], ["coin"] * len(rows), confidence=[0.1] * len(rows),
                         seen_mm=seen[rows], suit=[None] * len(rows))
    named = name_detections(Namer(NamerConfig()), image, cal, dets)
    assert all(s in (None, "moons") for s in named.suit)


def test_a_numeral_in_a_warm_shoulder_shows_no_suit_and_a_blurred_blue_does() -> None:
    """A value face washed into the camera's highlight shoulder under a warm lamp (render
    644011's darkest tenth, read as a sun by hue) shows no coloured ink; a blurred arms
    symbol on black felt (644015's, whose face the namer called value up) does."""
    body = np.array([253.0, 247.0, 242.0])  # RGB, a cream face in the shoulder
    got = []
    for rel in ((0.83, 0.83, 0.77), (0.62, 0.87, 0.90)):
        face = np.tile(body[::-1], (1, 400, 1))
        face[0, :40] = (body * np.array(rel))[::-1]
        got += face_suits_shown(face, INKS)
    assert got == [None, "arms"]

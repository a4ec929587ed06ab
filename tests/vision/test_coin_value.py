"""A coin lying value up shows a black numeral, centred on its face: it has no suit to read
and is no moon, whose black crescent lies to one side of the face."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render import render
from tabletop.scene import Piece, Scene
from vision.coin_faces import coin_readings
from vision.coin_value import (
    CENTRED_SHARE,
    NUMERAL_MM2,
    UNSURE_SHARE,
    ink_area_mm2,
    ink_off_centre,
    numeral_shown,
)
from vision.detections import Detections
from vision.namer import Namer, NamerConfig, name_detections
from vision.suits import DEFAULT_SUIT_INKS
from vision.topview import TopView

INKS = dict(DEFAULT_SUIT_INKS)
PIECES = PieceSet()


@pytest.fixture(scope="module")
def value_and_moons() -> tuple:
    """A row of coins, moons and coins lying value up alternately, seen a little tilted."""
    coins = [Piece("coin", -120.0 + 30.0 * k, 25.0 * (k % 2), suit=None, face="down")
             if k % 2 else Piece("coin", -120.0 + 30.0 * k, 25.0 * (k % 2), suit="moons")
             for k in range(9)]
    scene = Scene(tuple(coins))
    pose = render.default_pose_for(scene, height_mm=850.0, tilt_deg=12.0)
    r = render.render_scene(scene, pose, render.RenderSettings(), PIECES)
    cal = r.calibration()
    foot = np.array([[p.x_mm, p.y_mm] for p in coins])
    seen = TopView(cal).camera.seen_at(foot, PIECES.coin_thickness_mm)
    return r.image, cal, coins, foot, seen


def test_a_numeral_is_centred_and_a_crescent_is_not() -> None:
    yy, xx = np.mgrid[-12:13, -12:13]
    offsets = np.c_[xx.ravel(), yy.ravel()]
    d = np.hypot(xx, yy)
    moon = (d < 9) & (np.hypot(xx - 3.6, yy + 2.4) >= 7.4)  # the renderer's crescent
    bar = (np.abs(xx) <= 4) & ((np.abs(yy + 5) <= 1) | (np.abs(yy - 5) <= 1))
    two = bar | ((np.abs(xx + yy) <= 1) & (np.abs(xx) <= 4))  # a "Z", centred
    faces = np.full((2, len(offsets), 3), 210.0)
    faces[0, moon.ravel()] = 25.0
    faces[1, two.ravel()] = 25.0
    off = ink_off_centre(faces, offsets)
    assert off[0] > 0.5 and off[1] < 0.2
    assert numeral_shown(faces, offsets).tolist() == [False, True]


def test_a_blank_face_shows_no_numeral() -> None:
    offsets = np.c_[np.arange(40) % 8, np.arange(40) // 8].astype(float)
    assert numeral_shown(np.full((1, 40, 3), 200.0), offsets).tolist() == [False]


def test_coins_lying_value_up_have_no_suit(value_and_moons) -> None:
    image, cal, coins, _, seen = value_and_moons
    got = coin_readings(image, cal, seen, INKS)
    assert [(s, side) for s, _, side in got] == [
        (None, "down") if p.face == "down" else ("moons", "up") for p in coins]


def test_the_namer_reads_a_value_up_coin_as_face_down(value_and_moons) -> None:
    """Whatever a stage read (a moon, as the darkest tenth of a numeral reads), the coin the
    namer keeps is read again from its face: value up, no suit."""
    image, cal, coins, foot, seen = value_and_moons
    dets = Detections.of(foot, ["coin"] * len(coins), confidence=[0.9] * len(coins),
                         seen_mm=seen, suit=["moons"] * len(coins))
    named = name_detections(Namer(NamerConfig()), image, cal, dets)
    assert len(named) == len(coins)
    assert list(named.suit) == [p.suit for p in coins]
    assert [f == "down" for f in named.face] == [p.face == "down" for p in coins]


@pytest.mark.parametrize("edge_deg", [0, 45, 90, 135, 180, 225, 270, 315])
def test_a_shadows_edge_across_the_face_is_no_ink(edge_deg: int) -> None:
    """A blind's stripe edge across a face (one side at 45 % of the light, a soft ramp
    between): a crescent still lies to one side and a numeral still in the middle, whichever
    way the edge runs and whichever way the crescent turns."""
    yy, xx = np.mgrid[-12:13, -12:13].astype(float)
    offsets = np.c_[xx.ravel(), yy.ravel()]
    d = np.hypot(xx, yy)
    a = np.radians(edge_deg)
    along = np.cos(a) * xx + np.sin(a) * yy
    light = 0.45 + 0.55 / (1.0 + np.exp(-along / 1.5))
    faces = []
    for turn in range(4):  # the crescent turned four ways
        c, s = np.cos(turn * np.pi / 2), np.sin(turn * np.pi / 2)
        u, v = c * xx - s * yy, s * xx + c * yy
        moon = (d < 9) & (np.hypot(u - 3.6, v + 2.4) >= 7.4)
        faces.append(np.where(moon, 25.0, 210.0) * light)
    bar = (np.abs(xx) <= 4) & ((np.abs(yy + 5) <= 1) | (np.abs(yy - 5) <= 1))
    two = bar | ((np.abs(xx + yy) <= 1) & (np.abs(xx) <= 4))
    faces.append(np.where(two, 25.0, 210.0) * light)
    px = np.repeat(np.stack(faces).reshape(5, -1)[..., None], 3, axis=2)
    assert numeral_shown(px, offsets).tolist() == [False] * 4 + [True]


def test_ink_smaller_than_any_crescent_is_a_numeral_where_its_place_does_not_tell() -> None:
    """A thin stroke (a "1", half a millimetre wide and 6 mm long) a little off the face's
    centre and a crescent, both with their ink 0.4-0.65 of its spread off the centre: by place
    alone both are crescents; by their ink's area (the stroke's 2.6 mm², the crescent's 40)
    the stroke is a numeral, the crescent still a moon."""
    s = 0.25  # mm a sample
    yy, xx = np.mgrid[-30:31, -30:31] * s
    offsets = np.c_[xx.ravel(), yy.ravel()] / s
    d = np.hypot(xx, yy)
    on = (d <= 7.6).ravel()
    stroke = (np.abs(xx - 0.7) <= 0.3) & (np.abs(yy - 0.3) <= 3.0)
    moon = (d < 7.0) & (np.hypot(xx - 1.5, yy + 0.5) >= 6.0)
    faces = np.full((2, len(offsets), 3), 210.0)
    faces[0, stroke.ravel()] = 25.0
    faces[1, moon.ravel()] = 25.0
    faces, offsets = faces[:, on], offsets[on]
    off = ink_off_centre(faces, offsets)
    assert ((off >= CENTRED_SHARE) & (off < UNSURE_SHARE)).all()
    area = ink_area_mm2(faces, offsets, s)
    assert area[0] < NUMERAL_MM2 < area[1]
    assert numeral_shown(faces, offsets).tolist() == [False, False]
    assert numeral_shown(faces, offsets, sample_mm=s).tolist() == [True, False]

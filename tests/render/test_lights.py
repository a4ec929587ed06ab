"""More lamps, a blind and window daylight: each lamp casts its own shadow in its own colour,
daylight falls off away from the window, and the plain one-lamp render is left alone."""

from __future__ import annotations

import itertools
import json
import math

import cv2
import numpy as np
import pytest

from tabletop.render import CameraPose, RenderError, RenderSettings, render_scene
from tabletop.render.lights import Blind, Daylight, Lamp
from tabletop.scene import Piece, Scene

POSE = CameraPose.looking_at((0.0, 0.0), 700.0, 0.0, 0.0, (400, 300), 60.0)
POST = Scene((Piece("post", 0.0, 0.0),))
BASE = {"table": "laminate-grey", "table_seed": 1, "ambient": 0.4, "shadow_strength": 0.6,
        "shadow_softness_px": 0.5, "light_elevation_deg": 40.0, "light_dir_deg": 0.0}


def _mean_at(image: np.ndarray, x_mm: float, y_mm: float) -> np.ndarray:
    u, v = (round(c) for c in POSE.project_table([[x_mm, y_mm]])[0])
    return image[v - 2:v + 3, u - 2:u + 3].reshape(-1, 3).astype(float).mean(axis=0)


def test_each_lamp_casts_its_own_shadow():
    one = render_scene(POST, POSE, RenderSettings.clean(**BASE)).image
    two = render_scene(POST, POSE, RenderSettings.clean(
        **BASE, lamps=(Lamp(180.0, 40.0, 5500.0, 0.45),))).image
    # light from +x throws the shadow toward -x; the second lamp (from -x) toward +x
    far = _mean_at(one, 0.0, 100.0).sum()
    assert _mean_at(one, -25.0, 0.0).sum() < 0.8 * far
    assert _mean_at(one, 25.0, 0.0).sum() > 0.97 * far
    far2 = _mean_at(two, 0.0, 100.0).sum()
    assert _mean_at(two, -25.0, 0.0).sum() < 0.9 * far2
    assert _mean_at(two, 25.0, 0.0).sum() < 0.9 * far2
    # each shadow is lighter than the one lamp's: the other lamp still lights it
    assert _mean_at(two, -25.0, 0.0).sum() / far2 > _mean_at(one, -25.0, 0.0).sum() / far


def test_a_warm_lamps_shadow_is_lit_by_the_other_lamp_only():
    r = render_scene(POST, POSE, RenderSettings.clean(
        **BASE, colour_temp_k=5500.0, lamps=(Lamp(180.0, 40.0, 2700.0, 0.5),))).image
    in_warm_shadow = _mean_at(r, 25.0, 0.0)  # the warm lamp (from -x) is blocked here
    open_table = _mean_at(r, 0.0, 100.0)
    assert in_warm_shadow[0] / in_warm_shadow[2] > 1.03 * open_table[0] / open_table[2]


def test_daylight_falls_off_away_from_the_window():
    s = RenderSettings.clean(**BASE, daylight=Daylight(0.0, 0.5, 400.0))
    img = render_scene(Scene(()), POSE, s).image
    xs = np.linspace(-180.0, 180.0, 7)
    lum = [_mean_at(img, x, 60.0).sum() for x in xs]
    assert all(b > a for a, b in itertools.pairwise(lum))  # the window is toward +x
    assert lum[-1] > 1.5 * lum[0]


def test_blind_bands_fall_on_the_pieces_too():
    tile = Scene((Piece.tile(0.0, 0.0, 0.0, "down"),))
    blind = Blind(period_mm=20.0, duty=0.5, angle_deg=90.0, strength=0.6, softness_mm=1.0)
    s = RenderSettings.clean(**{**BASE, "light_elevation_deg": 45.0}, blind=blind)
    img = cv2.cvtColor(render_scene(tile, POSE, s).image, cv2.COLOR_BGR2GRAY).astype(float)
    # bands run along y, so across x on the tile's top the light alternates; the top is 4.8 mm
    # up and the light comes from +x at 45 degrees, so its bands are those 4.8 mm further -x
    h = 4.8
    xs = np.arange(-20.0, 20.0, 2.5) + 1.25
    seen = []
    for x in xs:
        u, v = (round(c) for c in POSE.project([[x, 0.0, h]])[0])
        seen.append(img[v, u])
    shifted = [blind.factor(np.array(x - h), np.array(0.0)) for x in xs]
    unshifted = [blind.factor(np.array(x), np.array(0.0)) for x in xs]
    assert np.corrcoef(seen, shifted)[0, 1] > 0.9
    assert np.corrcoef(seen, unshifted)[0, 1] < 0.5


def test_settings_json_lists_the_light_extras_only_when_used():
    plain = RenderSettings().to_json()
    assert not {"lamps", "blind", "daylight"} & set(plain)
    extra = RenderSettings(lamps=(Lamp(10.0, 30.0),), blind=Blind()).to_json()
    assert extra["lamps"][0]["dir_deg"] == 10.0 and extra["blind"]["period_mm"] == 60.0
    json.dumps(extra)


@pytest.mark.parametrize("make, field", [
    (lambda: Lamp(0.0, 2.0), "elevation_deg"),
    (lambda: Lamp(0.0, 40.0, 900.0), "colour_temp_k"),
    (lambda: Blind(duty=0.99), "duty"),
    (lambda: Daylight(strength=math.nan), "strength"),
    (lambda: RenderSettings(lamps=(Lamp(0, 40, share=0.5), Lamp(90, 40, share=0.5))), "shares"),
    (lambda: RenderSettings(table="plywood"), "table"),
])
def test_bad_light_values_are_one_line_errors(make, field):
    with pytest.raises(RenderError, match=field):
        make()

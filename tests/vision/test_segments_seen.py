"""Worm Up! segments seen through the camera where the light and the table make it hard: worms
that bend, segments in a blind's shadow or a dim room, on a table of nearly their colour, and
nothing but segments taken for segments (rendered at fixed seeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig

COLOURS = ("red", "yellow", "green", "blue", "purple")
D = 20.0


def _worm(x: float, y: float, headings_deg: list[float], colour: str) -> list[Piece]:
    """A worm of touching segments from (x, y), each step along the next heading."""
    out = [Piece("segment", x, y, color=colour)]
    for h in headings_deg:
        x, y = x + D * math.cos(math.radians(h)), y + D * math.sin(math.radians(h))
        out.append(Piece("segment", round(x, 3), round(y, 3), color=colour))
    return out


def _detect(scene: Scene, seed: int, **settings: object) -> list[Piece]:
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(scene, render.CameraPose.looking_at(
        (0, 0), height_mm=900, tilt_deg=14, image_size=(1280, 720), hfov_deg=58),
        render.RenderSettings(seed=seed, supersample=2, **settings))  # type: ignore[arg-type]
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up")).detect(r.image)
    return [p for p in res.scene.pieces if p.kind == "segment"]


def _each_found(truth: list[Piece], found: list[Piece], tol_mm: float = 3.0) -> None:
    assert len(found) == len(truth), (len(found), len(truth))
    xy = np.array([[p.x_mm, p.y_mm] for p in found])
    for q in truth:
        d = np.hypot(*(xy - [q.x_mm, q.y_mm]).T)
        j = int(np.argmin(d))
        assert d[j] < tol_mm, (q, d[j])
        assert found[j].color == q.color, (q, found[j])


def _bent_worms() -> list[Piece]:
    return (_worm(-220.0, -60.0, [0, 0, 45, 90, 90, 135], "red")
            + _worm(-20.0, -100.0, [90, 90, 30, -30, -90, -90], "blue")
            + _worm(150.0, 40.0, [-90, -150, 150, 90, 90, 30], "green")
            + _worm(-180.0, 120.0, [0, 60, 0, -60, 0, 60], "yellow"))


def test_a_segment_at_a_worms_bend_is_found() -> None:
    truth = _bent_worms()
    _each_found(truth, _detect(Scene(tuple(truth)), 65901, table="oak"))


def test_two_touching_segments_of_two_worms_are_two_segments() -> None:
    truth = (_worm(-100.0, 0.0, [0, 0], "purple") + _worm(-40.0, 0.0, [0, 0], "purple")
             + _worm(-100.0, 20.0, [0, 0, 0, 0, 0], "red"))
    _each_found(truth, _detect(Scene(tuple(truth)), 65902, table="felt-green"))


def test_segments_in_a_blinds_shadow_are_found() -> None:
    truth = [Piece("segment", -240.0 + 24 * k, -80.0 + 37 * (k % 5), color=COLOURS[k % 5])
             for k in range(20)]
    render = pytest.importorskip("tabletop.render")
    blind = render.Blind(period_mm=50.0, duty=0.5, angle_deg=30.0, strength=0.6)
    _each_found(truth, _detect(Scene(tuple(truth)), 65903, table="glossy-white", blind=blind))


def test_segments_in_a_blinds_shadow_with_the_lamp_off_are_found() -> None:
    # the trust bench's lamp switched off between rounds (window light only, low and soft):
    # a dome in a stripe's shade has no highlight and hardly any shading, flat as a print
    truth = _bent_worms()
    render = pytest.importorskip("tabletop.render")
    blind = render.Blind(period_mm=45.0, duty=0.55, angle_deg=120.0, strength=0.6)
    _each_found(truth, _detect(Scene(tuple(truth)), 65931, table="varnished-oak", blind=blind,
                               exposure=0.55, shadow_strength=0.18, ambient=0.8,
                               light_elevation_deg=22.0, colour_temp_k=6500.0,
                               light_falloff=0.0))


def test_segments_in_a_dim_warm_noisy_room_are_found() -> None:
    truth = _bent_worms()
    _each_found(truth, _detect(Scene(tuple(truth)), 65907, table="walnut", exposure=0.45,
                               colour_temp_k=2800.0, noise_sigma=10.0))


def test_segments_on_a_table_of_their_own_colour_are_found() -> None:
    truth = (_worm(-150.0, -50.0, [0, 0, 0, 0], "blue") + _worm(-150.0, 30.0, [0, 0, 0], "purple")
             + _worm(40.0, -50.0, [90, 90, 90], "green"))
    _each_found(truth, _detect(Scene(tuple(truth)), 65904, table="cloth-blue"))


def test_nothing_on_a_checked_cloth_or_a_grained_wood_is_a_segment() -> None:
    coins = tuple(Piece("coin", x, 0.0, suit="suns") for x in (-60.0, 0.0, 60.0))
    assert _detect(Scene(coins), 65905, table="checks-large") == []
    assert _detect(Scene(coins), 65906, table="varnished-oak") == []

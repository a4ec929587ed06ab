"""Worm Up segments: each one found and named, alone or touching others, and nothing else."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig

COLOURS = ("red", "yellow", "green", "blue", "purple")


def _touching_segments() -> list[Piece]:
    """Pairs of touching segments at several headings, and lines of three."""
    out = []
    for i in range(5):
        x = -200.0 + 90 * i
        out.append(Piece("segment", x, 0.0, color=COLOURS[i]))
        out.append(Piece("segment", x + 20.0 * math.cos(i), 20.0 * math.sin(i),
                         color=COLOURS[(i + i % 2) % 5]))
    for i in range(3):
        out += [Piece("segment", -150.0 + 120 * i + 20 * k, 90.0, color=COLOURS[(i + 1) % 5])
                for k in range(3)]
    return out


def _detect(scene: Scene, table: str, seed: int) -> list[Piece]:
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(scene, render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=12, image_size=(1280, 720), hfov_deg=55),
        render.RenderSettings(seed=seed, table=table, supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up")).detect(r.image)
    return [p for p in res.scene.pieces if p.kind == "segment"]


@pytest.mark.parametrize(("table", "seed"), [("linen", 20311), ("cloth-grey", 20312)])
def test_two_touching_segments_are_two_segments(table: str, seed: int) -> None:
    truth = _touching_segments()
    found = _detect(Scene(tuple(truth)), table, seed)
    assert len(found) == len(truth)
    xy = np.array([[p.x_mm, p.y_mm] for p in found])
    for q in truth:
        d = np.hypot(*(xy - [q.x_mm, q.y_mm]).T)
        j = int(np.argmin(d))
        assert d[j] < 1.0, (q, d[j])
        assert found[j].color == q.color


def test_the_squares_of_a_checked_cloth_are_not_segments() -> None:
    # a gingham's saturated squares are about a segment across, but flat and square
    coins = tuple(Piece("coin", x, 0.0, suit="suns") for x in (-60.0, 0.0, 60.0))
    assert _detect(Scene(coins), "gingham-red", 20313) == []

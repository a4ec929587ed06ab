"""Worm Up! segments under a lamp's glare: the lamp mirrored in the table adds the same white to
the table and to the segments on it, and a webcam's automatic exposure pushes a dark or white
table towards its brightest levels, so a segment is a pale pastel dome whose own saturation is
far below a segment's. Its colour still differs from the table's: each is found with its colour,
and nothing else under the same glare is taken for one (rendered at fixed seeds, the lamp's spot
on the worms)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.segment_mask import chroma_off_table

D = 20.0
COLOURS = ("red", "yellow", "blue", "green", "purple")


def _start() -> list[Piece]:
    """Five worms of seven touching segments side by side, one per colour, round the origin."""
    return [Piece("segment", -80.0 + 40.0 * i, -60.0 + D * k, color=c)
            for i, c in enumerate(COLOURS) for k in range(7)]


def _read(pieces: list[Piece], seed: int, table: str, glare: float) -> list[Piece]:
    """The segments read in a frame of ``pieces`` on ``table``, the lamp high (76 degrees)
    opposite the camera so that its mirror image lies on the origin, exposed as the
    renderer's webcam exposes that table."""
    render = pytest.importorskip("tabletop.render")
    variety = pytest.importorskip("tabletop.render.variety")
    pose = render.CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=14,
                                        image_size=(1280, 720), hfov_deg=58)
    r = render.render_scene(Scene(tuple(pieces)), pose, render.RenderSettings(
        seed=seed, supersample=2, table=table, glare=glare, glare_shininess=120.0,
        light_dir_deg=270.0, light_elevation_deg=76.0,
        exposure=variety.auto_exposure(table)))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up")).detect(r.image)
    return [p for p in res.scene.pieces if p.kind == "segment"]


def test_a_colours_difference_from_the_table_is_unchanged_by_a_white_added_to_both() -> None:
    rng = np.random.default_rng(5)
    table = rng.integers(40, 120, (8, 8, 3)).astype(np.uint8)
    top = np.clip(table.astype(int) + rng.integers(-40, 40, (8, 8, 3)), 0, 255).astype(np.uint8)
    white = 90
    before = chroma_off_table(top, table)
    after = chroma_off_table(top + np.uint8(white), table + np.uint8(white))
    assert np.array_equal(before, after)
    grey = np.full((2, 2, 3), 100, np.uint8)
    assert not np.any(chroma_off_table(grey - np.uint8(40), grey))  # a shadow on grey: none


@pytest.mark.parametrize(("seed", "table", "glare"), [
    (65914, "dark-wood", 0.25),
    (65916, "glossy-white", 0.6),
    (65917, "walnut", 0.25),
    (65922, "slate", 0.3),
])
def test_segments_washed_pale_by_a_lamps_glare_are_found(seed: int, table: str,
                                                          glare: float) -> None:
    truth = _start()
    found = _read(truth, seed, table, glare)
    right = sum(any(math.dist(q.centre_mm, p.centre_mm) < 4.0 and p.color == q.color
                    for p in found) for q in truth)
    wrong = sum(all(math.dist(p.centre_mm, q.centre_mm) > 8.0 for q in truth) for p in found)
    assert right >= 0.8 * len(truth), (right, len(truth))
    assert wrong == 0


@pytest.mark.parametrize(("seed", "table", "glare"), [
    (65918, "glossy-white", 0.6),
    (65919, "varnished-oak", 0.8),
    (65920, "dark-wood", 0.4),
])
def test_nothing_else_under_a_lamps_glare_is_a_segment(seed: int, table: str,
                                                       glare: float) -> None:
    coins = [Piece("coin", x, y, suit="suns") for x in (-60.0, 0.0, 60.0) for y in (-45.0, 45.0)]
    tiles = [Piece("tile", -35.0, 0.0, angle_deg=10.0, face="down"),
             Piece("tile", 40.0, 0.0, suit="moons", angle_deg=0.0, face="up")]
    pieces = coins + tiles
    assert _read(pieces, seed, table, glare) == []

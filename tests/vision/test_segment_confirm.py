"""Worm Up! segments keep their count: a still reading short of a colour is made up from the
last accepted table where a segment still lies, never where one has gone; one over it loses its
phantom (rendered at a fixed seed)."""

from __future__ import annotations

import math

import pytest

from tabletop.scene import Piece, Scene
from vision.confirm import Confirmer

D = 20.0


def _worm(x: float, y: float, colour: str, n: int = 7) -> list[Piece]:
    return [Piece("segment", x, y + D * k, color=colour) for k in range(n)]


def _render(scene: Scene):
    render = pytest.importorskip("tabletop.render")
    return render.render_scene(scene, render.CameraPose.looking_at(
        (0, 60), height_mm=900, tilt_deg=12, image_size=(1280, 720), hfov_deg=58),
        render.RenderSettings(seed=83011, supersample=1, table="oak"))


TRUTH = [*_worm(-60.0, 0.0, "red"), *_worm(0.0, 0.0, "yellow"), *_worm(60.0, 0.0, "blue")]


def test_segments_conserved_a_colour_short_is_made_up_where_its_segments_still_lie():
    r = _render(Scene(tuple(TRUTH)))
    known = Scene(tuple(TRUTH))
    missing = {3, 9, 10}  # a red and two yellows not read
    reading = Scene(tuple(p for k, p in enumerate(TRUTH) if k not in missing))
    out = Confirmer(r.calibration(), kinds=("segment", "post")).confirm(r.image, reading, known)
    assert sorted(p.centre_mm for p in out.scene.pieces) == sorted(p.centre_mm for p in TRUTH)
    assert len(out.confirmed) == 3 and not out.dropped


def test_segments_conserved_a_segment_gone_from_its_place_is_not_put_back():
    moved = [*TRUTH[:7], *TRUTH[8:14], Piece("segment", 0.0, 7 * D, color="yellow"),
             *TRUTH[14:]]  # yellow's tail laid in front of its head
    r = _render(Scene(tuple(moved)))
    reading = Scene(tuple(p for p in moved if p.centre_mm != (0.0, 7 * D)))  # head not read
    out = Confirmer(r.calibration(), kinds=("segment", "post")).confirm(
        r.image, reading, Scene(tuple(TRUTH)))
    assert not any(math.dist(p.centre_mm, (0.0, 0.0)) < 3 for p in out.scene.pieces
                   if p.color == "yellow")  # its old tail's place shows the table
    assert len(out.scene.pieces) == len(reading.pieces)


def test_segments_conserved_a_colour_over_its_count_loses_its_least_sure_new_one():
    r = _render(Scene(tuple(TRUTH)))
    phantom = Piece("segment", -140.0, 90.0, color="red", confidence=0.55)
    reading = Scene((*(Piece(p.kind, p.x_mm, p.y_mm, color=p.color, confidence=0.9)
                       for p in TRUTH), phantom))
    out = Confirmer(r.calibration(), kinds=("segment", "post")).confirm(
        r.image, reading, Scene(tuple(TRUTH)))
    assert phantom not in out.scene.pieces and out.dropped == (len(TRUTH),)

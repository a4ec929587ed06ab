"""Worm Up! segments read with a blind's bands of light divided out (vision/segment_light.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.bands import Bands
from vision.segment_light import lift


def test_lift_divides_each_band_by_its_gain() -> None:
    # a bin a row (bin k's centre on row k): light, a band of shade, a brighter band
    bands = Bands((0.0, 1.0), -0.5, 1.0, np.repeat(np.float32([1.0, 0.4, 1.2]), 3))
    top = np.zeros((9, 2, 3), np.uint8)
    top[0:3], top[3:6], top[6:9] = (50, 100, 150), (20, 40, 60), (60, 120, 180)
    out = lift(top, bands)
    assert np.abs(out.astype(int) - (50, 100, 150)).max() <= 1


def test_segments_of_the_tables_colour_in_a_blinds_shade_are_each_found() -> None:
    # blue segments on blue felt: the blind's shade cuts the blue worm's domes; read on the
    # view as it comes, four of the 21 segments were missed or read 4+ mm off (render seed
    # 540004, the trust bench's blind playthroughs on blue felt lost two blue segments so)
    render = pytest.importorskip("tabletop.render")
    rng = np.random.default_rng(540004)
    truth = [Piece("segment", x, -70.0 + 20.0 * k, color=colour)
             for x, colour in ((-60.0, "red"), (-10.0, "yellow"), (40.0, "blue"))
             for k in range(7)]
    blind = render.Blind(period_mm=float(rng.uniform(35, 60)), duty=0.5,
                         angle_deg=float(rng.uniform(0, 180)), strength=0.6)
    r = render.render_scene(Scene(tuple(truth)), render.CameraPose.looking_at(
        (0, 0), height_mm=900, tilt_deg=14, image_size=(1280, 720), hfov_deg=58),
        render.RenderSettings(seed=540004, supersample=2, table="felt-blue", blind=blind))
    found = [p for p in Detector(r.calibration(), config=DetectorConfig.for_game(
        "worm-up")).detect(r.image).scene.pieces if p.kind == "segment"]
    assert len(found) == len(truth)
    xy = np.array([[p.x_mm, p.y_mm] for p in found])
    for q in truth:
        d = np.hypot(*(xy - [q.x_mm, q.y_mm]).T)
        j = int(np.argmin(d))
        assert d[j] < 3.0 and found[j].color == q.color, (q, float(d[j]))


def test_the_judges_training_rows_are_what_it_reads_under_a_blind(monkeypatch) -> None:
    # training/make_segments makes the segment judge's rows by the detector's own path: under a
    # blind, the candidates and features of the view with the bands divided out. Rows of the
    # view as it comes (session 25's forest) lowered the judge's votes at run time: a held-out
    # play's worm read 7 segments as 6
    render = pytest.importorskip("tabletop.render")
    make_segments = pytest.importorskip("training.make_segments")
    import vision.segments as segments

    rng = np.random.default_rng(576001)
    truth = [Piece("segment", x, -60.0 + 20.0 * k, color=colour)
             for x, colour in ((-50.0, "red"), (0.0, "green"), (50.0, "yellow"))
             for k in range(6)]
    blind = render.Blind(period_mm=float(rng.uniform(35, 60)), duty=0.5,
                         angle_deg=float(rng.uniform(0, 180)), strength=0.6)
    r = render.render_scene(Scene(tuple(truth)), render.CameraPose.looking_at(
        (0, 0), height_mm=900, tilt_deg=14, image_size=(1280, 720), hfov_deg=58),
        render.RenderSettings(seed=576001, supersample=2, table="linen", blind=blind))
    shown: list[np.ndarray] = []
    real = segments.judge_for

    class Seen:
        def __init__(self, config) -> None:
            self.judge = real(config)

        def scores(self, features: np.ndarray) -> np.ndarray:
            shown.append(features.copy())
            return self.judge.scores(features)

    monkeypatch.setattr(segments, "judge_for", Seen)
    config = DetectorConfig.for_game("worm-up", memory=None)
    Detector(r.calibration(), config=config).detect(r.image)
    prep, _, rows, _ = make_segments.candidate_stage(
        Detector(r.calibration(), config=config), r.image)
    assert prep.table is not None and prep.table.bands is not None  # the blind's bands found
    assert len(shown) == 1 and len(rows) >= len(truth)
    assert np.array_equal(rows, shown[0])

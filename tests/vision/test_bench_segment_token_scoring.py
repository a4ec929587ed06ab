"""The accuracy bench scores Worm Up! segments and marker tokens as it scores the other kinds."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tabletop.scene import Piece, Scene

_PATH = Path(__file__).resolve().parents[2] / "bench" / "bench_vision_accuracy.py"
_spec = importlib.util.spec_from_file_location("bench_vision_accuracy_kinds", _PATH)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # its dataclasses look their module up
_spec.loader.exec_module(bench)


def _truth(*pieces: Piece, occluded: tuple[int, ...] = ()) -> list[dict]:
    return [{**p.to_json(), "occluded": i in occluded} for i, p in enumerate(pieces)]


def test_a_segment_found_near_its_truth_counts_with_its_colour_and_error():
    truth = _truth(Piece("segment", 0.0, 0.0, color="red"),
                   Piece("segment", 40.0, 0.0, color="blue"))
    found = Scene((Piece("segment", 3.0, 4.0, color="red"),
                   Piece("segment", 40.0, 1.0, color="green")))
    f = bench.score_extra(found, truth).figures("x")
    assert f["x_segment_precision"] == 1.0
    assert f["x_segment_recall"] == 1.0
    assert f["x_segment_colour_accuracy"] == 0.5
    assert f["x_segment_centre_error_mean_mm"] == pytest.approx(3.0)


def test_a_detection_beyond_the_tolerance_is_false_and_the_truth_missed():
    truth = _truth(Piece("token", 0.0, 0.0, id=50))
    found = Scene((Piece("token", 30.0, 0.0, id=50),))
    f = bench.score_extra(found, truth).figures("x")
    assert f["x_token_precision"] == 0.0
    assert f["x_token_recall"] == 0.0


def test_a_token_read_with_another_id_counts_against_id_accuracy():
    truth = _truth(Piece("token", 0.0, 0.0, id=50), Piece("token", 100.0, 0.0, id=51))
    found = Scene((Piece("token", 1.0, 0.0, id=50), Piece("token", 100.0, 2.0, id=60)))
    f = bench.score_extra(found, truth).figures("x")
    assert f["x_token_id_accuracy"] == 0.5
    assert f["x_token_recall"] == 1.0


def test_a_hidden_segment_is_no_truth_and_its_detection_not_false():
    truth = _truth(Piece("segment", 0.0, 0.0, color="red"), occluded=(0,))
    found = Scene((Piece("segment", 1.0, 0.0, color="red"),))
    t = bench.score_extra(found, truth)
    assert t.truth["segment"] == 0
    assert t.spurious["segment"] == 0


def test_kinds_no_scene_shows_and_none_found_print_no_figure():
    f = bench.score_extra(Scene((Piece("coin", 0.0, 0.0, suit="suns"),)),
                          _truth(Piece("coin", 0.0, 0.0, suit="suns"))).figures("x")
    assert f == {}


def test_totals_add_up_over_scenes():
    a = bench.score_extra(Scene((Piece("segment", 0.0, 0.0, color="red"),)),
                          _truth(Piece("segment", 0.0, 0.0, color="red")))
    b = bench.score_extra(Scene(()), _truth(Piece("segment", 0.0, 0.0, color="red")))
    a.add(b)
    assert a.figures("x")["x_segment_recall"] == 0.5


def test_a_segment_a_touching_dome_hides_a_sliver_of_is_still_truth():
    assert not bench.hidden("segment", 0.985, False)
    assert bench.hidden("segment", 0.5, True)
    assert bench.hidden("coin", 0.985, False)

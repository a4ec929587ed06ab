"""The centre net's training views: the stored top view gives the net's input exactly as the
run time makes it, and the hard-condition sampler pins only real choices on a share of the
seeds, leaving the others as ``draw_case(seed)`` draws them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from calibration.model import Calibration
from tabletop.render.variety import CLUTTER_KINDS, LIGHT_KINDS, TABLE_KINDS
from vision.centres_input import centre_input, centre_top, coarse_view, input_of_top

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from centre_sampler import pinned_choices

CAL = Calibration((320, 240), np.array([[1.0, 0, 160], [0, 1.0, 120], [0, 0, 1]]))


def test_stored_top_view_gives_the_run_times_input() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    view = coarse_view(CAL)
    top, level = centre_top(view, frame)
    assert top.dtype == np.uint8 and top.shape[:2] == view.valid.shape
    again = input_of_top(top, view.valid, level)
    assert np.array_equal(again, centre_input(view, frame))
    assert np.array_equal(top, centre_top(view, frame)[0])  # the input left it as it was


def test_ordinary_seeds_are_not_pinned() -> None:
    assert all(pinned_choices(s, 0.0) == {} for s in range(400, 600))


def test_hard_seeds_pin_real_choices_on_their_share() -> None:
    picks = [pinned_choices(s, 0.6) for s in range(400, 1400)]
    share = sum(bool(p) for p in picks) / len(picks)
    assert 0.54 < share < 0.66
    for p in picks:
        assert set(p) <= {"table", "light", "clutter"}
        assert p.get("table", TABLE_KINDS[0]) in TABLE_KINDS
        assert p.get("light", LIGHT_KINDS[0]) in LIGHT_KINDS
        assert p.get("clutter", CLUTTER_KINDS[0]) in CLUTTER_KINDS
    assert pinned_choices(1234, 0.6) == pinned_choices(1234, 0.6)

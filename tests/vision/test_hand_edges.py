"""The edge test (:mod:`vision.hand_edges`): a blob that lies wholly beyond a straight step
running across the whole view (the floor beyond the table's edge) is no hand; an arm, whose
straight side's step ends at its fingers, is one; a plank's seam through an arm is no edge
the arm lies beyond. Built on made-up grids; the render pair is in
``tests/vision/test_hand_floor_render.py``."""

from __future__ import annotations

import numpy as np

from vision.hand_edges import EdgeTestConfig, beyond_edge
from vision.hand_maps import HandMaps

SH, SW = 90, 160


def _maps(small: np.ndarray) -> HandMaps:
    return HandMaps(np.clip(small, 0, 255).astype(np.uint8), np.zeros((SH, SW), np.float32),
                    np.ones((SH, SW), bool), np.full((SH, SW), 25.0, np.float32))


def _table(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([150.0, 110.0, 60.0]) + rng.normal(0.0, 4.0, (SH, SW, 3))  # blue cloth


def _floor_beyond(rows: float, slope: float) -> np.ndarray:
    """The cells beyond the table's edge: below the line y = rows + slope * x."""
    yy, xx = np.mgrid[0:SH, 0:SW]
    return yy > rows + slope * xx


def test_the_floor_in_a_corner_beyond_the_tables_edge_is_no_hand() -> None:
    small = _table(1)
    floor = _floor_beyond(40.0, 0.5)  # from the left border down to the bottom one
    small[floor] = np.array([40.0, 50.0, 60.0])
    assert beyond_edge(EdgeTestConfig(), _maps(small), floor)


def test_a_band_of_floor_along_the_edge_is_no_hand_and_the_floor_may_be_jagged() -> None:
    small = _table(2)
    floor = _floor_beyond(30.0, 0.3)
    small[floor] = np.array([40.0, 50.0, 60.0])
    yy, xx = np.mgrid[0:SH, 0:SW]
    band = floor & (yy < 30.0 + 0.3 * xx + 12 + 4 * np.sin(xx / 5.0))  # its near part only
    assert beyond_edge(EdgeTestConfig(), _maps(small), band)


def test_an_arm_from_the_border_is_not_beyond_an_edge() -> None:
    small = _table(3)
    arm = np.zeros((SH, SW), bool)
    arm[38:54, 0:110] = True  # a forearm 16 cells wide reaching 110 cells in
    arm[34:58, 100:125] = True  # and the hand
    small[arm] = np.array([110.0, 140.0, 190.0])
    assert not beyond_edge(EdgeTestConfig(), _maps(small), arm)


def test_an_arm_across_a_planks_seam_is_not_beyond_it() -> None:
    small = _table(4)
    small[45:] *= 0.8  # the lower plank darker: a straight step across the whole view
    arm = np.zeros((SH, SW), bool)
    arm[30:60, 0:100] = True  # the arm lies over the seam, half on each plank
    small[arm] = np.array([110.0, 140.0, 190.0])
    assert not beyond_edge(EdgeTestConfig(), _maps(small), arm)


def test_an_arm_partly_out_of_view_along_the_border_is_not_beyond_an_edge() -> None:
    small = _table(5)
    arm = np.zeros((SH, SW), bool)
    arm[80:, 0:120] = True  # a strip along the bottom border: its straight side ends at 120
    small[arm] = np.array([110.0, 140.0, 190.0])
    assert not beyond_edge(EdgeTestConfig(), _maps(small), arm)

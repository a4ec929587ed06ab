"""The centre net read again only where the view changed (vision/centres_reuse.py): after a
piece is put down, the heat is the whole view's heat of the new frame (to float rounding) at
a fraction of the net's cost; the same frame again costs no pass; a shadow over most of the
table, or an input of another size, reads all of the view, a table dimmed alike keeps nearly
the same heat; a crop's geometry as planned."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.render.variety import draw_case
from vision.centres import CentreFinder, CentresConfig
from vision.centres_reuse import BLOCK_PX, HeatReuse, ReuseConfig, crops


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, object]:
    case = draw_case(130011, hand=False, clutter="none", size=(640, 360), n_pieces=10,
                     light="soft")
    r = case.render()
    return np.ascontiguousarray(r.image), r.calibration()


def _put_down(frame: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    out = frame.copy()
    cv2.circle(out, at, 9, (205, 215, 225), -1)  # a pale coin
    cv2.circle(out, at, 4, (60, 40, 150), -1)  # its suit
    return out


def test_speed_centre_net_reuse_after_a_piece_is_put_down_is_the_whole_views_heat(
        table) -> None:
    frame, cal = table
    reused = CentreFinder(CentresConfig(), cal)
    reused.heat(frame)
    moved = _put_down(frame, (420, 120))
    got = reused.heat(moved)
    assert reused.reuse is not None and 0.0 < reused.reuse.read_share < 0.5
    want = CentreFinder(CentresConfig(reuse=None), cal).heat(moved)
    assert got.shape == want.shape
    assert float(np.abs(got - want).max()) < 1e-4
    # and again elsewhere: the heat kept from the first crop stands beside the second's
    twice = _put_down(moved, (150, 260))
    got = reused.heat(twice)
    want = CentreFinder(CentresConfig(reuse=None), cal).heat(twice)
    assert float(np.abs(got - want).max()) < 1e-4


def test_speed_centre_net_reuse_of_the_same_frame_reads_nothing(table) -> None:
    frame, cal = table
    finder = CentreFinder(CentresConfig(), cal)
    first = finder.heat(frame)
    assert finder.reuse is not None and finder.reuse.read_share == 1.0
    again = finder.heat(frame.copy())
    assert finder.reuse.read_share == 0.0 and np.array_equal(first, again)


def test_speed_centre_net_reuse_under_a_shadow_over_most_of_the_table_reads_all(
        table) -> None:
    frame, cal = table
    finder = CentreFinder(CentresConfig(), cal)
    finder.heat(frame)
    shaded = frame.copy()
    shaded[:, : 2 * frame.shape[1] // 3] = (shaded[:, : 2 * frame.shape[1] // 3] * 0.6
                                            ).astype(np.uint8)
    got = finder.heat(shaded)
    assert finder.reuse is not None and finder.reuse.read_share == 1.0
    assert np.array_equal(got, CentreFinder(CentresConfig(reuse=None), cal).heat(shaded))


def test_speed_centre_net_reuse_under_a_light_dimmed_alike_keeps_the_heat(table) -> None:
    # the input divides the light out (each channel over its surroundings and over the
    # frame's level): a table dimmed all alike is the same input, and the net is not run
    frame, cal = table
    finder = CentreFinder(CentresConfig(), cal)
    finder.heat(frame)
    dim = (frame * 0.85).astype(np.uint8)
    got = finder.heat(dim)
    assert finder.reuse is not None and finder.reuse.read_share < 0.5
    assert float(np.abs(got - CentreFinder(CentresConfig(reuse=None), cal).heat(dim)).max()
                 ) < 0.1


def test_speed_centre_net_reuse_of_another_input_size_reads_all() -> None:
    reuse = HeatReuse(ReuseConfig())
    calls = []

    def forward(x: np.ndarray) -> np.ndarray:
        calls.append(x.shape)
        return np.zeros((3, x.shape[1] // 2, x.shape[2] // 2), np.float32)

    reuse.heat(np.zeros((7, 64, 64), np.float32), forward)
    reuse.heat(np.zeros((7, 64, 80), np.float32), forward)
    assert calls == [(7, 64, 64), (7, 64, 80)] and reuse.read_share == 1.0


def test_speed_centre_net_crops_reach_past_the_change_and_stay_in_the_view() -> None:
    changed = np.zeros((20, 30), bool)
    changed[0, 0] = True
    changed[10, 20:22] = True
    plan = sorted(crops(changed))
    assert plan[0] == ((0, 6, 0, 6), (0, 12, 0, 12))  # clipped at the view's corner
    (r0, r1, c0, c1), (q0, q1, p0, p1) = plan[1]
    assert (r0, r1, c0, c1) == (5, 16, 15, 27)  # the changed blocks and the net's reach
    assert (q0, q1, p0, p1) == (0, 20, 9, 30)  # and its edge beyond, within the view
    assert BLOCK_PX % 2 == 0

"""A marker read is a token only where it looks like one: a square of a token's size on the
table, its white cells standing out from its black border and a white margin round it (a dark
check of a gingham cloth, wood grain, a marker read a cell off are none); readings of one
place are one token, named by the id most of them read."""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.markers import ARUCO_DICTIONARY
from vision.tokens import looks_printed, merged, token_shaped

CELL_PX = 10


def _marker(marker_id: int, black: int, white: int, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """A grey image of a marker (6 cells of CELL_PX) inside a margin of level ``margin`` two
    cells wide, and its corners (ArUco's order)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    m = cv2.aruco.generateImageMarker(d, marker_id, 6 * CELL_PX, borderBits=1)
    img = np.where(m < 128, black, white).astype(np.uint8)
    pad = 2 * CELL_PX
    img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=margin)
    lo, hi = pad - 0.5, pad + 6 * CELL_PX - 0.5
    return img, np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], float)


def test_a_printed_marker_with_its_white_margin_looks_printed() -> None:
    img, q = _marker(55, 20, 230, 235)
    assert looks_printed(img, q)


def test_a_marker_washed_out_by_glare_still_looks_printed() -> None:
    img, q = _marker(63, 180, 240, 242)  # the black border at 3/4 of the white
    assert looks_printed(img, q)


def test_a_marker_without_a_light_margin_is_no_token() -> None:
    img, q = _marker(55, 20, 230, 20)  # a dark check's edge: the ring is as dark as the border
    assert not looks_printed(img, q)


def test_a_marker_with_no_contrast_is_no_token() -> None:
    img, q = _marker(130, 150, 160, 200)  # mid-grey checks read as bits
    assert not looks_printed(img, q)


def test_a_reading_one_cell_off_is_no_token() -> None:
    img, q = _marker(55, 20, 230, 235)
    assert not looks_printed(img, q + CELL_PX)  # the ring then crosses the black border


def test_token_shaped_takes_a_rendered_or_printed_token_marker() -> None:
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    assert token_shaped(24.0 * square, 30.0)
    assert token_shaped(18.0 * square + 100.0, 30.0)


def test_token_shaped_refuses_slivers_and_wrong_sizes() -> None:
    sliver = np.array([[0, 0], [17.7, 0], [17.7, 7.2], [3.4, 7.2]], float)
    assert not token_shaped(sliver, 30.0)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    assert not token_shaped(8.0 * square, 30.0)
    assert not token_shaped(45.0 * square, 30.0)


def test_readings_of_one_place_are_named_by_the_most_read_id() -> None:
    q = np.array([[0, 0], [20, 0], [20, 20], [0, 20]], float)
    reads = [(109, q + 0.4), (65, q), (65, q + 0.2), (57, q + 300.0)]
    found = merged(reads, cell_px=3.0)
    assert sorted(found) == [57, 65]
    assert np.allclose(found[65], q)


def test_a_tie_keeps_the_first_views_reading() -> None:
    q = np.array([[0, 0], [20, 0], [20, 20], [0, 20]], float)
    assert sorted(merged([(65, q), (109, q + 0.5)], cell_px=3.0)) == [65]

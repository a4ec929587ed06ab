"""A square at the corner of a larger sheet (:mod:`vision.tile_context`): a page's corner is
part of the page, a lone tile, a tile in a row and a tile of a block found before are not,
and on a table as pale as the paper nothing is called a sheet."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tile_context import open_sides, part_of_sheet

SIDE = 50.0


def _shade(table: float = 1.0) -> np.ndarray:
    return np.full((300, 300), table, np.float32)


def _rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, level: float) -> None:
    img[round(y0):round(y1), round(x0):round(x1)] = level


def test_corner_of_a_page_is_part_of_a_sheet() -> None:
    img = _shade()
    _rect(img, 100, 100, 290, 290, 2.4)  # a page whose corner is at (100, 100)
    c = np.array([125.0, 125.0])  # a square of a tile's size in that corner
    assert part_of_sheet(img, c, 0.0, SIDE)
    assert open_sides(img, c, 0.0, SIDE) == [True, True, False, False]


def test_lone_tile_and_a_row_of_tiles_are_not() -> None:
    img = _shade()
    _rect(img, 100, 100, 150, 150, 2.4)
    assert not part_of_sheet(img, np.array([125.0, 125.0]), 0.0, SIDE)
    img = _shade()
    _rect(img, 50, 100, 201, 150, 2.4)  # three tiles in a row, none found yet
    assert not part_of_sheet(img, np.array([125.5, 125.0]), 0.0, SIDE)


def test_tile_at_the_corner_of_a_block_found_before_is_not() -> None:
    img = _shade()
    _rect(img, 100, 100, 201, 201, 2.4)  # a block of 2x2 tiles
    c = np.array([125.0, 125.0])
    assert part_of_sheet(img, c, 0.0, SIDE)
    found = np.zeros(img.shape, np.uint8)
    cv2.rectangle(found, (151, 100), (201, 201), 255, -1)  # its other tiles, found
    cv2.rectangle(found, (100, 151), (150, 201), 255, -1)
    assert not part_of_sheet(img, c, 0.0, SIDE, found)


def test_paper_on_a_table_as_pale_is_never_a_sheet() -> None:
    img = _shade()
    _rect(img, 100, 100, 290, 290, 1.05)  # white paper on a white table
    assert not part_of_sheet(img, np.array([125.0, 125.0]), 0.0, SIDE)


def test_tile_as_bright_as_a_lit_stripe_of_the_table_is_not() -> None:
    """Under a blind's bright stripe the table is well above its own median level and as
    bright as the tile: the tile's outline (its wall, its shadow) still marks each side."""
    img = _shade()
    _rect(img, 0, 60, 300, 240, 1.25)  # the stripe
    _rect(img, 98, 98, 152, 152, 0.9)  # the outline
    _rect(img, 100, 100, 150, 150, 1.25)
    assert not part_of_sheet(img, np.array([125.0, 125.0]), 0.0, SIDE)

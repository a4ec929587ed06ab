"""The kinds of piece are one table (tabletop/kinds.py) that every layer reads."""

from __future__ import annotations

import math

import pytest

from tabletop.errors import SceneFormatError
from tabletop.kinds import PIECE_KINDS
from tabletop.limits import gap_work_points
from tabletop.pieceset import PieceSet
from tabletop.render.pieces import piece_height_mm
from tabletop.scene import KINDS, Piece


def test_a_scene_holds_exactly_the_kinds_of_the_table():
    assert tuple(PIECE_KINDS) == KINDS
    for kind in KINDS:
        Piece(kind, 0.0, 0.0)
    with pytest.raises(SceneFormatError, match="piece kind must be one of"):
        Piece("meeple", 0.0, 0.0)


@pytest.mark.parametrize("kind", list(PIECE_KINDS))
def test_every_kind_is_measured_by_the_piece_set(kind):
    big = PieceSet().with_sizes({PIECE_KINDS[kind].size_field: 42.0})
    assert big.size_mm(kind) == 42.0
    assert piece_height_mm(Piece(kind, 0.0, 0.0), big) == big.height_mm(kind) > 0


def test_the_gap_work_bound_follows_a_kinds_outline():
    sizes = PieceSet().with_sizes({"coin_mm": 4 * 50.8 / math.pi})  # a disc round a tile's edge
    tile = gap_work_points([Piece("tile", 0.0, 0.0)], sizes)
    assert gap_work_points([Piece("coin", 0.0, 0.0)], sizes) == tile
    assert gap_work_points([Piece("coin", 0.0, 0.0)], PieceSet()) < tile

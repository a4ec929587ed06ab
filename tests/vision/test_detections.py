"""The frozen per-frame value."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections


def _two() -> Detections:
    return Detections.of([[1.0, 2.0], [3.0, 4.0]], ["coin", "tile"], confidence=[0.9, 0.4],
                         suit=["suns", None], angle_deg=[np.nan, 12.0], face=[None, "down"])


def test_arrays_are_frozen() -> None:
    d = _two()
    with pytest.raises(ValueError):
        d.centre_mm[0, 0] = 5.0
    with pytest.raises(AttributeError):
        d.kind = np.array(["post", "post"], dtype=object)  # type: ignore[misc]


def test_mask_indexing_and_merge_make_new_values() -> None:
    d = _two()
    coins = d[d.kind == "coin"]
    assert len(coins) == 1 and coins.suit[0] == "suns"
    both = Detections.merge([coins, d[d.kind == "tile"], Detections.empty()])
    assert both.kind.tolist() == ["coin", "tile"]


def test_mismatched_columns_are_refused() -> None:
    with pytest.raises(ValueError):
        Detections.of([[1.0, 2.0]], ["coin"], confidence=[0.5, 0.5])


def test_to_pieces_folds_tile_angles() -> None:
    d = Detections.of([[0.0, 0.0]], ["tile"], angle_deg=[89.999], face=["up"], suit=["arms"])
    (p,) = d.to_pieces()
    assert p.kind == "tile" and 0.0 <= p.angle_deg < 90.0 and p.suit == "arms"

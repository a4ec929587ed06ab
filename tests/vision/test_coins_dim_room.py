"""Coins in a dim, under-exposed and noisy room (a warm lamp over marble, render seed 60,030):
the centre net sees them, and where the camera's noise hides every rim fit, the rim in colour
is fitted once the noise round the coin is smoothed (a symmetric blur: the centre stays)."""

from __future__ import annotations

import numpy as np

from tabletop.render.variety import draw_case
from vision import Detector


def test_coins_in_a_dim_noisy_room_are_placed_by_their_smoothed_rim() -> None:
    case = draw_case(60030, hand=False)
    assert case.conditions["light"] == "dim-warm"
    r = case.render()
    coins = np.array([[p.x_mm, p.y_mm] for p, t in zip(r.scene.pieces, r.truth, strict=True)
                      if p.kind == "coin" and not t.occluded and t.visible_fraction >= 1])
    found = np.array([[p.x_mm, p.y_mm] for p in Detector(r.calibration()).detect(
        r.image).scene.pieces if p.kind == "coin"]).reshape(-1, 2)
    every = np.array([[p.x_mm, p.y_mm] for p in r.scene.pieces if p.kind == "coin"])
    d = np.hypot(*(coins[:, None] - found[None]).transpose(2, 0, 1))
    assert len(coins) == 14
    assert int((d.min(axis=1) <= 8.0).sum()) >= 9  # before the smoothed fit: 5
    # no coin where none is (one seen in part may be found)
    assert np.hypot(*(every[:, None] - found[None]).transpose(2, 0, 1)).min(axis=0).max() <= 8

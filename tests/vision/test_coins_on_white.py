"""Coins on a glossy white table are found: cream coins there are about as bright as the top
in grey, so the masks miss them and only the centre net's candidates, placed by their rim in
colour, find them (renders at fixed seeds of the coin fit's own range, 62,900 and up)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.render.variety import draw_case
from vision.detector import Detector, DetectorConfig


def _read(seed: int, light: str) -> tuple[int, int, int, list[float]]:
    """(coins wholly in view, found of them, false coins, centre errors mm) on one render."""
    case = draw_case(seed, table="glossy-white", light=light, hand=False, clutter="none",
                     size=(960, 540), n_pieces=14, kinds=("coin",), gap_worm=False)
    r = case.render()
    cfg = DetectorConfig(kinds=("tile", "coin", "post"), memory=None)
    found = [p for p in Detector(r.calibration(), config=cfg).detect(r.image).scene.pieces
             if p.kind == "coin"]
    used: set[int] = set()
    truth = hits = 0
    errors: list[float] = []
    for p, t in zip(r.scene.pieces, r.truth, strict=True):
        if p.kind != "coin":
            continue
        hidden = t.occluded or t.visible_fraction < 1.0
        truth += not hidden
        d = [np.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm) if i not in used else np.inf
             for i, q in enumerate(found)]
        if d and min(d) <= 6.0:
            used.add(int(np.argmin(d)))
            if not hidden:
                hits += 1
                errors.append(float(min(d)))
    return truth, hits, len(found) - len(used), errors


@pytest.mark.parametrize(("seed", "light"), [(62_902, "soft"), (62_902, "dim-warm")])
def test_coins_on_a_glossy_white_table_are_found(seed: int, light: str) -> None:
    truth, hits, false, errors = _read(seed, light)
    assert truth >= 8
    assert hits >= 0.9 * truth
    assert false == 0
    assert float(np.mean(errors)) <= 0.8

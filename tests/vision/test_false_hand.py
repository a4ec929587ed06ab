"""A frame that one cue calls a hand (a mug, a phone, glare, a blind's stripes) still has its
table read by the centre net, under the hand's cells too (a hand hides what lies under it: what
the net finds there whole is a piece). (A hand frame
is never judged; but the table's pieces must not vanish from a frame alone because of a false
hand: on hand-free renders about a quarter of frames were flagged, and every piece the net would
have found there was lost.)"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.render.variety import draw_case
from vision import detector as detector_mod
from vision.detector import Detector, DetectorConfig


def _hand_over_top(share: float):
    """A stand-in for the one-frame hand cue: a "hand" over the top ``share`` of the cells."""

    def fake(cfg, grid, frame, explained, valid, cells=None):
        sw, sh = grid.size_wh
        mask = np.zeros((sh, sw), np.uint8)
        mask[: max(1, round(share * sh)), :] = 1
        return True, mask

    return fake


def _read_under_a_false_hand(monkeypatch, seed: int, table: str, light: str, share: float):
    """A render of ``seed`` read plainly (it must be hand-free) and read again with a false
    "hand" over the top ``share`` of the picture: the plain reading's pieces, whether each lies
    under the "hand", and the flagged reading's pieces."""
    case = draw_case(seed, hand=False, size=(960, 540), n_pieces=14, kinds=("coin", "tile"),
                     gap_worm=False, clutter="none", table=table, light=light)
    r = case.render()
    cfg = DetectorConfig(kinds=("tile", "coin"), memory=None)
    plain = Detector(r.calibration(), config=cfg).detect(r.image).scene
    assert not plain.hand
    det = Detector(r.calibration(), config=cfg)
    monkeypatch.setattr(detector_mod, "detect_hands", _hand_over_top(share))
    flagged = det.detect(r.image)
    assert flagged.scene.hand
    px = r.calibration().to_image(np.array([[p.x_mm, p.y_mm] for p in plain.pieces]))
    _, under_cells = _hand_over_top(share)(None, det.hand_grid, None, None, None)
    under = det.hand_grid.covers(under_cells, px.reshape(-1, 2))
    return plain.pieces, under, flagged.scene.pieces


@pytest.mark.parametrize("seed", [61009])
def test_a_false_hand_does_not_hide_the_pieces_outside_it(monkeypatch, seed: int) -> None:
    pieces, under, got = _read_under_a_false_hand(monkeypatch, seed, "glossy-white", "soft", 0.3)
    outside = [p for p, u in zip(pieces, under, strict=True) if not u]
    assert len(outside) >= 3
    for p in outside:
        assert any(q.kind == p.kind and np.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm) < 1.0
                   for q in got), f"the {p.kind} at ({p.x_mm:.0f}, {p.y_mm:.0f}) was lost"


def test_pieces_seen_whole_under_a_false_hand_are_kept(monkeypatch) -> None:
    """``HandConfig.keep_pieces``: a hand hides what lies under it, so the pieces the centre net
    finds whole under a frame's "hand" stay (on black cloth under a hard lamp the net finds
    nearly every piece: a false hand there took them all)."""
    pieces, under, got = _read_under_a_false_hand(monkeypatch, 460901, "cloth-black", "hard", 0.4)
    beneath = [p for p, u in zip(pieces, under, strict=True) if u]
    assert len(beneath) >= 5
    for p in beneath:
        assert any(q.kind == p.kind and np.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm) < 1.0
                   for q in got), f"the {p.kind} at ({p.x_mm:.0f}, {p.y_mm:.0f}) was lost"

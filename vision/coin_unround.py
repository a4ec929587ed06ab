"""A coin whose far edge is surely no circle stands only where the coin judge is sure of it.

Two readings of a coin candidate err in different places. The far edge's circle
(:func:`vision.coin_shape.not_round`, judged only on a plain table round a face that stands
out) tells a die's square top from a coin's disc, but alone it drops true coins too
(``CoinConfig.round_only``, off: a coin on slate under window light, a worm's coin through a
gap). The coin judge (:mod:`vision.coin_judge`) keeps a white die on black cloth or felt, or on
dark wood under a hard lamp, at 0.51-0.66 of its votes (its own threshold 0.5): on those
tables the die's top and lit walls are the brightest thing there and pass for a coin's face.
Together they ask more than either: a coin the far edge calls surely no circle stands only
where the judge is sure of it, as sure as of the centre net's faint coins
(``CentreProposalConfig.faint_votes``, 0.8). A coin the judge is that sure of, or whose edge
cannot be judged, stands as before.
"""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration
from vision.coin_judge import coin_judge_for
from vision.coin_shape import not_round
from vision.detections import Detections
from vision.namer import Namer
from vision.topview import TopView


def unround_unsure(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                   view: TopView, level: np.ndarray, dets: Detections, radius_mm: float,
                   least: float | None) -> Detections:
    """``dets`` without the coins whose far edge in ``level`` (the grey view over the table's
    level, 1) is surely no circle of ``radius_mm`` and to which the coin judge gives less
    than ``least`` of its votes (None: every coin stands)."""
    idx = np.flatnonzero(dets.kind == "coin")
    if least is None or not len(idx):
        return dets
    px = view.to_px(dets.seen_mm[idx])
    unround = not_round(level, px, view.outward_px(px), radius_mm * view.px_per_mm)
    if not unround.any():
        return dets
    judge = namer.cfg.coin_judge
    if judge is None:
        return dets
    odd = idx[unround]
    p = namer.probabilities(frame_bgr, calibration, dets.centre_mm[odd])
    votes = np.asarray(coin_judge_for(judge).scores(frame_bgr, calibration,
                                                    dets.seen_mm[odd], p))
    keep = np.ones(len(dets), bool)
    keep[odd[votes < least]] = False
    return dets[keep]

"""The learned judge of candidate segments: random forests of OpenCV's ``cv2.ml`` on
:mod:`vision.segment_features`, trained on the renderer's randomised tables
(``training/train_segments.py``; their figures in ``vision/models/segments*.json``).

It answers one question: is this disc of colour a segment (a lit dome) or something else of a
segment's colour (a check of a cloth, a streak of wood, a printed patch, a lamp's reflection in
varnish, a pencil)? Where a segment is and which colour it has still come from the pixels
(:mod:`vision.segments`).

The judge is a committee: each forest was trained on its own renders and reads the first
columns of the features it was trained on (the rings' features, :data:`N_RING`, or all of them
with the dome's, :data:`N_FEATURES`); their trees' votes are pooled, as one forest's would be.
A forest trained on more varied tables (varnished woods with a lamp's reflection, red segments
on red cloth, glare) joins one trained before without undoing what that one learnt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError
from vision.forest import load_forest
from vision.segment_features import N_FEATURES, N_RING

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class SegmentJudgeConfig:
    """Attributes:
    model: The first forest's file (``cv2.ml.RTrees`` saved as YAML; the rings' features).
    more: The committee's other forests (each the rings' features or all of them).
    min_score: Least share of all the trees' votes for "segment" that makes a candidate one.
    """

    model: Path = MODELS / "segments.yml.gz"
    more: tuple[Path, ...] = (MODELS / "segments-dome.yml.gz",)
    min_score: float = 0.5


def _load(model: Path) -> cv2.ml.RTrees:
    """A forest of the rings' features or of all of them."""
    try:
        return load_forest(model, N_FEATURES, "the segment judge")
    except VisionError:
        return load_forest(model, N_RING, "the segment judge")


def pooled_votes(forests: list[cv2.ml.RTrees], features: np.ndarray) -> np.ndarray:
    """(N,) share of all the forests' trees voting for class 1, each forest given the first
    columns of ``features`` (N, :data:`N_FEATURES`) it takes."""
    f = np.asarray(features, np.float32).reshape(-1, N_FEATURES)
    if not len(f):
        return np.zeros(0)
    yes, total = np.zeros(len(f)), np.zeros(len(f))
    for forest in forests:
        votes = forest.getVotes(np.ascontiguousarray(f[:, :forest.getVarCount()]), 0)
        labels, counts = votes[0], votes[1:].astype(float)
        pos = np.nonzero(labels == 1)[0]
        total += counts.sum(axis=1)
        if len(pos):
            yes += counts[:, pos[0]]
    return yes / np.maximum(total, 1.0)


class SegmentJudge:
    """Loads the forests once; :meth:`scores` gives each candidate's share of votes."""

    def __init__(self, config: SegmentJudgeConfig) -> None:
        self.config = config
        self.forests = [_load(m) for m in (config.model, *config.more)]

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "segment" for each row of ``features``."""
        return pooled_votes(self.forests, features)


_CACHE: dict[tuple[Path, ...], SegmentJudge] = {}


def judge_for(config: SegmentJudgeConfig) -> SegmentJudge:
    """The judge of a committee of model files, loaded once per process."""
    key = (config.model, *config.more)
    j = _CACHE.get(key)
    if j is None or j.config != config:
        j = _CACHE[key] = SegmentJudge(config)
    return j

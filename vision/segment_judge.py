"""The learned judge of candidate segments: a random forest of OpenCV's ``cv2.ml`` on
:mod:`vision.segment_features`, trained on the renderer's randomised tables
(``training/train_segments.py``; its figures in ``vision/models/segments.json``).

It answers one question: is this disc of colour a segment (a lit dome) or something else of a
segment's colour (a check of a cloth, a streak of wood, a printed patch)? Where a segment is and
which colour it has still come from the pixels (:mod:`vision.segments`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError
from vision.segment_features import N_FEATURES

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class SegmentJudgeConfig:
    """Attributes:
    model: The forest's file (``cv2.ml.RTrees`` saved as YAML).
    min_score: Least share of the trees' votes for "segment" that makes a candidate one.
    """

    model: Path = MODELS / "segments.yml.gz"
    min_score: float = 0.5


class SegmentJudge:
    """Loads the forest once; :meth:`scores` gives each candidate's share of votes."""

    def __init__(self, config: SegmentJudgeConfig) -> None:
        self.config = config
        if not config.model.is_file():
            raise VisionError(f"{config.model}: the segment judge's model is not there")
        self.forest = cv2.ml.RTrees_load(str(config.model))
        if self.forest.getVarCount() != N_FEATURES:
            raise VisionError(f"{config.model}: a model of {self.forest.getVarCount()} "
                              f"features, not {N_FEATURES}")

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "segment" for each row of ``features``."""
        f = np.asarray(features, np.float32).reshape(-1, N_FEATURES)
        if not len(f):
            return np.zeros(0)
        votes = self.forest.getVotes(f, 0)  # first row: the class labels, then counts
        labels = votes[0]
        counts = votes[1:].astype(float)
        pos = np.nonzero(labels == 1)[0]
        total = np.maximum(counts.sum(axis=1), 1.0)
        return counts[:, pos[0]] / total if len(pos) else np.zeros(len(f))


_CACHE: dict[Path, SegmentJudge] = {}


def judge_for(config: SegmentJudgeConfig) -> SegmentJudge:
    """The judge of a model file, loaded once per process."""
    j = _CACHE.get(config.model)
    if j is None or j.config != config:
        j = _CACHE[config.model] = SegmentJudge(config)
    return j

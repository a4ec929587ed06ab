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

import numpy as np

from vision.forest import load_forest, yes_share
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
        self.forest = load_forest(config.model, N_FEATURES, "the segment judge")

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "segment" for each row of ``features``."""
        return yes_share(self.forest, features, N_FEATURES)


_CACHE: dict[Path, SegmentJudge] = {}


def judge_for(config: SegmentJudgeConfig) -> SegmentJudge:
    """The judge of a model file, loaded once per process."""
    j = _CACHE.get(config.model)
    if j is None or j.config != config:
        j = _CACHE[config.model] = SegmentJudge(config)
    return j

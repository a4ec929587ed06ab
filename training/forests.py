"""How every learned judge of ``vision`` is trained: a random forest of OpenCV's ``cv2.ml``
on rows of features with 0/1 labels (read back by :mod:`vision.forest`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.forest import yes_share


def forest(x: np.ndarray, y: np.ndarray, trees: int, depth: int, seed: int) -> cv2.ml.RTrees:
    """A random forest trained on rows ``x`` with labels ``y`` (0/1)."""
    cv2.setRNGSeed(seed)
    rt = cv2.ml.RTrees_create()
    rt.setMaxDepth(depth)
    rt.setMinSampleCount(3)
    rt.setActiveVarCount(0)
    rt.setCalculateVarImportance(False)
    rt.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER, trees, 0))
    rt.setPriors(np.array([1.0, 1.0], np.float32))
    rt.train(x.astype(np.float32), cv2.ml.ROW_SAMPLE, y.astype(np.int32))
    return rt


def scores(rt: cv2.ml.RTrees, x: np.ndarray) -> np.ndarray:
    """Share of votes for class 1 of each row of ``x``."""
    return yes_share(rt, x, x.shape[1] if x.ndim == 2 else rt.getVarCount())

"""A random forest of OpenCV's ``cv2.ml`` saved by a training script: loaded once, checked
against the features the code makes, and asked for the share of its trees voting "yes" (class
1). The learned judges of segments, posts, hands and hand cells are each one of these."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError


def load_forest(model: Path | str, n_features: int, what: str) -> cv2.ml.RTrees:
    """The forest in ``model`` (``cv2.ml.RTrees`` saved as YAML), which must take
    ``n_features`` features; ``what`` names it in the one-line errors."""
    if not Path(model).is_file():
        raise VisionError(f"{model}: {what}'s model is not there")
    try:
        forest = cv2.ml.RTrees_load(str(model))
    except cv2.error as e:
        raise VisionError(f"{model}: cannot load {what} ({e})") from None
    if forest.getVarCount() != n_features:
        raise VisionError(f"{model}: a model of {forest.getVarCount()} features, "
                          f"not {n_features}")
    return forest


def yes_share(forest: cv2.ml.RTrees, features: np.ndarray, n_features: int) -> np.ndarray:
    """(N,) share (0-1) of the trees voting for class 1 for each row of ``features``."""
    f = np.asarray(features, np.float32).reshape(-1, n_features)
    if not len(f):
        return np.zeros(0)
    votes = forest.getVotes(f, 0)  # first row: the class labels, then counts
    labels, counts = votes[0], votes[1:].astype(float)
    pos = np.nonzero(labels == 1)[0]
    total = np.maximum(counts.sum(axis=1), 1.0)
    return counts[:, pos[0]] / total if len(pos) else np.zeros(len(f))

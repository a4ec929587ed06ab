"""Which cells of a blob judged a hand are the hand: a second forest of ``cv2.ml`` reads each
cell of the blob (its colour against the table's and against the blob's most foreign cells,
its grain, its score, how deep inside the blob it lies) and keeps the skin, not the shadow the
hand casts beside it, nor a dark cloth's noise or a piece's rim that the blob took in
(``training/train_hands.py``; figures in ``vision/models/hands.json``).

Pieces beside a hand then stay out of its cells. It runs only on frames a hand is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.forest import load_forest, yes_share
from vision.hand_features import Foreign

MODELS = Path(__file__).resolve().parent / "models"

CELL_FEATURES: tuple[str, ...] = (
    "lr_b", "lr_g", "lr_r", "core_b", "core_g", "core_r", "near_b", "near_g", "near_r",
    "grain_ratio", "raw", "score", "bright_z", "chroma_log", "depth_cells", "blob_share",
    "table_level",
)
"""The names of a cell's features, in order."""

N_CELL_FEATURES = len(CELL_FEATURES)


def cell_features(fg: Foreign, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:data:`CELL_FEATURES` of each cell of a blob (bool (rows, cols)): ``(rows, features)``
    with ``rows`` the blob's cells' flat indices and ``features`` float32 (N, N_CELL_FEATURES)."""
    idx = np.flatnonzero(blob.ravel())
    lr = fg.lr.reshape(-1, 3)[idx]
    raw = fg.raw.ravel()[idx]
    strong = raw >= np.median(raw)
    core = np.median(lr[strong], axis=0) if strong.any() else np.median(lr, axis=0)
    u8 = blob.astype(np.uint8)
    near = cv2.blur(fg.lr * blob[..., None], (3, 3)) / np.maximum(
        cv2.blur(blob.astype(np.float32), (3, 3)), 1e-3)[..., None]
    depth = cv2.distanceTransform(np.pad(u8, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    share = cv2.blur(blob.astype(np.float32), (5, 5))
    chroma = lr - lr.mean(axis=1, keepdims=True)
    level = np.log(fg.table.reshape(-1, 3)[idx].mean(axis=1))
    f = np.column_stack([
        lr, lr - core, near.reshape(-1, 3)[idx], fg.grain_ratio.ravel()[idx], raw,
        fg.score.ravel()[idx], lr.mean(axis=1) / max(float(fg.spread.mean()), 0.01),
        np.hypot(chroma[:, 2] - chroma[:, 1], chroma[:, 1] - chroma[:, 0]),
        depth.ravel()[idx], share.ravel()[idx], level,
    ]).astype(np.float32)
    return idx, f


@dataclass(frozen=True)
class HandCellsConfig:
    """Attributes:
    model: The forest's file (``cv2.ml.RTrees`` saved as YAML).
    min_score: Least share of the trees' votes for "hand" that keeps a cell.
    """

    model: Path = MODELS / "hand_cells.yml.gz"
    min_score: float = 0.5


class HandCells:
    """Loads the forest once; :meth:`hand_of` gives a blob's hand cells."""

    def __init__(self, config: HandCellsConfig) -> None:
        self.config = config
        self.forest = load_forest(config.model, N_CELL_FEATURES, "the hand-cell reader")

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "hand" for each row of ``features``."""
        return yes_share(self.forest, features, N_CELL_FEATURES)

    def hand_of(self, fg: Foreign, blob: np.ndarray) -> np.ndarray:
        """The cells of ``blob`` (bool (rows, cols)) that are the hand, closed by a cell (an
        arm's cells come in lace), bool (rows, cols)."""
        idx, f = cell_features(fg, blob)
        out = np.zeros(blob.size, np.uint8)
        out[idx[self.scores(f) >= self.config.min_score]] = 1
        out = cv2.morphologyEx(out.reshape(blob.shape), cv2.MORPH_CLOSE,
                               np.ones((3, 3), np.uint8))
        return (out > 0) & blob


_CACHE: dict[Path, HandCells] = {}


def cells_for(config: HandCellsConfig) -> HandCells:
    """The cell forest of a model file, loaded once per process."""
    j = _CACHE.get(config.model)
    if j is None or j.config != config:
        j = _CACHE[config.model] = HandCells(config)
    return j

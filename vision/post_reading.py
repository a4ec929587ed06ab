"""The post stage with its learned judge: each foot read in the dark mask's blobs is judged by
the forest (:mod:`vision.post_judge`) instead of the hand-set gates.

Without a judge (``PostConfig.judge`` None) or a namer, the hand-set stage alone
(:func:`vision.posts.detect_posts`) reads the posts, as before.
"""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration
from vision.detections import Detections
from vision.namer import Namer
from vision.namer_classes import KIND_OF
from vision.post_features import N_FEATURES, post_features
from vision.post_judge import judge_for
from vision.posts import PostConfig, detect_posts
from vision.prepare import Prepared

_KINDS = ("post", "coin", "tile", None)


def named_kinds(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                feet_mm: np.ndarray) -> np.ndarray:
    """(N, 4) the namer's probabilities of a post, a coin, a tile and nothing at table points."""
    p = namer.probabilities(frame_bgr, calibration, feet_mm)
    return np.column_stack([p[:, [i for i, k in enumerate(KIND_OF) if k == kind]].sum(axis=1)
                            for kind in _KINDS]).reshape(-1, len(_KINDS))


def judge_scores(cfg: PostConfig, namer: Namer, frame_bgr: np.ndarray,
                 calibration: Calibration, level: np.ndarray, prep: Prepared,
                 feet_px: np.ndarray, against: np.ndarray | None) -> np.ndarray:
    """(N,) the judge's share of votes for a post at each foot (view pixels) of ``level``."""
    assert cfg.judge is not None
    feet = np.asarray(feet_px, float).reshape(-1, 2)
    if not len(feet):
        return np.zeros(0)
    named = named_kinds(namer, frame_bgr, calibration, prep.view.to_mm(feet))
    f = post_features(cfg, level, prep.view, feet, against, named)
    return judge_for(cfg.judge, N_FEATURES).scores(f)


def read_posts(cfg: PostConfig, prep: Prepared, explained: np.ndarray,
               tiles: np.ndarray | None, namer: Namer | None, frame_bgr: np.ndarray,
               calibration: Calibration) -> Detections:
    """The posts of a prepared frame (their feet, in mm): each reading of the dark mask's
    blobs judged by the forest as it is read (``explained``: where earlier stages found
    pieces; ``tiles``: the tiles among them, as :func:`vision.posts.detect_posts` takes
    them)."""
    if cfg.judge is None or namer is None:
        return detect_posts(cfg, prep, explained, tiles)

    def judge(foot_px: np.ndarray, against: np.ndarray | None) -> float:
        return float(judge_scores(cfg, namer, frame_bgr, calibration, prep.level, prep,
                                  foot_px[None], against)[0])

    return detect_posts(cfg, prep, explained, tiles, judge=judge)

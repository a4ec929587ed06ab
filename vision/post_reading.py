"""The post stage with its learned judge: each foot read in the dark mask's blobs is judged by
the forest (:mod:`vision.post_judge`) instead of the hand-set gates.

Without a judge (``PostConfig.judge`` None), the hand-set stage alone
(:func:`vision.posts.detect_posts`) reads the posts, as before.
"""

from __future__ import annotations

import numpy as np

from vision.detections import Detections
from vision.post_features import N_FEATURES, UNLIKE_COLUMN, post_features
from vision.post_judge import judge_for
from vision.post_level import for_posts, post_channels
from vision.posts import PostConfig, detect_posts
from vision.prepare import Prepared


def judge_scores(cfg: PostConfig, level: np.ndarray, prep: Prepared, feet_px: np.ndarray,
                 against: np.ndarray | None, plain: np.ndarray | None = None) -> np.ndarray:
    """(N,) the judge's share of votes for a post at each foot (view pixels) of ``level``
    (``plain``: the plain level where ``level`` is a dark table's unlikeness)."""
    assert cfg.judge is not None
    feet = np.asarray(feet_px, float).reshape(-1, 2)
    if not len(feet):
        return np.zeros(0)
    f = post_features(cfg, level, prep.view, feet, against, plain)
    return judge_for(cfg.judge, N_FEATURES, UNLIKE_COLUMN).scores(f)


def read_posts(cfg: PostConfig, prep: Prepared, explained: np.ndarray,
               tiles: np.ndarray | None) -> Detections:
    """The posts of a prepared frame (their feet, in mm): each reading of the dark mask's
    blobs judged by the forest as it is read (``explained``: where earlier stages found
    pieces; ``tiles``: the tiles among them, as :func:`vision.posts.detect_posts` takes
    them). On a dark table the posts are read in the unlikeness
    (:func:`vision.post_level.for_posts`)."""
    seen = for_posts(prep, cfg.level)
    plain = prep.level if post_channels(prep, cfg.level) is None else None
    if cfg.judge is None:
        return detect_posts(cfg, seen, explained, tiles)

    def judge(foot_px: np.ndarray, against: np.ndarray | None) -> float:
        return float(judge_scores(cfg, seen.level, seen, foot_px[None], against, plain)[0])

    return detect_posts(cfg, seen, explained, tiles, judge=judge)

"""The root test: an arm reaches into the view from beyond it, so where a hand's blob meets the
frame's border it is as wide as a wrist at least; a blob that meets the border over less is
something lying inside the view tied to the border by a lace of foreign cells (a mug's long
shadow, a blind's stripe across a notebook, a seam of the table), not an arm coming in.

The width is the blob's own feature ``border_mm`` (:mod:`vision.hand_features`: its cells on
the grid's two outer rings, in mm along the border). A blob wholly inside the view (0) is not
tested: the judge reads it as such (its ``border`` features say so); only a blob that claims the
border by a lace is, whose features tell the judge it reaches in.

Session 25's tuning renders (520000-522039): the blobs of 30 hands (as ``draw_case`` draws
them, from any side) and of the sample playthrough's 11 met the border over 78 mm and more (or
lay inside); two of the false hands of 72 hand-free tables with a mug, a notebook, a page or a
grid sheet met it over 8 mm (a notebook under a blind, tied to the border by a stripe's edge)
and 21 mm (a dark mug's long window shadow running out of the view).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.hand_features import FEATURES


@dataclass(frozen=True)
class RootTestConfig:
    """Attributes:
    min_root_mm: A blob meeting the frame's border over less than this (mm along the border)
        does not reach in from beyond it: no hand (a wrist is 50-60 mm across; the hands of
        the tuning renders met the border over 78 mm and more).
    judge_sure: A blob the judge gives this share of its votes or more is not tested (None:
        every blob is): a hand the judge is sure of stands whatever ties it to the border.
    """

    min_root_mm: float = 40.0
    judge_sure: float | None = 0.9


def narrow_root(cfg: RootTestConfig, features: np.ndarray,
                votes: np.ndarray | None = None) -> np.ndarray:
    """Which blobs (rows of :func:`vision.hand_features.blob_features`) meet the frame's border
    over less than a wrist's width (and more than nothing), their judge's ``votes`` (N,) short
    of ``cfg.judge_sure``: no arm reaching in; bool (N,).

    >>> f = np.zeros((3, len(FEATURES)), np.float32)
    >>> f[:, FEATURES.index("border")] = [1.0, 1.0, 0.0]
    >>> f[:, FEATURES.index("border_mm")] = [12.0, 90.0, 0.0]
    >>> narrow_root(RootTestConfig(), f).tolist()
    [True, False, False]
    """
    f = np.asarray(features, np.float32).reshape(-1, len(FEATURES))
    width = f[:, FEATURES.index("border_mm")]
    narrow = (f[:, FEATURES.index("border")] > 0) & (width > 0) & (width < cfg.min_root_mm)
    if votes is not None and cfg.judge_sure is not None:
        narrow &= np.asarray(votes, np.float32).reshape(-1) < cfg.judge_sure
    return narrow

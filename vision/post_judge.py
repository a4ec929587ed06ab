"""The learned judge of post candidates: a random forest of OpenCV's ``cv2.ml`` on
:mod:`vision.post_features`, trained on the renderer's randomised tables
(``training/train_posts.py``; its figures in ``vision/models/posts.json``).

It answers one question for every place a stage read as a post's foot (the dark mask's blobs,
the centre net's post peaks): is a tall dark cylinder standing there, or is it a shadow, a
marble's vein, a mug, a fold of cloth? The foot itself still comes from the outline fit
(:func:`vision.posts.fit_post`); the forest decides where the post stage's hand-set gates
did (a wall dark all through, the table round the outline, a flat top, posts alike).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.forest import load_forest, yes_share

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class PostJudgeConfig:
    """Attributes:
    model: The forest's file (``cv2.ml.RTrees`` saved as YAML).
    dark_model: The forest that judges the readings of a table read in the unlikeness
        (:mod:`vision.post_level`: black felt or cloth, dark wood, walnut), trained on such
        tables' rows alone (``training/train_posts.py --unlike``): there a post is a lit wall
        or top and a shadow the darker thing, the reverse of what ``model`` learnt from the
        rest. A reading ``model`` is sure of (``min_score``) stands there too (a black gingham
        under a hard lamp is read in the unlikeness too, and its rows were not the dark
        forest's). None: ``model`` judges every reading.
    min_score: Least share of the trees' votes for "post" that makes a candidate one.
    veto: A reading the hand-set gates pass (:mod:`vision.posts`) stands unless the votes
        for "post" are fewer than this: the forest overrules the gates only where it is sure
        (the renderer it learnt from is not every camera's picture of a post). Chosen end to
        end (``training/post_thresholds.py``, session 8's forest) on seeds 45500-45515
        (post-heavy, hard lights and tables): 0.3 P 1.000 / R 0.694 against 0.2's 0.966 /
        0.694 (the 3 false posts were hard light's); on 45000-45025 (the bench's mix) both
        P 0.983 / R 0.905.
    window_mm: Round a candidate outside the prepared view, this many mm each way are warped
        and divided by their own table's colour before its features are read.
    min_wall_dark, min_outlined, min_outlined_first, alike_levels, max_top_spread: The post
        stage's gates (:class:`vision.posts.PostConfig`) while it gathers the training's
        candidates (:meth:`vision.posts.PostConfig.proposing`).
    """

    model: Path = MODELS / "posts.yml.gz"
    dark_model: Path | None = MODELS / "posts_dark.yml.gz"
    min_score: float = 0.5
    veto: float = 0.3
    window_mm: float = 40.0
    min_wall_dark: float = 0.6
    min_outlined: float = 0.3
    min_outlined_first: float = 0.2
    alike_levels: float = 60.0
    max_top_spread: float = 90.0


class PostJudge:
    """Loads the forests once; :meth:`scores` gives each candidate's share of votes.

    ``unlike_column``: the feature that says a row was read in a dark table's unlikeness
    (:data:`vision.post_features.UNLIKE_COLUMN`); such rows are judged by the dark forest
    (``config.dark_model``). None: the one forest judges every row."""

    def __init__(self, config: PostJudgeConfig, n_features: int,
                 unlike_column: int | None = None) -> None:
        self.config = config
        self.forest = load_forest(config.model, n_features, "the post judge")
        self.dark = (load_forest(config.dark_model, n_features, "the dark post judge")
                     if config.dark_model is not None and unlike_column is not None else None)
        self.n_features = n_features
        self.unlike_column = unlike_column

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "post" for each row of ``features``."""
        f = np.asarray(features, np.float32).reshape(-1, self.n_features)
        if self.dark is None or self.unlike_column is None:
            return yes_share(self.forest, f, self.n_features)
        dark = f[:, self.unlike_column] >= 0.5
        out = np.zeros(len(f))
        if np.any(~dark):
            out[~dark] = yes_share(self.forest, f[~dark], self.n_features)
        if np.any(dark):  # the dark forest's word, but what the first forest is sure of
            # stands (a black gingham under a hard lamp, which the dark forest's rows lack)
            first = yes_share(self.forest, f[dark], self.n_features)
            second = yes_share(self.dark, f[dark], self.n_features)
            out[dark] = np.where(first >= self.config.min_score, np.maximum(first, second),
                                 second)
        return out


_CACHE: dict[Path, PostJudge] = {}


def judge_for(config: PostJudgeConfig, n_features: int,
              unlike_column: int | None = None) -> PostJudge:
    """The judge of a model file, loaded once per process."""
    j = _CACHE.get(Path(config.model))
    if (j is None or j.config != config or j.n_features != n_features
            or j.unlike_column != unlike_column):
        j = _CACHE[Path(config.model)] = PostJudge(config, n_features, unlike_column)
    return j

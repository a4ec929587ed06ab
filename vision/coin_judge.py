"""The learned judge of coin candidates: a random forest of OpenCV's ``cv2.ml`` on
:mod:`vision.coin_features`, trained on the renderer's randomised tables
(``training/train_coin_judge.py``; its figures in ``vision/models/coins.json``).

It answers one question for every place a stage or the centre net placed a coin: is a coin
lying there, or a die's top, a glare on varnish, a cloth's check, a mug's rim, a pencil's end?
It sees what the namer says at the coin's foot and how the coin's own outline looks at a fixed
scale (a circle of its radius all round, a flat face, a rim whose gradient points along the
radius), so one decision replaces the namer's veto of coins (``NamerConfig.keep``) and needs no
gate of its own per kind of table. The centre still comes from the stages' rim fits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.model import Calibration
from vision.coin_faces import RADIUS_MM
from vision.coin_features import FEATURES, coin_features
from vision.errors import VisionError
from vision.forest import load_forest, yes_share

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class CoinJudgeConfig:
    """Attributes:
    model: The forest's file (``cv2.ml.RTrees`` saved as YAML).
    min_score: Least share of the trees' votes for "coin" that keeps a candidate; None: the
        threshold chosen with the forest among the candidates of the scenes held out of its
        training (``threshold`` in the JSON beside it, ``vision/models/coins.json``: 0.275).
        0.5 was chosen end to end, the whole detector on 30 renders no part of its training
        saw (seeds 41400-41429): coins P / R 0.980 / 0.980 with the namer's veto, 0.983 /
        0.980 at 0.275, 0.987 / 0.980 at 0.5.
    radius_mm: The coin's radius (the features are read at its scale).
    """

    model: Path = MODELS / "coins.yml.gz"
    min_score: float | None = 0.5
    radius_mm: float = RADIUS_MM


class CoinJudge:
    """Loads the forest once; :meth:`scores` gives each candidate's share of votes."""

    def __init__(self, config: CoinJudgeConfig) -> None:
        self.config = config
        self.forest = load_forest(config.model, len(FEATURES), "the coin judge")
        if config.min_score is not None:
            self.threshold = config.min_score
        else:
            meta = Path(config.model).with_name(Path(config.model).name.split(".")[0] + ".json")
            try:
                self.threshold = float(json.loads(meta.read_text())["threshold"])
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise VisionError(f"{meta}: no threshold for the coin judge ({e})") from None

    def scores(self, frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
               namer_p: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "coin" for candidates whose top faces are seen
        at ``seen_mm`` (N, 2), given the namer's probabilities at their feet."""
        f = coin_features(frame_bgr, calibration, seen_mm, namer_p, self.config.radius_mm)
        return yes_share(self.forest, f, len(FEATURES))


_CACHE: dict[Path, CoinJudge] = {}


def coin_judge_for(config: CoinJudgeConfig) -> CoinJudge:
    """The judge of a model file, loaded once per process."""
    j = _CACHE.get(Path(config.model))
    if j is None or j.config != config:
        j = _CACHE[Path(config.model)] = CoinJudge(config)
    return j

"""A Jungle token found is explained as far as its square reaches: the centre net's coin peak
on its edge (11 mm from its centre, render seed 27025: slate under window light) was fitted
and kept as a coin, the token's found place having been taken as a post's 6 mm."""

from __future__ import annotations

import numpy as np

from tabletop.render.variety import draw_game_case
from vision import Detector, DetectorConfig
from vision.detections import Detections
from vision.detector import GAME_KINDS
from vision.proposals import explained_mask


def test_no_coin_is_read_on_a_jungle_token() -> None:
    case = draw_game_case(27025, "jungle")
    r = case.render()
    pieces = r.scene.pieces
    coins = np.array([[p.x_mm, p.y_mm] for p in pieces if p.kind == "coin"])
    tokens = np.array([[p.x_mm, p.y_mm] for p in pieces if p.kind == "token"])
    assert len(tokens)
    det = Detector(r.calibration(), config=DetectorConfig(kinds=GAME_KINDS["jungle"]))
    found = det.detect(r.image).scene.pieces
    read = np.array([[p.x_mm, p.y_mm] for p in found if p.kind == "coin"]).reshape(-1, 2)
    assert np.hypot(*(coins[:, None] - read[None]).transpose(2, 0, 1)).min(axis=0).max() <= 8
    assert sum(p.kind == "token" for p in found) == len(tokens)


def test_a_token_explains_its_whole_square_and_a_post_its_own_width() -> None:

    class _View:
        px_per_mm = 1.0

        @staticmethod
        def to_px(mm: np.ndarray) -> np.ndarray:
            return np.asarray(mm, float) + 50.0

    class _Prep:
        view = _View()
        bright = np.zeros((100, 100), np.uint8)

    dets = Detections.of(np.array([[0.0, 0.0]]), ["token"], seen_mm=np.array([[0.0, 0.0]]))
    wide = explained_mask(_Prep(), dets, 9.5, 38.0, 1.5, {"token": 18.0})
    narrow = explained_mask(_Prep(), dets, 9.5, 38.0, 1.5)
    assert wide[50, 50 + 15] and not narrow[50, 50 + 15]
    assert narrow[50, 50 + 7] and not wide[50, 50 + 21]

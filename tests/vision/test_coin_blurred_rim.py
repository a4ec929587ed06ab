"""Small coins blurred over a few pixels on a pale, veined stone under a hard lamp (Worm Up!
render seed 27006, marble): the centre net sees them at the ends of their worms, but their rim
rises too little over half a pixel to stand above the marble's veins, and every fit refused
them; read over a pixel either side (:func:`vision.coin_colour.blurred_rim_centres`), it
places them."""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.render.variety import draw_game_case
from vision import Detector, DetectorConfig
from vision.coin_colour import blurred_rim_centres, colour_rim_centres
from vision.detector import GAME_KINDS


def test_blurred_coins_on_veined_stone_are_placed_by_their_rim_read_wider() -> None:
    case = draw_game_case(27006, "worm-up")
    assert case.conditions["table"] == "marble" and case.conditions["light"] == "hard"
    r = case.render()
    truth = [(p, t) for p, t in zip(r.scene.pieces, r.truth, strict=True) if p.kind == "coin"]
    coins = np.array([[p.x_mm, p.y_mm] for p, t in truth
                      if not t.occluded and t.visible_fraction >= 1])
    every = np.array([[p.x_mm, p.y_mm] for p, _ in truth])
    det = Detector(r.calibration(), config=DetectorConfig(kinds=GAME_KINDS["worm-up"]))
    found = np.array([[p.x_mm, p.y_mm] for p in det.detect(r.image).scene.pieces
                      if p.kind == "coin"]).reshape(-1, 2)
    d = np.hypot(*(coins[:, None] - found[None]).transpose(2, 0, 1)).min(axis=1)
    assert len(coins) == 6
    assert int((d <= 8.0).sum()) == 6  # before: 3 (the worms' blurred end coins refused)
    assert float(d.max()) <= 4.0  # the found ones (a blurred scene) 0.9-1.6 mm off, these 2.6-3.0
    # no coin where none is
    assert np.hypot(*(every[:, None] - found[None]).transpose(2, 0, 1)).min(axis=0).max() <= 8


def _blurred_coin(seed: int) -> np.ndarray:
    """A pale coin (radius 10 px) at (60, 60) on a grained pale table, blurred by 3 px."""
    rng = np.random.default_rng(seed)
    table = np.full((120, 120, 3), (190, 195, 200), np.float32)
    table += cv2.GaussianBlur(rng.normal(0, 8.0, (120, 120)).astype(np.float32), (0, 0),
                              1.0)[..., None]
    cv2.circle(table, (60, 60), 10, (205, 225, 235), -1, lineType=cv2.LINE_AA)
    img = cv2.GaussianBlur(table, (0, 0), 3.0) + rng.normal(0, 1.5, table.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_rim_blurred_over_pixels_is_placed_by_its_rise_read_wider() -> None:
    start, away = np.array([[61.5, 59.0]]), np.array([[1.0, 0.0]])
    wide, narrow = [], []
    for seed in range(12):
        img = _blurred_coin(seed)
        wide.append(np.hypot(*(blurred_rim_centres(img, start, away, 10.0)[0] - 60.0)))
        narrow.append(np.hypot(*(colour_rim_centres(img, start, away, 10.0)[0] - 60.0)))
    assert np.all(np.array(wide) <= 0.6)  # all placed (NaN fails), within about half a pixel
    placed = np.isfinite(narrow)
    # read over half a pixel: 3 of 12 not placed, the others 0.75 px off (median)
    assert np.median(np.array(narrow)[placed]) > np.median(wide)

"""A coin as bright as the table in grey (cream on a light blue-grey top) is placed by its rim
in colour, to a fraction of a pixel, where the grey fits see nothing; a shadow round it, its
coloured symbol or the table's noise do not move it, and a bare table gives no coin."""

from __future__ import annotations

import cv2
import numpy as np

from vision.coin_colour import colour_rim_centres
from vision.coins import far_edge_centres
from vision.rim_fit import rim_centres

S = 4  # drawn at 4x, then shrunk: edges with sub-pixel detail
TABLE = (196, 186, 176)  # BGR: a light blue-grey top
CREAM = (160, 180, 200)  # a cream coin, as bright in grey as the table
R = 9.5


def _at(c: np.ndarray) -> tuple[int, int]:
    return round(c[0] * S + S / 2 - 0.5), round(c[1] * S + S / 2 - 0.5)


def _scene(c: np.ndarray, *, shadow: bool = False, symbol: bool = False, coin: bool = True,
           seed: int = 0) -> np.ndarray:
    big = np.empty((120 * S, 120 * S, 3), np.float32)
    big[:] = TABLE
    if shadow:  # the contact shade round a coin: all channels darker alike
        ring = np.zeros(big.shape[:2], np.float32)
        cv2.circle(ring, _at(c), round(1.25 * R * S), 1.0, -1)
        ring = cv2.GaussianBlur(ring, (0, 0), 1.0 * S)
        big *= (1.0 - 0.35 * ring)[..., None]
    if coin:
        cv2.circle(big, _at(c), round(R * S), CREAM, -1)
    if symbol:  # a large dark-orange sun
        cv2.circle(big, _at(c), round(0.55 * R * S), (20, 110, 210), -1)
    img = cv2.resize(big, (120, 120), interpolation=cv2.INTER_AREA)
    noise = np.random.default_rng(seed).normal(0.0, 2.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _grey(img: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return g / float(np.median(g))


def test_cream_coin_on_a_table_as_bright_is_placed_by_its_colour() -> None:
    c = np.array([60.3, 58.6])
    img = _scene(c)
    start, away = c + np.array([1.5, -1.0]), np.array([[0.6, 0.8]])
    assert not np.isfinite(far_edge_centres(_grey(img), start[None], away, R, 1.0)).any()
    assert not np.isfinite(rim_centres(_grey(img), start[None], away, R)).any()
    fit = colour_rim_centres(img, start[None], away, R)[0]
    assert np.hypot(*(fit - c)) < 0.3


def test_shadow_round_a_coin_and_its_symbol_do_not_move_its_rim() -> None:
    c = np.array([59.6, 61.2])
    img = _scene(c, shadow=True, symbol=True)
    for away in ([0.0, 0.0], [-0.8, 0.6]):
        fit = colour_rim_centres(img, (c + np.array([-1.2, 1.4]))[None], np.array([away]), R)[0]
        assert np.hypot(*(fit - c)) < 0.3


def test_bare_table_gives_no_coin() -> None:
    c = np.array([60.0, 60.0])
    for seed in range(3):
        img = _scene(c, coin=False, shadow=seed == 2, seed=seed)
        fit = colour_rim_centres(img, c[None], np.zeros((1, 2)), R)
        assert not np.isfinite(fit).any()

"""The coin judge: a coin's outline is a circle of its radius, a die's top a square; the
committed forest takes the features the code makes, and keeps coins among dice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render import render
from tabletop.render.clutter import make_clutter
from tabletop.scene import Piece, Scene
from vision.coin_features import (
    FEATURES,
    PATCH_MM,
    PATCH_PX,
    patch_features,
    patches_features,
)
from vision.coin_judge import CoinJudge, CoinJudgeConfig
from vision.detector import Detector, DetectorConfig
from vision.errors import VisionError
from vision.namer import NamerConfig

PIECES = PieceSet()
R_MM = 9.525


def _patch(inside: np.ndarray) -> np.ndarray:
    """A BGR patch: a pale shape (``inside``, bool) on a mid-grey table, blurred as a
    camera's optics blur."""
    img = np.where(inside[..., None], np.array([200, 215, 225]), np.array([90, 100, 110]))
    return cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0).astype(np.uint8)


def _grid() -> tuple[np.ndarray, np.ndarray]:
    c = (PATCH_PX - 1) / 2.0
    yy, xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX].astype(float)
    return xx - c, yy - c


def test_a_coin_outline_is_its_circle_and_a_die_top_is_square() -> None:
    x, y = _grid()
    r = R_MM * PATCH_PX / PATCH_MM
    disc = patch_features(_patch(np.hypot(x, y) <= r), R_MM)
    half = 0.8 * r  # a die's top: 15 mm across against a coin's 19
    square = patch_features(_patch((np.abs(x) <= half) & (np.abs(y) <= half)), R_MM)
    f = {n: i for i, n in enumerate(FEATURES)}
    assert disc[f["rim_share"]] == 1.0
    assert square[f["edge_h4"]] > 5 * max(disc[f["edge_h4"]], 0.01)
    assert square[f["ring_spread_in"]] > 5 * max(disc[f["ring_spread_in"]], 0.01)
    assert abs(disc[f["edge_mean"]] - 1.0) < 0.05
    assert disc[f["grad_radial"]] > 0.9
    assert disc[f["grad_radial"]] > square[f["grad_radial"]]
    assert disc[f["contrast"]] > 0.8  # the face about twice the table's level
    assert np.all(np.isfinite(disc)) and np.all(np.isfinite(square))


def test_many_patches_read_at_once_read_as_each_alone() -> None:
    rng = np.random.default_rng(1)
    patches = rng.integers(0, 255, (100, PATCH_PX, PATCH_PX, 3)).astype(np.uint8)
    alone = np.stack([patch_features(p, R_MM) for p in patches])
    assert np.abs(patches_features(patches, R_MM) - alone).max() < 1e-4


def test_a_blank_table_gives_finite_features() -> None:
    flat = np.full((PATCH_PX, PATCH_PX, 3), 120, np.uint8)
    assert np.all(np.isfinite(patch_features(flat, R_MM)))


def test_the_committed_judge_takes_the_features_made() -> None:
    judge = CoinJudge(CoinJudgeConfig())
    assert judge.forest.getVarCount() == len(FEATURES)


def test_a_missing_judge_is_a_one_line_error(tmp_path) -> None:
    with pytest.raises(VisionError, match="none.yml.gz"):
        CoinJudge(CoinJudgeConfig(model=tmp_path / "none.yml.gz"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_dice_among_coins_are_no_coins_and_every_coin_stays(seed: int) -> None:
    """White dice (black pips) beside a worm of coins, seen from a tilted camera: the judge
    (on by default) drops the dice and keeps every coin."""
    rng = np.random.default_rng(seed)
    dice = make_clutter("dice", rng, (60.0, 40.0), 0.0)
    while dice.props[0].top_bgr[0] < 0.5:  # a white die, its pips black
        dice = make_clutter("dice", rng, (60.0, 40.0), 0.0)
    coins = tuple(Piece("coin", -90.0 + 19.2 * k, -40.0, suit=s)
                  for k, s in enumerate(("suns", "moons", "crowns", "arms", "moons")))
    pose = render.CameraPose.looking_at((0.0, 0.0), 850.0, 15.0, 20.0, (1280, 720), 60.0)
    r = render.render_scene(Scene(coins), pose, render.RenderSettings(), PIECES,
                            props=dice.props)
    cfg = DetectorConfig(namer=NamerConfig())
    found = Detector(r.calibration(), PIECES, config=cfg).detect(r.image).scene.pieces
    got = np.array([[p.x_mm, p.y_mm] for p in found if p.kind == "coin"]).reshape(-1, 2)
    true = np.array([[p.x_mm, p.y_mm] for p in coins])
    near = np.hypot(*(got[:, None] - true[None]).transpose(2, 0, 1)).min(axis=1) < 3.0
    assert near.all(), f"coins found where none is: {got[~near].round(0).tolist()}"
    assert near.sum() == len(coins)

"""The tile judge: a forest over what a fitted square looks like in its own frame."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.tile_features import N_FEATURES, RINGS, tile_features
from vision.tile_judge import NET, TileJudge, TileJudgeConfig, judge_for, keep_tiles

SIDE = 50.8  # px (1 px a mm)
CENTRE = np.array([100.0, 100.0])


def _grey(level: float = 1.0, seed: int = 0) -> np.ndarray:
    return (level + np.random.default_rng(seed).normal(0, 0.01, (200, 200))).astype(np.float32)


def _square(img: np.ndarray, angle: float, value: float, side: float = SIDE,
            thick: int = -1) -> np.ndarray:
    box = cv2.boxPoints(((float(CENTRE[0]), float(CENTRE[1])), (side, side), angle))
    out = img.copy()
    if thick < 0:
        cv2.fillConvexPoly(out, np.round(box * 16).astype(np.int32), value, cv2.LINE_AA, 4)
    else:
        cv2.polylines(out, [np.round(box * 16).astype(np.int32)], True, value, thick,
                      cv2.LINE_AA, 4)
    return out


def _colour(shade: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(shade * 150, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def _figures(shade: np.ndarray, angle: float) -> dict[str, np.ndarray]:
    f = tile_features(shade, _colour(shade), CENTRE, angle, SIDE, NET)
    sides = f[:20].reshape(4, 5)
    rings = f[20:20 + 2 * (len(RINGS) - 1)].reshape(-1, 2)
    return {"step": sides[:, 0], "run": sides[:, 3], "level": rings[:, 0], "all": f}


def test_the_committed_tile_judge_reads_the_features_this_code_makes() -> None:
    judge = judge_for(TileJudgeConfig())
    assert judge.scores(np.zeros((3, N_FEATURES))).shape == (3,)


def test_a_missing_tile_judge_model_is_an_error_naming_its_file(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="nothing.yml.gz"):
        TileJudge(TileJudgeConfig(model=tmp_path / "nothing.yml.gz"))


def test_a_squares_features_do_not_depend_on_which_of_its_sides_comes_first() -> None:
    shade = _square(_grey(), 20.0, 1.4)
    a, b = _figures(shade, 20.0)["all"], _figures(shade, 110.0)["all"]
    assert np.allclose(a, b, atol=0.03)


def test_a_tile_steps_down_to_the_table_on_all_four_sides_where_its_lines_stop() -> None:
    f = _figures(_square(_grey(), 10.0, 1.4), 10.0)
    assert np.all(f["step"] > 0.3)
    assert np.all(np.abs(f["run"]) < 0.2)  # nothing runs on past its corners
    assert f["level"][0] > 1.3 and f["level"][-1] < 1.1  # bright inside, the table round it


def test_a_square_printed_on_a_page_shows_no_step_and_the_page_all_round() -> None:
    page = _square(_grey(1.5), 10.0, 1.0, thick=2)  # a printed square's outline on a page
    f = _figures(page, 10.0)
    assert np.all(np.abs(f["step"]) < 0.1)
    assert abs(f["level"][0] - f["level"][-1]) < 0.1  # the same paper inside and out


def test_without_a_judge_every_square_stands() -> None:
    shade = _grey()
    keep = keep_tiles(None, shade, _colour(shade), np.array([CENTRE, CENTRE + 60]),
                      np.array([0.0, 0.0]), SIDE, np.array([NET, NET]))
    assert keep.tolist() == [True, True]


def _tiles_read(seed: int, clutter: str, judged: bool) -> tuple[np.ndarray, np.ndarray]:
    """(tiles found by the stages alone, no namer nor centre net; true tiles) on a table of
    the judge's own seeds (43000-43999) laid as its training laid them."""
    variety = pytest.importorskip("tabletop.render.variety")
    from dataclasses import replace

    from training.make_tiles import TILE_WEIGHTS
    from vision import Detector, DetectorConfig

    r = variety.draw_case(seed, hand=False, clutter=clutter, weights=TILE_WEIGHTS).render()
    base = DetectorConfig(kinds=("tile", "coin"), namer=None)
    cfg = base if judged else replace(base, tiles=replace(base.tiles, judge=None))
    found = np.array([[p.x_mm, p.y_mm] for p in Detector(r.calibration(), config=cfg).detect(
        r.image).scene.pieces if p.kind == "tile"]).reshape(-1, 2)
    truth = np.array([p.centre_mm for p in r.scene.pieces if p.kind == "tile"]).reshape(-1, 2)
    return found, truth


def _near(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if not len(b):
        return np.zeros(len(a), bool)
    return np.min(np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1]),
                  axis=1) < 20.0


def test_a_printed_grid_read_as_a_block_of_tiles_is_judged_off_and_the_tiles_stay() -> None:
    # a black cloth in a dim warm room with a printed grid (a table the judge learnt from:
    # this checks that its verdicts reach the scene): the tile stage alone reads the grid as
    # a block of tiles; the judge drops each of its squares and keeps every tile
    found, truth = _tiles_read(43011, "grid", judged=False)
    assert np.sum(~_near(found, truth)) >= 4
    judged, _ = _tiles_read(43011, "grid", judged=True)
    assert np.sum(~_near(judged, truth)) == 0
    assert np.sum(_near(judged, truth)) == np.sum(_near(found, truth))


def test_the_squares_of_one_block_stand_or_fall_together() -> None:
    # a tile and a bare stretch of table in one view: judged alone the tile stands and the
    # bare square falls; read as one block, both stand (their median votes)
    shade = np.c_[_square(_grey(), 0.0, 1.4), _grey(seed=1)]
    centres = np.array([CENTRE, CENTRE + np.array([200.0, 0.0])])
    top = _colour(shade)
    x = np.array([tile_features(shade, top, c, 0.0, SIDE, NET) for c in centres])
    tile, bare = judge_for(TileJudgeConfig()).scores(x)
    assert tile > bare
    config = TileJudgeConfig(veto=float(bare + (tile - bare) / 4))
    args = (config, shade, top, centres, np.zeros(2), SIDE, np.array([NET, NET]))
    assert keep_tiles(*args).tolist() == [True, False]
    assert keep_tiles(*args, groups=np.array([3, 3])).tolist() == [True, True]

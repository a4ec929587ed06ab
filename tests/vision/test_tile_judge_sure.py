"""A tile the centre net's fit placed stands where the namer sees a tile at its foot and the
tile judge's votes do not pull the two's mean under ``together`` (a page's corner the namer
gives 0.56), where that mean is high though the namer doubts it (a face-down tile on a dim
glossy white table: 0.42 and votes 0.70), or where the judge is sure of it (a face-down tile
on a glossy white table, which the namer gives 0.02-0.3): the namer names it then, but no
longer drops it."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render import render
from tabletop.scene import Piece, Scene
from vision.detections import Detections
from vision.namer import Namer, NamerConfig, name_detections
from vision.tile_judge import TileJudgeConfig, seen_as_tiles

NAN = float("nan")


@pytest.mark.parametrize(("namer", "vote", "config", "stands"), [
    (0.9, 0.3, TileJudgeConfig(), True),  # the namer sees it, the judge does not object
    (0.56, 0.53, TileJudgeConfig(), False),  # the namer barely sees it, the judge doubts it
    (0.56, 0.53, TileJudgeConfig(together=None), True),  # ... the namer alone decides
    (0.42, 0.70, TileJudgeConfig(), True),  # the namer doubts it, the judge nearly sure
    (0.42, 0.70, TileJudgeConfig(together=None), False),  # ... the namer alone decides
    (0.3, 0.85, TileJudgeConfig(), True),  # the judge is sure of it
    (0.3, 0.75, TileJudgeConfig(), False),  # neither
    (0.9, NAN, TileJudgeConfig(), True),  # not judged: the namer alone
    (0.3, NAN, TileJudgeConfig(), False),  # not judged
    (0.3, 0.99, TileJudgeConfig(sure=None, together=None), False),  # the namer alone
    (0.3, 0.99, None, False),  # no judge
])
def test_a_fitted_square_stands_where_namer_and_judge_agree_or_the_judge_is_sure(
        namer: float, vote: float, config: TileJudgeConfig | None, stands: bool) -> None:
    got = seen_as_tiles(config, np.array([namer]), np.array([vote]), 0.5)
    assert got.tolist() == [stands]


def test_the_sure_vote_lies_above_the_veto() -> None:
    cfg = TileJudgeConfig()
    assert cfg.sure is not None and cfg.veto < cfg.sure < 1.0


def test_a_square_the_namer_is_certain_of_needs_only_the_judges_veto() -> None:
    """With the namer certain (1.0), the mean rule asks no more of the judge than its veto:
    it only weighs where the namer doubts."""
    cfg = TileJudgeConfig()
    assert cfg.together is not None and (1.0 + cfg.veto) / 2 >= cfg.together


def test_kinds_the_caller_judged_are_named_but_never_dropped() -> None:
    """On an empty table the namer sees no tile where a candidate says one lies: dropped, but
    kept (and named) where the caller judged tiles itself."""
    scene = Scene((Piece("coin", 150.0, 100.0, suit="suns"),))
    pose = render.default_pose_for(scene, height_mm=850.0, tilt_deg=12.0)
    r = render.render_scene(scene, pose, render.RenderSettings(), PieceSet())
    cal = r.calibration()
    where = np.array([[-100.0, -60.0]])
    dets = Detections.of(where, ["tile"], confidence=[0.9], seen_mm=where, suit=[None],
                         angle_deg=[10.0], face=["down"])
    namer = Namer(NamerConfig())
    assert len(name_detections(namer, r.image, cal, dets)) == 0
    kept = name_detections(namer, r.image, cal, dets, judged=("tile",))
    assert len(kept) == 1 and kept.kind.tolist() == ["tile"]
    assert float(kept.confidence[0]) < 0.5  # the namer's doubt stays in its confidence

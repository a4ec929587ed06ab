"""Vision follows the game: each game's kinds of piece, at its piece sizes, whenever a game
starts (from the page or API, a resumed log, a recording)."""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration
from live.bus import Bus
from live.log import GameLog
from live.pipeline import Pipeline
from live.table import Table
from live.vision_glue import load_vision
from tabletop.events import Setup
from tests.web.fakes import ListSource

CAL = Calibration((320, 240), np.diag([2.0, 2.0, 1.0]))


def _detector(pipe: Pipeline):
    return pipe.vision.detect.__self__  # the Detector whose method detects


def test_worm_derby_vision_looks_for_tiles_and_coins_only():
    v = load_vision(CAL, "worm-derby")
    assert v.kinds == ("tile", "coin")


def test_a_setup_on_the_page_rebuilds_vision_for_that_games_pieces(tmp_path):
    table = Table(GameLog(tmp_path / "t.db"), Bus())
    pipe = Pipeline(ListSource([]), load_vision(CAL, "worm-derby"), table.submit)
    table.on_game(pipe.use_game)
    table.submit(Setup("jungle", ("first", "second")))
    assert pipe.vision.kinds == ("token",) and _detector(pipe).config.kinds == ("token",)
    table.submit(Setup("worm-derby", ("suns", "moons"), {"sizes": {"coin_mm": 25.0}}))
    assert pipe.vision.kinds == ("tile", "coin")
    assert _detector(pipe).config.coins.radius_mm == 12.5


def test_a_resumed_game_sets_vision_for_its_pieces(tmp_path):
    log = tmp_path / "t.db"
    first = Table(GameLog(log), Bus())
    first.submit(Setup("worm-up", ("red", "blue", "yellow")))
    first.log.close()
    table = Table(GameLog(log), Bus())
    pipe = Pipeline(ListSource([]), load_vision(CAL, "worm-derby"), table.submit)
    table.on_game(pipe.use_game)
    assert pipe.vision.kinds == ("segment", "post")

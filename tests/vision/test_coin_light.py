"""Under a blind the centre net's coin candidates whose windows the prepared view did not make
are divided by the table's colour with its bands, as the prepared view is, not by their own
median, which leaves the stripes in (:mod:`vision.coin_light`; a Jungle table on pale marble
under a blind of the tuning half, 710000-714999, where grey coins lie outside step 2's masks)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

SEED = 710207


@functools.lru_cache(maxsize=1)
def _render():  # type: ignore[no-untyped-def]
    from tabletop.render.variety import draw_game_case

    return draw_game_case(SEED, "jungle", table="marble", light="blind").render()


def test_a_coins_own_window_under_a_blind_is_the_shade_the_prepared_view_makes() -> None:
    from vision.centre_proposals import local_views
    from vision.coin_light import banded_windows
    from vision.prepare import PrepareConfig, prepare
    from vision.topview import TopView

    r = _render()
    view = TopView(r.calibration())
    prep = prepare(PrepareConfig(), view, r.image)
    full = prepare(PrepareConfig(), view, r.image, everywhere=True)
    assert prep.table is not None and prep.table.bands is not None
    coins = np.array([[p.x_mm, p.y_mm] for p in r.scene.pieces if p.kind == "coin"])
    px = view.to_px(view.camera.seen_at(coins, 3.175))
    half = 3.0 * 9.525 * view.px_per_mm
    own = [c for c in px if prep.unmade_window(c, half) is not None]
    assert own  # some coins lie where the prepared view was not made
    shade, top = local_views(prep, r.image, np.array(own), np.full(len(own), half))
    banded = banded_windows(prep, shade, top, np.array(own), half)
    for c in own:
        x0, y0, x1, y1 = prep.unmade_window(c, half)  # type: ignore[misc]
        want = full.shade[y0:y1, x0:x1]
        ok = prep.valid[y0:y1, x0:x1] > 0
        assert np.percentile(np.abs(banded[y0:y1, x0:x1] - want)[ok], 90) < 0.05
        assert np.percentile(np.abs(shade[y0:y1, x0:x1] - want)[ok], 90) > 0.2  # stripes


def test_no_bands_no_change() -> None:
    from vision.coin_light import banded_windows
    from vision.normalise import TableColour
    from vision.prepare import PrepareConfig, prepare
    from vision.topview import TopView

    r = _render()
    view = TopView(r.calibration())
    prep = prepare(PrepareConfig(), view, r.image)
    assert prep.table is not None
    flat = replace(prep, table=TableColour(prep.table.grid, prep.table.cell_px,
                                           prep.table.size_wh))
    shade = np.ones(prep.valid.shape, np.float32)
    assert banded_windows(flat, shade, prep.top, np.array([[100.0, 100.0]]), 30.0) is shade


def test_a_grey_coin_on_marble_under_a_blind_is_placed() -> None:
    from tests.vision.test_coins_faint_peaks import _score
    from vision import Detector, DetectorConfig
    from vision.detector import GAME_KINDS

    r = _render()
    found = {}
    for on in (False, True):
        cfg = DetectorConfig(kinds=GAME_KINDS["jungle"])
        assert cfg.centres is not None
        cfg = replace(cfg, centres=replace(cfg.centres, banded_windows=on))
        res = Detector(r.calibration(), config=cfg).detect(r.image)
        found[on] = _score(r, res.scene)
    assert found[True][1] > found[False][1]  # a coin more
    assert found[True][2] <= found[False][2]  # no false coin more

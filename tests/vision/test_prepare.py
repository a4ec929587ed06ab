"""The first stage: the table's colour, and the view made in full only around candidates."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.blobs import blobs
from vision.normalise import TableColour
from vision.prepare import prepare


def _table(seed: int = 1) -> TableColour:
    rng = np.random.default_rng(seed)
    return TableColour(rng.integers(0, 255, (11, 17, 3)).astype(np.uint8), 8, (141, 93))


@pytest.mark.parametrize("rect", [(0, 0, 141, 93), (5, 7, 50, 60), (100, 80, 141, 93),
                                  (3, 3, 4, 4), (130, 0, 141, 10), (0, 88, 9, 93)])
def test_a_part_of_the_table_colour_is_that_part_of_the_whole(rect) -> None:
    table = _table()
    x0, y0, x1, y1 = rect
    assert np.array_equal(table.at_rect(x0, y0, x1, y1), table.full()[y0:y1, x0:x1])


def test_table_colour_along_rows_is_the_whole_but_for_rounding() -> None:
    table = _table(2)
    rows = np.array([0, 1, 2, 40, 41, 42, 91, 92])
    diff = np.abs(table.at_rows(rows).astype(int) - table.full()[rows])
    assert diff.max() <= 1


def test_table_colour_at_cells_is_the_colour_at_their_centres() -> None:
    table = _table(3)
    cells = table.at_cells(2)
    assert cells.shape == (46, 70, 3)
    full = table.full().astype(float)
    centre = (full[2 * 10, 2 * 20] + full[2 * 10 + 1, 2 * 20 + 1]
              + full[2 * 10, 2 * 20 + 1] + full[2 * 10 + 1, 2 * 20]) / 4
    assert np.abs(cells[10, 20] - centre).max() <= 2


@pytest.fixture(scope="module")
def rendered():
    render = pytest.importorskip("tabletop.render")
    pieces = [Piece("coin", 19.06 * i - 60, -40.0, suit=s)
              for i, s in enumerate(("suns", "moons", "crowns", "arms"))]
    pieces += [Piece.tile(-150.0, 80.0, 20.0, "down"), Piece.tile(140.0, 60.0, 65.0, "up", "arms"),
               Piece("post", 60.0, 90.0)]
    r = render.render_scene(Scene(tuple(pieces)), render.CameraPose.looking_at(
        (0, 0), height_mm=850, tilt_deg=15, image_size=(960, 540), hfov_deg=60),
        render.RenderSettings(seed=11, table="wood", supersample=1))
    return r, Detector(r.calibration(), config=DetectorConfig.for_game("worm-derby"))


def test_the_view_is_made_in_full_around_every_piece_and_gives_the_same_masks(rendered) -> None:
    r, det = rendered
    view, cfg = det.view, det.config.prepare
    part = prepare(cfg, view, r.image, det._valid)
    whole = prepare(cfg, view, r.image, det._valid, everywhere=True)
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in part.rois_px)
    assert covered < 0.5 * part.level.size  # most of the table is never made in full
    for p in r.scene.pieces:
        x, y = view.to_px(np.array([[p.x_mm, p.y_mm]]))[0]
        assert any(x0 + 10 <= x < x1 - 10 and y0 + 10 <= y < y1 - 10
                   for x0, y0, x1, y1 in part.rois_px), p
    # the masks differ only in specks (a lone pixel of grain, the view's black border): every
    # blob of a quarter coin or more is the same
    quarter = 0.25 * np.pi * (9.5 * view.px_per_mm) ** 2
    for a, b in ((part.bright, whole.bright), (part.dark, whole.dark)):
        assert np.count_nonzero(a & ~b) == 0
        for blob in blobs(b, int(quarter)):
            if blob.area >= quarter:
                own, x0, y0 = blob.mask()
                patch = a[y0:y0 + own.shape[0], x0:x0 + own.shape[1]]
                assert np.array_equal(patch[own > 0], own[own > 0])
    assert part.noise == whole.noise
    for x0, y0, x1, y1 in part.rois_px:
        assert np.array_equal(part.level[y0:y1, x0:x1], whole.level[y0:y1, x0:x1])
        assert np.array_equal(part.top[y0:y1, x0:x1], whole.top[y0:y1, x0:x1])


def test_outside_the_candidates_the_table_values_stand(rendered) -> None:
    r, det = rendered
    part = prepare(det.config.prepare, det.view, r.image, det._valid)
    inside = np.zeros(part.level.shape, bool)
    for x0, y0, x1, y1 in part.rois_px:
        inside[y0:y1, x0:x1] = True
    assert np.all(part.level[~inside] == 100)
    assert np.all(part.shade[~inside] == 1.0)
    assert not part.bright[~inside].any() and not part.dark[~inside].any()

"""The sheet test (:mod:`vision.hand_sheets`): a blob whose face is as even as a plane of
brightness (a page, a notebook, a card) is no hand; a round arm, shaded to its sides, is one.
Built on made-up grids, so the measure itself is tested, not a render."""

from __future__ import annotations

import numpy as np
import pytest

from vision.hand_maps import HandMaps
from vision.hand_sheets import SheetTestConfig, face_residual, is_sheet, plane_residual

SH, SW = 60, 100


def _maps(small: np.ndarray) -> HandMaps:
    return HandMaps(small, np.zeros((SH, SW), np.float32), np.ones((SH, SW), bool),
                    np.full((SH, SW), 25.0, np.float32))


def _table(rng: np.random.Generator) -> np.ndarray:
    base = np.array([60.0, 90.0, 140.0])  # an oak-ish table, BGR
    return np.clip(base + rng.normal(0.0, 3.0, (SH, SW, 3)), 0, 255)


def test_a_page_lit_by_a_lamp_from_one_side_is_a_sheet() -> None:
    rng = np.random.default_rng(1)
    small = _table(rng)
    blob = np.zeros((SH, SW), bool)
    blob[10:40, 20:60] = True
    yy, xx = np.mgrid[0:SH, 0:SW]
    gain = np.exp(-0.006 * xx - 0.003 * yy)  # a lamp's fall-off: a plane in log level
    page = 230.0 * gain[..., None] * np.ones(3)
    # print on it: a few dark lines the fit leaves out
    page[15:16, 20:60] *= 0.5
    page[25:26, 20:60] *= 0.5
    small[blob] = page[blob] * (1.0 + rng.normal(0.0, 0.004, (int(blob.sum()), 3)))
    maps = _maps(np.clip(small, 0, 255).astype(np.uint8))
    assert is_sheet(SheetTestConfig(), maps, blob)
    r = face_residual(maps, blob)
    assert r is not None and r < SheetTestConfig().max_face_residual


def test_a_round_arm_shaded_to_its_sides_is_no_sheet() -> None:
    rng = np.random.default_rng(2)
    small = _table(rng)
    blob = np.zeros((SH, SW), bool)
    blob[25:41, 0:70] = True  # a forearm from the border, 16 cells wide
    yy, _ = np.mgrid[0:SH, 0:SW]
    across = (yy - 33.0) / 8.0
    shade = np.clip(np.cos(np.clip(across, -1.0, 1.0) * 1.2), 0.2, 1.0)  # lit on top
    skin = np.array([120.0, 150.0, 200.0])
    arm = skin * shade[..., None]
    small[blob] = arm[blob] * (1.0 + rng.normal(0.0, 0.004, (int(blob.sum()), 3)))
    maps = _maps(np.clip(small, 0, 255).astype(np.uint8))
    assert not is_sheet(SheetTestConfig(), maps, blob)


def test_a_white_sheet_clipped_under_glare_is_a_sheet() -> None:
    small = _table(np.random.default_rng(3))
    blob = np.zeros((SH, SW), bool)
    blob[5:30, 50:95] = True
    small[blob] = 255.0
    maps = _maps(np.clip(small, 0, 255).astype(np.uint8))
    assert is_sheet(SheetTestConfig(), maps, blob)


def test_a_blob_too_thin_to_have_inner_cells_is_not_measured() -> None:
    small = _table(np.random.default_rng(4))
    blob = np.zeros((SH, SW), bool)
    blob[10:12, 10:90] = True
    maps = _maps(np.clip(small, 0, 255).astype(np.uint8))
    assert face_residual(maps, blob) is None
    assert not is_sheet(SheetTestConfig(), maps, blob)


def test_the_plane_fit_agrees_with_least_squares_on_a_clean_plane_and_leaves_out_print() -> None:
    rng = np.random.default_rng(5)
    at = rng.uniform(-20, 20, (150, 2))
    v = (0.3 + 0.01 * at[:, 0] - 0.02 * at[:, 1])[:, None] + rng.normal(0, 0.002, (150, 1))
    clean = float(plane_residual(at, v)[0])
    assert clean == pytest.approx(0.002 * 0.6745, abs=0.001)  # the noise's own deviation
    v[:20] -= 0.7  # print: a seventh of the cells far off the plane
    assert float(plane_residual(at, v)[0]) < 2.0 * clean + 1e-3

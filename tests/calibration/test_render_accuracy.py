"""Accuracy on the project renderer's views of the mat (tabletop.render), with its exact truth."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.from_mat import calibrate_from_mat
from calibration.mat import make_mat

render = pytest.importorskip("tabletop.render")


def test_a3_mat_on_a_1m_table_through_a_distorting_lens():
    """Tilted, rotated mat, barrel distortion undone by the lens: within the bars."""
    from tabletop.scene import Scene

    sheet = make_mat("a3", dpi=150)
    angle = 30.0
    pose = render.CameraPose.looking_at((0, 0), height_mm=1100, tilt_deg=20,
                                        image_size=(1280, 720), hfov_deg=72,
                                        dist=(-0.12, 0.03, 0, 0, 0))
    r = render.render_scene(Scene(()), pose, render.RenderSettings(seed=4, blur_px=0.8,
                                                                   noise_sigma=3.0),
                            decals=[render.Decal(sheet.image_bgr, size_mm=sheet.size_mm,
                                                 centre_mm=(0, 0), angle_deg=angle)])
    truth = r.calibration()
    cal = calibrate_from_mat(r.image, lens=truth.lens)
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def errors(points_table: np.ndarray) -> np.ndarray:
        px = truth.to_image(points_table)
        mat_mm = cal.to_table(px)
        back = (mat_mm - np.array(sheet.size_mm) / 2) @ rot.T
        return np.linalg.norm(back - points_table, axis=1)

    gx, gy = np.meshgrid(np.linspace(-1, 1, 15), np.linspace(-1, 1, 15))
    unit = np.c_[gx.ravel(), gy.ravel()]
    on_mat = (unit * np.array(sheet.size_mm) / 2) @ rot.T
    assert errors(on_mat).max() < 0.3
    assert errors(unit * [500, 350]).max() < 1.0

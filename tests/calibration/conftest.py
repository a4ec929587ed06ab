"""Synthetic camera views of the mat, rendered once per test session."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from calibration.mat import MatSheet, make_mat
from calibration.synthetic import PinholeCamera, render_sheet


@dataclass(frozen=True, eq=False)
class View:
    """A rendered view and its truth."""

    sheet: MatSheet
    camera: PinholeCamera
    image_bgr: np.ndarray

    @property
    def true_h(self) -> np.ndarray:
        """Pixels -> mat mm, exact."""
        return self.camera.image_to_table()


def oblique_camera(size_mm: tuple[float, float], height_mm: float, tilt_deg: float,
                   image_size: tuple[int, int], hfov_deg: float, roll_deg: float = 0.0,
                   shift_mm: tuple[float, float] = (0.0, 0.0)) -> PinholeCamera:
    """A camera tilted ``tilt_deg`` from straight down, looking at the mat's centre."""
    c = np.array([size_mm[0] / 2 + shift_mm[0], size_mm[1] / 2 + shift_mm[1], 0.0])
    a = np.radians(tilt_deg)
    eye = c + np.array([0, height_mm * np.sin(a), -height_mm * np.cos(a)])
    return PinholeCamera.look_at(eye, c,
                                 image_size, hfov_deg, roll_deg)


def render_view(paper: str, height_mm: float, tilt_deg: float, image_size: tuple[int, int],
                hfov_deg: float, roll_deg: float = 0.0, seed: int = 0, dpi: float = 200,
                shift_mm: tuple[float, float] = (0.0, 0.0), **kw) -> View:
    """Renders the mat seen by an oblique camera."""
    sheet = make_mat(paper, dpi=dpi)
    cam = oblique_camera(sheet.size_mm, height_mm, tilt_deg, image_size, hfov_deg, roll_deg,
                         shift_mm)
    return View(sheet, cam, render_sheet(cam, sheet.image_bgr, sheet.dpi, seed=seed, **kw))


@pytest.fixture(scope="session")
def a4_view() -> View:
    """An A4 mat 0.8 m away, tilted 18 degrees, rolled, with blur and noise."""
    return render_view("a4", 800, 18, (1280, 960), 60, roll_deg=12, seed=3,
                       blur_px=0.9, noise=3.0)


@pytest.fixture(scope="session")
def a3_table_view() -> View:
    """An A3 mat in the middle of a 1 m x 0.7 m table, 1.1 m away, 1080p, 15 degrees."""
    return render_view("a3", 1100, 15, (1920, 1080), 72, roll_deg=-5, seed=5,
                       blur_px=0.8, noise=2.5)

"""Synthetic camera views of a printed sheet on a table, with the exact truth (tests, bench).

A pinhole camera (no distortion) looks at the table plane z = 0. The world frame is the table's,
in mm, x right, y down (z into the table, so the camera sits at negative z). The sheet is pasted
onto the table by a homography, supersampled and averaged down (area anti-aliasing), then
blurred (optics) and given sensor noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.printing import px_per_mm


@dataclass(frozen=True, eq=False)
class PinholeCamera:
    """An ideal camera over the table.

    Attributes:
        K: 3x3 intrinsics.
        R: 3x3 rotation, X_cam = R X_world + t.
        t: (3,) translation in mm.
        image_size: (width, height) in pixels.
    """

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    image_size: tuple[int, int]

    @classmethod
    def look_at(cls, centre_mm: Sequence[float], target_mm: Sequence[float],
                image_size: tuple[int, int] = (1920, 1080), hfov_deg: float = 70.0,
                roll_deg: float = 0.0) -> PinholeCamera:
        """A camera at ``centre_mm`` (z < 0 is above the table) looking at ``target_mm``."""
        c = np.asarray(centre_mm, float)
        f = np.asarray(target_mm, float) - c
        f /= np.linalg.norm(f)
        down = np.array([0.0, 1.0, 0.0]) - f[1] * f
        down /= np.linalg.norm(down)
        right = np.cross(down, f)
        R = np.array([right, down, f])
        a = np.radians(roll_deg)
        Rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
        R = Rz @ R
        w, h = image_size
        focal = (w / 2) / np.tan(np.radians(hfov_deg) / 2)
        K = np.array([[focal, 0, (w - 1) / 2], [0, focal, (h - 1) / 2], [0, 0, 1]])
        return cls(K, R, -R @ c, (int(w), int(h)))

    def table_to_image(self) -> np.ndarray:
        """3x3 homography table mm (x, y, 1) -> pixels."""
        H = self.K @ np.c_[self.R[:, 0], self.R[:, 1], self.t]
        return H / H[2, 2]

    def image_to_table(self) -> np.ndarray:
        """3x3 homography pixels -> table mm: the exact calibration."""
        H = np.linalg.inv(self.table_to_image())
        return H / H[2, 2]


def table_texture(size_wh: tuple[int, int], seed: int = 0) -> np.ndarray:
    """A brownish, smoothly varying table surface (BGR uint8)."""
    rng = np.random.default_rng(seed)
    w, h = size_wh
    low = cv2.resize(rng.normal(0, 1, (max(2, h // 60), max(2, w // 60))), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 2.0)
    base = 120 + 12 * low + 6 * grain
    img = np.stack([base * 0.55, base * 0.8, base * 1.05], axis=2)
    return np.clip(img, 0, 255).astype(np.uint8)


def render_sheet(camera: PinholeCamera, sheet_bgr: np.ndarray, dpi: float,
                 sheet_to_table: np.ndarray | None = None, *, supersample: int = 3,
                 blur_px: float = 0.7, noise: float = 2.0, seed: int = 0,
                 brightness: float = 0.9, background: np.ndarray | None = None) -> np.ndarray:
    """The camera's view of a printed sheet lying on the table.

    Args:
        camera: The camera.
        sheet_bgr: (H, W, 3) the sheet at ``dpi``; pixel (i, j) covers
            [j / ppmm, (j + 1) / ppmm) x [i / ppmm, (i + 1) / ppmm) in sheet mm.
        dpi: Pixels per inch of the sheet.
        sheet_to_table: 3x3 from sheet mm to table mm (default identity: the table frame is
            the sheet's).
        supersample: Rendering factor before area averaging.
        blur_px: Gaussian sigma of the optics, output pixels.
        noise: Gaussian sensor noise sigma, grey levels.
        seed: For the noise and the table texture.
        brightness: The paper's white as a fraction of 255 (prints are not pure white).
        background: The table image (default a texture).

    Returns:
        (h, w, 3) uint8 BGR image.
    """
    w, h = camera.image_size
    s = int(supersample)
    ppmm = px_per_mm(dpi)
    A = np.array([[1 / ppmm, 0, 0.5 / ppmm], [0, 1 / ppmm, 0.5 / ppmm], [0, 0, 1]])
    P = np.eye(3) if sheet_to_table is None else np.asarray(sheet_to_table, float)
    S = np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]])
    M = S @ camera.table_to_image() @ P @ A
    # shrink the sheet first where the camera sees it smaller than the sheet's pixels
    J = M / M[2, 2]
    scale = np.sqrt(abs(np.linalg.det(J[:2, :2])))
    sheet = sheet_bgr.astype(np.float32) * brightness
    if scale < 0.8:
        sheet = cv2.GaussianBlur(sheet, (0, 0), 0.45 / scale)
    bg = table_texture((w, h), seed) if background is None else background
    hr = cv2.resize(bg, (w * s, h * s), interpolation=cv2.INTER_NEAREST).astype(np.float32)
    cv2.warpPerspective(sheet, M, (w * s, h * s), dst=hr, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    img = cv2.resize(hr, (w, h), interpolation=cv2.INTER_AREA)
    if blur_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur_px)
    if noise > 0:
        img = img + np.random.default_rng(seed + 1).normal(0, noise, img.shape)
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def mapping_error_mm(H_est: np.ndarray, H_true: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """How far the estimate puts each table point: project by the truth, map back by ``H_est``.

    Args:
        H_est: 3x3 pixels -> mm (the calibration's).
        H_true: 3x3 pixels -> mm (the truth).
        points_mm: (N, 2) table points.

    Returns:
        (N,) errors in mm.
    """
    pts = np.asarray(points_mm, float)
    px = np.c_[pts, np.ones(len(pts))] @ np.linalg.inv(H_true).T
    px = px[:, :2] / px[:, 2:3]
    back = np.c_[px, np.ones(len(px))] @ np.asarray(H_est).T
    return np.linalg.norm(back[:, :2] / back[:, 2:3] - pts, axis=1)

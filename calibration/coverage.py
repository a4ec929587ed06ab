"""Coverage feedback: how wrong the calibration may be, point by point over the play area.

The homography was fitted to corner correspondences measured with some pixel noise. That noise
propagates through the least-squares fit (its covariance) to every table point: small among the
mat's markers, growing with the distance from them (the fit extrapolates). The noise is taken
from the fit's own residuals (or given), so a blurry or badly printed mat shows up too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.errors import CalibrationError
from calibration.model import Calibration

MIN_SIGMA_PX = 0.05
"""Floor of the corner noise (sub-pixel corners are never better than this in practice)."""

DEFAULT_SIGMA_PX = {"points": 1.0, "markers": 0.2}
"""Corner noise assumed when the fit has no redundancy to estimate it (exactly 4 points)."""


@dataclass(frozen=True, eq=False)
class ErrorMap:
    """Estimated mapping error over a grid of table points.

    Attributes:
        xs_mm: (nx,) grid x in table mm.
        ys_mm: (ny,) grid y in table mm.
        error_mm: (ny, nx) RMS position error (1 sigma, both axes together) in table mm.
        in_view: (ny, nx) bool, the point is inside the camera image.
        sigma_px: The corner noise assumed, pixels.
    """

    xs_mm: np.ndarray
    ys_mm: np.ndarray
    error_mm: np.ndarray
    in_view: np.ndarray
    sigma_px: float

    def __post_init__(self) -> None:
        if self.error_mm.shape != (len(self.ys_mm), len(self.xs_mm)):
            raise ValueError("error_mm must be (len(ys_mm), len(xs_mm))")
        for a in (self.xs_mm, self.ys_mm, self.error_mm, self.in_view):
            a.setflags(write=False)

    def at(self, x_mm: float, y_mm: float) -> float:
        """The error at the grid point nearest to (x_mm, y_mm)."""
        i = int(np.argmin(np.abs(self.ys_mm - y_mm)))
        j = int(np.argmin(np.abs(self.xs_mm - x_mm)))
        return float(self.error_mm[i, j])

    def to_json(self) -> dict[str, Any]:
        """For the dashboard's heat map: grid axes, and errors (null outside the view)."""
        err = np.where(self.in_view, np.round(self.error_mm, 4), np.nan)
        return {"xs_mm": self.xs_mm.round(3).tolist(), "ys_mm": self.ys_mm.round(3).tolist(),
                "error_mm": [[None if np.isnan(v) else float(v) for v in row] for row in err],
                "sigma_px": round(self.sigma_px, 4)}


def _jacobians(H: np.ndarray, px: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mapped points (N, 2), d(point)/d(h) (N, 2, 8) and d(point)/d(pixel) (N, 2, 2)."""
    u, v = px[:, 0], px[:, 1]
    w = H[2, 0] * u + H[2, 1] * v + H[2, 2]
    x = (H[0, 0] * u + H[0, 1] * v + H[0, 2]) / w
    y = (H[1, 0] * u + H[1, 1] * v + H[1, 2]) / w
    one, zero = np.ones_like(u), np.zeros_like(u)
    dx = np.stack([u, v, one, zero, zero, zero, -x * u, -x * v], axis=1) / w[:, None]
    dy = np.stack([zero, zero, zero, u, v, one, -y * u, -y * v], axis=1) / w[:, None]
    jh = np.stack([dx, dy], axis=1)
    jp = np.empty((len(u), 2, 2))
    jp[:, 0, 0] = (H[0, 0] - x * H[2, 0]) / w
    jp[:, 0, 1] = (H[0, 1] - x * H[2, 1]) / w
    jp[:, 1, 0] = (H[1, 0] - y * H[2, 0]) / w
    jp[:, 1, 1] = (H[1, 1] - y * H[2, 1]) / w
    return np.c_[x, y], jh, jp


def homography_covariance(H: np.ndarray, pixels: np.ndarray, world_mm: np.ndarray,
                          sigma_px: float | None = None,
                          default_sigma_px: float = 0.2) -> tuple[np.ndarray, float]:
    """Covariance of the 8 homography parameters of a least-squares fit in mm.

    Args:
        H: 3x3 fitted homography (pixels -> mm), H[2, 2] = 1.
        pixels: (N, 2) fitted pixels (undistorted).
        world_mm: (N, 2) their table mm.
        sigma_px: Pixel noise of the corners; None estimates it from the residuals.
        default_sigma_px: Used when there is no redundancy (N = 4) to estimate it.

    Returns:
        (8, 8) covariance and the sigma used.
    """
    H = np.asarray(H, float) / H[2, 2]
    mapped, jh, jp = _jacobians(H, pixels)
    if sigma_px is None:
        dof = 2 * len(pixels) - 8
        if dof > 0:
            res_px = np.linalg.solve(jp, (np.asarray(world_mm) - mapped)[:, :, None])[:, :, 0]
            sigma_px = max(MIN_SIGMA_PX, float(np.sqrt(np.sum(res_px ** 2) / dof)))
        else:
            sigma_px = default_sigma_px
    A = jh.reshape(-1, 8)
    # noise per point in mm: sigma^2 Jp Jp^T (pixels isotropic)
    sig = np.zeros((len(A), len(A)))
    blocks = sigma_px ** 2 * jp @ jp.transpose(0, 2, 1)
    for i, b in enumerate(blocks):
        sig[2 * i:2 * i + 2, 2 * i:2 * i + 2] = b
    N = np.linalg.pinv(A.T @ A)
    cov = N @ A.T @ sig @ A @ N
    return cov, float(sigma_px)


def error_map(cal: Calibration, area_mm: Sequence[float] | None = None, step_mm: float = 20.0,
              sigma_px: float | None = None) -> ErrorMap:
    """Estimated mapping error over the play area.

    Args:
        cal: A calibration that keeps its fit (``extra["fit"]``: every calibration this
            package makes).
        area_mm: (x0, y0, x1, y1) in table mm; default the table seen by the whole image.
        step_mm: Grid spacing.
        sigma_px: Corner noise in pixels; default estimated from the fit's residuals.

    Returns:
        The error grid.

    Raises:
        CalibrationError: the calibration keeps no fit points, or a bad area or step.
    """
    fit = cal.extra.get("fit")
    if not isinstance(fit, dict) or "pixels" not in fit or "world_mm" not in fit:
        raise CalibrationError("this calibration keeps no fit points; calibrate again to get "
                               "an error map")
    px = np.asarray(fit["pixels"], float).reshape(-1, 2)
    mm = np.asarray(fit["world_mm"], float).reshape(-1, 2)
    if len(px) < 4:
        raise CalibrationError("the calibration's fit has fewer than 4 points")
    if not step_mm > 0:
        raise CalibrationError(f"step_mm must be positive, not {step_mm}")
    if area_mm is None:
        corners_px = cal.view_corners_px()
        und = cal.lens.undistort_points(corners_px) if cal.lens is not None else corners_px
        if np.any(np.c_[und, np.ones(4)] @ cal.homography[2] <= 0):
            raise CalibrationError("the view reaches the horizon, so it has no extent on the "
                                   "table; give area_mm")
        corners_mm = cal.view_corners_mm()
        x0, y0 = corners_mm.min(axis=0)
        x1, y1 = corners_mm.max(axis=0)
    else:
        x0, y0, x1, y1 = (float(a) for a in area_mm)
    if not (x1 > x0 and y1 > y0):
        raise CalibrationError(f"area_mm {area_mm} must be (x0, y0, x1, y1) with x1 > x0, y1 > y0")
    xs = np.arange(x0, x1 + step_mm * 1e-6, step_mm)
    ys = np.arange(y0, y1 + step_mm * 1e-6, step_mm)
    if len(xs) * len(ys) > 1_000_000:
        raise CalibrationError("the error map grid is too fine (over a million points)")
    default = DEFAULT_SIGMA_PX.get(str(cal.extra.get("source")), 0.5)
    cov, sigma = homography_covariance(cal.homography, px, mm, sigma_px, default)
    gx, gy = np.meshgrid(xs, ys)
    q_mm = np.c_[gx.ravel(), gy.ravel()]
    hom = np.c_[q_mm, np.ones(len(q_mm))] @ cal.inverse.T
    q_px = hom[:, :2] / hom[:, 2:3]
    _, jh, _ = _jacobians(cal.homography, q_px)
    var = np.einsum("nij,jk,nik->n", jh, cov, jh)
    err = np.sqrt(np.maximum(var, 0)).reshape(gy.shape)
    raw = cal.to_image(q_mm) if cal.lens is not None else q_px
    w, h = cal.image_size
    in_view = ((hom[:, 2] > 0) & (raw[:, 0] >= -0.5) & (raw[:, 0] <= w - 0.5)
               & (raw[:, 1] >= -0.5) & (raw[:, 1] <= h - 0.5)).reshape(gy.shape)
    return ErrorMap(xs, ys, err, in_view, sigma)

"""The camera: a pinhole with OpenCV's distortion model, looking down at the table.

The world frame is the table's: millimetres, the table plane is ``z = 0``, ``x`` to the right and
``y`` *down* in the image of the default pose (yaw 0), as a printed sheet reads from above, and
``z`` up from the table (a height). That frame is left-handed, so :attr:`CameraPose.R` is
orthogonal with determinant -1 (a rotation composed with the flip ``z -> -z``); everything
else is as in ``../shared/devscenes``: ``X_cam = R @ X_world + t`` (mm), camera ``x`` right,
``y`` down, ``z`` forward, pixels in OpenCV's convention (u right, v down, origin at the centre
of the top-left pixel), ``dist = [k1, k2, p1, p2, k3]``.

>>> pose = CameraPose.looking_at((0.0, 0.0), height_mm=1000.0, tilt_deg=0.0)
>>> [round(float(v), 3) for v in pose.project([[0.0, 0.0, 0.0]])[0]]
[639.5, 359.5]
>>> bool(pose.project([[100.0, 0.0, 0.0]])[0, 0] > 639.5)  # +x is to the right
True
>>> bool(pose.project([[0.0, 100.0, 0.0]])[0, 1] > 359.5)  # +y is down the image
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from tabletop.render.errors import RenderError


def _frozen(a: Any) -> np.ndarray:
    arr = np.array(a, dtype=float)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class CameraPose:
    """An overhead camera: intrinsics, distortion and position.

    Attributes:
        image_size: (width, height) in pixels.
        K: 3x3 camera matrix.
        dist: Distortion (k1, k2, p1, p2, k3), or None for an ideal lens.
        R: 3x3, world -> camera (orthogonal, det -1: see the module docstring).
        t: 3-vector, mm: ``X_cam = R @ X_world + t``.
    """

    image_size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray | None
    R: np.ndarray
    t: np.ndarray

    def __post_init__(self) -> None:
        w, h = (int(v) for v in self.image_size)
        if w < 16 or h < 16:
            raise RenderError(f"image size {w}x{h} is too small")
        object.__setattr__(self, "image_size", (w, h))
        object.__setattr__(self, "K", _frozen(self.K).reshape(3, 3))
        object.__setattr__(self, "R", _frozen(self.R).reshape(3, 3))
        object.__setattr__(self, "t", _frozen(self.t).reshape(3))
        if self.dist is not None:
            d = np.zeros(5)
            given = np.ravel(np.array(self.dist, dtype=float))
            if given.size > 5:
                raise RenderError("dist holds at most 5 coefficients (k1 k2 p1 p2 k3)")
            d[:given.size] = given
            object.__setattr__(self, "dist", _frozen(d) if np.any(d) else None)

    @classmethod
    def looking_at(cls, target_mm: Sequence[float] = (0.0, 0.0), height_mm: float = 900.0,
                   tilt_deg: float = 15.0, yaw_deg: float = 0.0,
                   image_size: Sequence[int] = (1280, 720), hfov_deg: float = 60.0,
                   dist: Sequence[float] | None = None) -> CameraPose:
        """A camera whose optical axis meets the table at ``target_mm``.

        Args:
            target_mm: (x, y) on the table where the optical axis points.
            height_mm: Height of the camera's centre above the table.
            tilt_deg: Angle between the optical axis and the vertical; the camera leans in from
                the near side (the bottom of the image), so the far side looks smaller.
            yaw_deg: Turns the view about the vertical through the target; at 0 the image's
                u axis runs along world +x; a positive yaw turns the image axes from +x
                toward +y.
            image_size: (width, height) in pixels.
            hfov_deg: Horizontal field of view of the undistorted image.
            dist: Optional distortion (k1, k2, p1, p2, k3).

        Raises:
            RenderError: a value out of range.
        """
        if not 50.0 <= height_mm <= 5000.0:
            raise RenderError(f"camera height {height_mm} mm is out of range (50-5000)")
        if not 0.0 <= tilt_deg <= 60.0:
            raise RenderError(f"camera tilt {tilt_deg} degrees is out of range (0-60)")
        if not 10.0 <= hfov_deg <= 150.0:
            raise RenderError(f"hfov {hfov_deg} degrees is out of range (10-150)")
        w, h = (int(v) for v in image_size)
        f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        K = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
        yaw, tilt = math.radians(yaw_deg), math.radians(tilt_deg)
        x_c = np.array([math.cos(yaw), math.sin(yaw), 0.0])   # image right
        down0 = np.array([-math.sin(yaw), math.cos(yaw), 0.0])  # image down at tilt 0
        up = np.array([0.0, 0.0, 1.0])
        y_c = down0 * math.cos(tilt) - up * math.sin(tilt)
        z_c = -(down0 * math.sin(tilt) + up * math.cos(tilt))
        R = np.vstack([x_c, y_c, z_c])
        target = np.array([float(target_mm[0]), float(target_mm[1]), 0.0])
        centre = target + down0 * height_mm * math.tan(tilt) + up * height_mm
        t = -R @ centre
        return cls((w, h), K, None if dist is None else np.asarray(dist, float), R, t)

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return self.image_size[0]

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return self.image_size[1]

    @cached_property
    def centre_mm(self) -> np.ndarray:
        """The camera's optical centre in world millimetres, shape (3,)."""
        c = -self.R.T @ self.t
        c.setflags(write=False)
        return c

    def to_camera(self, points_xyz_mm: Any) -> np.ndarray:
        """World points (N, 3) -> camera-frame points (N, 3), mm."""
        p = np.asarray(points_xyz_mm, dtype=float).reshape(-1, 3)
        return p @ self.R.T + self.t

    def distort_normalized(self, xn: np.ndarray, yn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Applies the lens to ideal normalized coordinates (OpenCV's model)."""
        if self.dist is None:
            return xn, yn
        k1, k2, p1, p2, k3 = (float(v) for v in self.dist)
        r2 = xn * xn + yn * yn
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = xn * radial + 2.0 * p1 * xn * yn + p2 * (r2 + 2.0 * xn * xn)
        yd = yn * radial + p1 * (r2 + 2.0 * yn * yn) + 2.0 * p2 * xn * yn
        return xd, yd

    def project(self, points_xyz_mm: Any) -> np.ndarray:
        """World points (N, 3) in mm -> raw (distorted) pixels (N, 2).

        Points behind the camera come back as NaN.
        """
        pc = self.to_camera(points_xyz_mm)
        z = pc[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = np.where(z > 1e-9, pc[:, 0] / z, np.nan)
            yn = np.where(z > 1e-9, pc[:, 1] / z, np.nan)
        xd, yd = self.distort_normalized(xn, yn)
        K = self.K
        return np.column_stack([K[0, 0] * xd + K[0, 1] * yd + K[0, 2], K[1, 1] * yd + K[1, 2]])

    def project_table(self, points_xy_mm: Any) -> np.ndarray:
        """Points on the table (N, 2) -> raw pixels (N, 2)."""
        p = np.asarray(points_xy_mm, dtype=float).reshape(-1, 2)
        return self.project(np.column_stack([p, np.zeros(len(p))]))

    def undistort_to_normalized(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray,
                                                                              np.ndarray]:
        """Raw pixels -> ideal normalized coordinates (arrays of any equal shape)."""
        K = self.K
        if self.dist is None:
            yn = (v - K[1, 2]) / K[1, 1]
            xn = (u - K[0, 2] - K[0, 1] * yn) / K[0, 0]
            return xn, yn
        pts = np.stack([np.ravel(u), np.ravel(v)], axis=1).astype(np.float64).reshape(-1, 1, 2)
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-12)
        out = cv2.undistortPointsIter(pts, K, self.dist, None, None, crit).reshape(-1, 2)
        return out[:, 0].reshape(np.shape(u)), out[:, 1].reshape(np.shape(u))

    def rays(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unit-free world directions of the rays through raw pixels, shape (*u.shape, 3)."""
        xn, yn = self.undistort_to_normalized(u, v)
        d_cam = np.stack([xn, yn, np.ones_like(xn)], axis=-1)
        return d_cam @ self.R  # R^T @ d for each ray (R orthogonal)

    def pixels_to_table(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Raw pixels -> the table points they see (x, y mm); NaN above the horizon."""
        d = self.rays(u, v)
        c = self.centre_mm
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.where(d[..., 2] < -1e-9, -c[2] / d[..., 2], np.nan)
        return c[0] + s * d[..., 0], c[1] + s * d[..., 1]

    @cached_property
    def table_homography(self) -> np.ndarray:
        """3x3, table mm (x, y, 1) -> ideal (undistorted) pixels: ``K [r1 r2 t]``."""
        H = self.K @ np.c_[self.R[:, 0], self.R[:, 1], self.t]
        H = H / H[2, 2]
        H.setflags(write=False)
        return H

    def mm_per_px_at(self, point_xy_mm: Sequence[float]) -> float:
        """Approximate table millimetres per image pixel near a table point."""
        x, y = float(point_xy_mm[0]), float(point_xy_mm[1])
        a, b, c = self.project_table([[x, y], [x + 1.0, y], [x, y + 1.0]])
        (ux, uy), (vx, vy) = b - a, c - a
        area = abs(float(ux * vy - uy * vx))
        return 1.0 / math.sqrt(area) if area > 0 else float("inf")

    def key(self) -> tuple:
        """A hashable value identifying this pose (for caches)."""
        d = None if self.dist is None else tuple(np.round(self.dist, 12))
        return (self.image_size, tuple(np.round(self.K.ravel(), 9)), d,
                tuple(np.round(self.R.ravel(), 12)), tuple(np.round(self.t, 9)))

    def to_json(self) -> dict[str, Any]:
        """The camera as in ``../shared/devscenes`` JSON."""
        return {"K": self.K.tolist(), "dist": None if self.dist is None else self.dist.tolist(),
                "R": self.R.tolist(), "t": self.t.tolist(),
                "center_world_mm": self.centre_mm.tolist(),
                "model": "opencv pinhole; X_cam = R X_world + t (mm); world x right, y down the "
                         "image, z up from the table (left-handed, det R = -1); u right, v down,"
                         " (0,0) = centre of top-left pixel; dist = [k1,k2,p1,p2,k3] (OpenCV)"}

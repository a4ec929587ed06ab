"""The top-down view: a frame warped onto the table plane at a known scale.

Every stage works in this view, where a coin is a disc of known radius in pixels. A
:class:`TopView` is built once per calibration (the remap tables are the costly part) and then
warps each frame with one ``cv2.remap``.

It also knows where the camera is (:class:`CameraGeometry`), so raised pieces can be moved from
where their top face is seen to where they stand: a point ``z`` mm above the table at ``(x, y)``
is seen on the table plane at ``nadir + (p - nadir) * H / (H - z)`` (``H`` the camera height).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from vision.errors import ViewError
from vision.sampling import REMAP_MAX

DEFAULT_HFOV_DEG = 65.0
"""Assumed horizontal field of view when neither the lens nor the homography gives a focal."""


@dataclass(frozen=True)
class CameraGeometry:
    """Where the camera is above the table.

    Attributes:
        nadir_mm: The table point straight below the camera centre, shape (2,).
        height_mm: The camera centre's height above the table.
        focal_px: The focal length used (from the lens, or estimated, or assumed).
        focal_source: ``"lens"``, ``"homography"`` or ``"assumed"``.
    """

    nadir_mm: np.ndarray
    height_mm: float
    focal_px: float
    focal_source: str

    def seen_at(self, foot_mm: np.ndarray, z_mm: float | np.ndarray) -> np.ndarray:
        """Where a point ``z`` mm above each foot point is seen on the table plane, (N, 2)."""
        foot = np.asarray(foot_mm, float).reshape(-1, 2)
        k = self.height_mm / np.maximum(self.height_mm - np.asarray(z_mm, float), 1e-6)
        return self.nadir_mm + (foot - self.nadir_mm) * np.reshape(k, (-1, 1))

    def foot_of(self, seen_mm: np.ndarray, z_mm: float | np.ndarray) -> np.ndarray:
        """Inverse of :meth:`seen_at`: the foot below points seen ``z`` mm up, (N, 2).

        >>> g = CameraGeometry(np.zeros(2), 1000.0, 1000.0, "lens")
        >>> g.foot_of(np.array([[100.0, 0.0]]), 10.0).round(6).tolist()
        [[99.0, 0.0]]
        """
        seen = np.asarray(seen_mm, float).reshape(-1, 2)
        k = np.maximum(self.height_mm - np.asarray(z_mm, float), 0.0) / self.height_mm
        return self.nadir_mm + (seen - self.nadir_mm) * np.reshape(k, (-1, 1))

    def outward(self, points_mm: np.ndarray) -> np.ndarray:
        """Unit vectors from the nadir towards each point (the way raised parts lean), (N, 2)."""
        d = np.asarray(points_mm, float).reshape(-1, 2) - self.nadir_mm
        n = np.linalg.norm(d, axis=1, keepdims=True)
        return np.where(n > 1e-9, d / np.maximum(n, 1e-9), 0.0)


def halve(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame at half its size, each pixel the mean of two by two (a last odd row or
    column left out)."""
    h, w = frame_bgr.shape[:2]
    return cv2.resize(frame_bgr[:h - h % 2, :w - w % 2], (max(1, w // 2), max(1, h // 2)),
                      interpolation=cv2.INTER_AREA)


def estimate_camera(calibration: Calibration) -> CameraGeometry:
    """The camera centre from the homography and the lens (or an assumed principal point).

    With a lens, ``K`` is known; without one the principal point is taken at the image centre
    and the focal length is solved from the homography (the two table axes must come out
    orthogonal and of equal length), falling back to a 65 degree field of view when the view is
    too frontal for that to be well conditioned.
    """
    w, h = calibration.image_size
    G = np.linalg.inv(calibration.homography)  # table mm -> undistorted px
    if calibration.lens is not None:
        K = np.array(calibration.lens.K, float)
        source = "lens"
    else:
        cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
        T = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
        A = T @ G
        a1, a2 = A[:, 0], A[:, 1]
        cands = []
        den = a1[2] * a2[2]
        if abs(den) > 1e-12:
            cands.append(-(a1[0] * a2[0] + a1[1] * a2[1]) / den)
        den = a2[2] ** 2 - a1[2] ** 2
        if abs(den) > 1e-12:
            cands.append((a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2) / den)
        good = [math.sqrt(c) for c in cands if c > 0 and 0.3 * w < math.sqrt(c) < 4.0 * w]
        if good and (len(good) == 1 or max(good) / min(good) < 1.3):
            f, source = float(np.mean(good)), "homography"
        else:
            f, source = w / (2.0 * math.tan(math.radians(DEFAULT_HFOV_DEG) / 2)), "assumed"
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    M = np.linalg.inv(K) @ G
    lam = (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1])) / 2.0
    M = M / lam
    if M[2, 2] < 0:  # the table is in front of the camera
        M = -M
    r1, r2, t = M[:, 0], M[:, 1], M[:, 2]
    R = np.c_[r1, r2, np.cross(r1, r2)]
    U, _, Vt = np.linalg.svd(R)
    R = U @ Vt
    C = -R.T @ t
    return CameraGeometry(np.array(C[:2], float), float(abs(C[2])), float(K[0, 0]), source)


class TopView:
    """A fixed warp of frames onto the table plane.

    Attributes:
        calibration: The calibration it was built from.
        px_per_mm: Scale of the view.
        area_mm: ``(x0, y0, x1, y1)``, the table rectangle covered.
        size_wh: ``(width, height)`` of the view in pixels.
        valid: uint8 mask (255 where the view sees the camera image), shape (H, W).
        camera: Where the camera is.
    """

    def __init__(self, calibration: Calibration, px_per_mm: float | None = None,
                 area_mm: tuple[float, float, float, float] | None = None,
                 max_pixels: int = 4_000_000, max_extent_mm: float = 3000.0) -> None:
        self.calibration = calibration
        w, h = calibration.image_size
        if max(w, h) > REMAP_MAX:
            raise ViewError(f"a {w}x{h} frame is too big to warp (at most {REMAP_MAX} pixels a "
                            "side)")
        if area_mm is None:
            area_mm = self._footprint(calibration, max_extent_mm)
        x0, y0, x1, y1 = (float(v) for v in area_mm)
        if not (x1 > x0 and y1 > y0):
            raise ViewError(f"the play area {area_mm} is empty")
        cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
        J = calibration.to_table([[cx, cy], [cx + 1, cy], [cx, cy + 1]])
        ja, jb = J[1] - J[0], J[2] - J[0]
        det = float(ja[0] * jb[1] - ja[1] * jb[0])  # table mm^2 per image pixel, signed
        if px_per_mm is None:
            mm_px = math.sqrt(abs(det))
            px_per_mm = float(np.clip(1.0 / max(mm_px, 1e-9), 1.0, 2.0))
        s = float(px_per_mm)
        if (x1 - x0) * (y1 - y0) * s * s > max_pixels:
            s = math.sqrt(max_pixels / ((x1 - x0) * (y1 - y0)))
        s = min(s, REMAP_MAX / (x1 - x0), REMAP_MAX / (y1 - y0))  # what one remap can make
        self.px_per_mm = s
        self.area_mm = (x0, y0, x1, y1)
        cols = min(REMAP_MAX, math.ceil((x1 - x0) * s))
        rows = min(REMAP_MAX, math.ceil((y1 - y0) * s))
        self.size_wh = (cols, rows)
        # Keep the view's handedness the camera's, so text and markers are not mirrored.
        flip = det < 0
        self.flip_y = flip
        sy = -1.0 / s if flip else 1.0 / s
        oy = y1 if flip else y0
        self._px_to_mm = np.array([[1.0 / s, 0, x0], [0, sy, oy], [0, 0, 1]])
        self._mm_to_px = np.linalg.inv(self._px_to_mm)
        jj, ii = np.meshgrid(np.arange(cols, dtype=float), np.arange(rows, dtype=float))
        mm = np.c_[x0 + jj.ravel() / s, oy + ii.ravel() * sy]
        raw = calibration.to_image(mm).astype(np.float32).reshape(rows, cols, 2)
        inside = ((raw[..., 0] >= 0) & (raw[..., 0] <= w - 1)
                  & (raw[..., 1] >= 0) & (raw[..., 1] <= h - 1))
        raw[~inside] = -10.0
        self.valid = np.where(inside, 255, 0).astype(np.uint8)
        self._map1, self._map2 = cv2.convertMaps(raw, None, cv2.CV_16SC2)
        self.camera = estimate_camera(calibration)
        self._coarse: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @staticmethod
    def _footprint(cal: Calibration, max_extent_mm: float) -> tuple[float, float, float, float]:
        w, h = cal.image_size
        t = np.linspace(0.0, 1.0, 17)
        border = np.r_[np.c_[t * (w - 1), 0 * t], np.c_[t * (w - 1), 0 * t + h - 1],
                       np.c_[0 * t, t * (h - 1)], np.c_[0 * t + w - 1, t * (h - 1)]]
        Hm = cal.homography
        pts = cal.lens.undistort_points(border) if cal.lens is not None else border
        denom = pts @ Hm[2, :2] + Hm[2, 2]
        centre = cal.to_table([[(w - 1) / 2, (h - 1) / 2]])[0]
        mm = cal.to_table(border)
        ok = denom > 0 if Hm[2, 2] > 0 else denom < 0
        lim = max_extent_mm / 2.0
        lo, hi = centre - lim, centre + lim
        mm = np.where(ok[:, None], np.clip(mm, lo, hi), np.where(mm > centre, hi, lo))
        if not np.all(np.isfinite(mm)):
            raise ViewError("the calibration maps the image to no finite table area")
        x0, y0 = mm.min(axis=0)
        x1, y1 = mm.max(axis=0)
        return (float(x0), float(y0), float(x1), float(y1))

    def warp(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame seen from above, shape (H, W, 3) of :attr:`size_wh`."""
        return cv2.remap(frame_bgr, self._map1, self._map2, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def warp_rect(self, frame_bgr: np.ndarray, x0: int, y0: int, x1: int, y1: int
                  ) -> np.ndarray:
        """The part ``[x0, x1) x [y0, y1)`` of :meth:`warp`'s view (the same pixels)."""
        if x1 <= x0 or y1 <= y0:
            return np.zeros((max(0, y1 - y0), max(0, x1 - x0), 3), np.uint8)
        return cv2.remap(frame_bgr, self._map1[y0:y1, x0:x1], self._map2[y0:y1, x0:x1],
                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def warp_rows(self, frame_bgr: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Whole rows of :meth:`warp`'s view (the same pixels), shape (len(rows), W, 3)."""
        if not len(rows):
            return np.zeros((0, self.size_wh[0], 3), np.uint8)
        return cv2.remap(frame_bgr, self._map1[rows], self._map2[rows], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def warp_coarse(self, frame_bgr: np.ndarray, factor: int,
                    half_bgr: np.ndarray | None = None) -> np.ndarray:
        """About the mean colour of each ``factor`` x ``factor`` cell of the view, uint8
        (H // factor, W // factor, 3): the frame halved (``half_bgr``, :func:`halve`'s, when
        already made), then sampled at the cells' centres. A fraction of the cost of
        :meth:`warp`."""
        if factor not in self._coarse:
            cols, rows = self.size_wh
            wc, hc = max(1, cols // factor), max(1, rows // factor)
            jj, ii = np.meshgrid((np.arange(wc) + 0.5) * factor - 0.5,
                                 (np.arange(hc) + 0.5) * factor - 0.5)
            mm = self.to_mm(np.c_[jj.ravel(), ii.ravel()])
            raw = self.calibration.to_image(mm).reshape(hc, wc, 2)
            half = ((raw + 0.5) / 2.0 - 0.5).astype(np.float32)
            bad = ~np.isfinite(half).all(axis=2)
            half[bad] = -10.0
            self._coarse[factor] = cv2.convertMaps(half, None, cv2.CV_16SC2)
        m1, m2 = self._coarse[factor]
        small = halve(frame_bgr) if half_bgr is None else half_bgr
        return cv2.remap(small, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(0, 0, 0))

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """View pixels (column, row), shape (N, 2) -> table mm, shape (N, 2)."""
        p = np.asarray(points_px, float).reshape(-1, 2)
        return p @ self._px_to_mm[:2, :2].T + self._px_to_mm[:2, 2]

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm, shape (N, 2) -> view pixels (column, row), shape (N, 2)."""
        p = np.asarray(points_mm, float).reshape(-1, 2)
        return p @ self._mm_to_px[:2, :2].T + self._mm_to_px[:2, 2]

    def outward_px(self, points_px: np.ndarray) -> np.ndarray:
        """Unit vectors (N, 2) in the view pointing away from the camera's nadir at view
        pixels (the way raised parts lean; zero straight below the camera)."""
        u = self.camera.outward(self.to_mm(points_px))
        if self.flip_y:
            u[:, 1] = -u[:, 1]
        return u

    def angle_to_mm(self, angle_px_deg: float | np.ndarray) -> float | np.ndarray:
        """A direction angle in the view (degrees, from +column towards +row) in table terms."""
        return -angle_px_deg if self.flip_y else angle_px_deg

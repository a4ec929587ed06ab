"""Calibration value objects: :class:`Lens` (intrinsics, distortion) and :class:`Calibration`
(the image-to-table homography), with their versioned JSON files (CAL.json, LENS.json).

``Calibration.to_table(points_px) -> points_mm`` is the one door from pixels to millimetres;
``to_image`` goes back. With a lens, pixels are raw (distorted) image pixels and the homography
applies to undistorted ones, as the contract says.

A value that crosses every boundary (vision, the renderer, the web), so it lives in the core
like :class:`tabletop.scene.Scene`; the :mod:`calibration` package finds calibrations (mat,
markers, lens) and re-exports these names from :mod:`calibration.model`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tabletop import jsonin
from tabletop.errors import InputError
from tabletop.files import read_bytes

VERSION = 1


class CalibrationError(InputError):
    """A calibration cannot be made or read."""


class CalibrationFileError(CalibrationError):
    """A calibration or lens file is missing, broken, or of an unknown version."""


class ResolutionMismatch(CalibrationError):
    """An image is not of the size the calibration was made for."""


def _frozen(a: Any, shape: tuple[int, ...] | None = None, what: str = "array") -> np.ndarray:
    arr = np.array(a, dtype=float)
    if shape is not None and arr.shape != shape:
        raise CalibrationFileError(f"{what} must have shape {shape}, not {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise CalibrationFileError(f"{what} holds a value that is not a finite number")
    arr.setflags(write=False)
    return arr


def _as_points(points: Any) -> np.ndarray:
    pts = np.asarray(points, dtype=float)
    if pts.size == 0:
        return np.zeros((0, 2))
    return pts.reshape(-1, 2)


def _read_json(path: str | Path, what: str) -> Mapping[str, Any]:
    p = Path(path)
    obj = jsonin.loads(read_bytes(p, f"{what} file", CalibrationFileError),
                       f"{p}: not a {what} file", CalibrationFileError)
    if not isinstance(obj, Mapping):
        raise CalibrationFileError(f"{p}: not a {what} file (not a JSON object)")
    return obj


def _image_size(obj: Mapping[str, Any], where: str) -> tuple[int, int]:
    size = obj.get("image_size")
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise CalibrationFileError(f"{where}: 'image_size' must be [width, height] in pixels")
    return (size[0], size[1])


def _version(obj: Mapping[str, Any], where: str) -> None:
    if obj.get("version") != VERSION:
        raise CalibrationFileError(
            f"{where}: unknown version {obj.get('version')!r} (this program reads {VERSION})")


@dataclass(frozen=True, eq=False)
class Lens:
    """Camera intrinsics and distortion (OpenCV's conventions).

    Attributes:
        image_size: (width, height) in pixels of the images it was made from.
        K: 3x3 camera matrix.
        dist: Distortion coefficients (k1, k2, p1, p2, k3).
        rms_px: RMS reprojection error of the calibration, pixels.
    """

    image_size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray
    rms_px: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "K", _frozen(self.K, (3, 3), "K"))
        object.__setattr__(self, "dist", _frozen(np.ravel(self.dist), None, "dist"))
        object.__setattr__(self, "image_size", tuple(int(v) for v in self.image_size))

    def undistort_points(self, points_px: Any) -> np.ndarray:
        """Raw (distorted) pixels -> ideal (undistorted) pixels, shape (N, 2)."""
        pts = _as_points(points_px)
        if len(pts) == 0:
            return pts
        out = cv2.undistortPointsIter(pts.reshape(-1, 1, 2), self.K, self.dist, None, self.K,
                                      (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-10))
        return out.reshape(-1, 2)

    def distort_points(self, points_px: Any) -> np.ndarray:
        """Ideal (undistorted) pixels -> raw pixels, shape (N, 2)."""
        pts = _as_points(points_px)
        if len(pts) == 0:
            return pts
        kinv = np.linalg.inv(self.K)
        norm = np.c_[pts, np.ones(len(pts))] @ kinv.T
        obj = np.c_[norm[:, :2], np.zeros(len(pts))].reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), self.K, self.dist)
        return out.reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        """The LENS.json object."""
        return {"version": VERSION, "image_size": list(self.image_size), "K": self.K.tolist(),
                "dist": self.dist.tolist(), "rms_px": float(self.rms_px)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], where: str = "lens") -> Lens:
        """Reads LENS.json's object (or the ``lens`` of CAL.json, where version may be absent)."""
        if not isinstance(obj, Mapping):
            raise CalibrationFileError(f"{where}: a lens must be a JSON object")
        if "version" in obj:
            _version(obj, where)
        for key in ("K", "dist"):
            if key not in obj:
                raise CalibrationFileError(f"{where}: missing field {key!r}")
        try:
            size = _image_size(obj, where) if "image_size" in obj else (0, 0)
            return cls(size, obj["K"], obj["dist"], float(obj.get("rms_px", 0.0)))
        except (TypeError, ValueError) as exc:
            raise CalibrationFileError(f"{where}: {exc}") from None
        except CalibrationFileError as exc:
            raise CalibrationFileError(f"{where}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Lens:
        """Reads a LENS.json file."""
        obj = _read_json(path, "lens")
        if "version" not in obj:
            raise CalibrationFileError(f"{path}: not a lens file (no 'version')")
        return cls.from_json(obj, str(path))

    def save(self, path: str | Path) -> None:
        """Writes a LENS.json file."""
        _write_json(path, self.to_json())


def _write_json(path: str | Path, obj: Mapping[str, Any]) -> None:
    p = Path(path)
    try:
        p.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot write ({exc.strerror})") from None


@dataclass(frozen=True, eq=False)
class Calibration:
    """The image-to-table mapping of one camera view.

    Attributes:
        image_size: (width, height) in pixels of the frames it applies to.
        homography: 3x3, maps (undistorted) pixels (u, v, 1) to table mm (x, y, 1).
        lens: The lens, or None (pixels are then used as they are).
        reprojection_mm: Mean error of the fit in table mm (0 when unknown).
        extra: Further fields kept in the file (mat layout, corner residuals...).
    """

    image_size: tuple[int, int]
    homography: np.ndarray
    lens: Lens | None = None
    reprojection_mm: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        H = _frozen(self.homography, (3, 3), "homography")
        if abs(np.linalg.det(H)) < 1e-15 or abs(H[2, 2]) < 1e-15:
            raise CalibrationFileError("homography is singular")
        H = H / H[2, 2]
        H.setflags(write=False)
        object.__setattr__(self, "homography", H)
        inv = np.linalg.inv(H)
        inv.setflags(write=False)
        object.__setattr__(self, "_inverse", inv)
        object.__setattr__(self, "image_size", tuple(int(v) for v in self.image_size))

    @property
    def inverse(self) -> np.ndarray:
        """3x3, maps table mm to (undistorted) pixels."""
        return self._inverse  # type: ignore[attr-defined,no-any-return]

    @staticmethod
    def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
        hom = np.c_[pts, np.ones(len(pts))] @ H.T
        return hom[:, :2] / hom[:, 2:3]

    def to_table(self, points_px: Any) -> np.ndarray:
        """Raw image pixels, shape (N, 2) -> table millimetres, shape (N, 2).

        >>> cal = Calibration((640, 480), np.diag([0.5, 0.5, 1.0]))
        >>> cal.to_table([[10, 20]]).tolist()
        [[5.0, 10.0]]
        >>> cal.to_table([]).shape
        (0, 2)
        """
        pts = _as_points(points_px)
        if len(pts) == 0:
            return pts
        if self.lens is not None:
            pts = self.lens.undistort_points(pts)
        return self._apply(self.homography, pts)

    def to_image(self, points_mm: Any) -> np.ndarray:
        """Table millimetres, shape (N, 2) -> raw image pixels, shape (N, 2)."""
        pts = _as_points(points_mm)
        if len(pts) == 0:
            return pts
        out = self._apply(self.inverse, pts)
        if self.lens is not None:
            out = self.lens.distort_points(out)
        return out

    def check_image_size(self, size_wh: Sequence[int], where: str = "image") -> None:
        """Raises :class:`ResolutionMismatch` when a frame is not of the calibrated size."""
        w, h = int(size_wh[0]), int(size_wh[1])
        if (w, h) != tuple(self.image_size):
            raise ResolutionMismatch(
                f"{where} is {w}x{h} but the calibration was made for "
                f"{self.image_size[0]}x{self.image_size[1]}; calibrate again at this resolution")

    def view_corners_px(self) -> np.ndarray:
        """The picture's four corner pixels (4, 2): top-left, top-right, bottom-right,
        bottom-left."""
        w, h = self.image_size
        return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float)

    def view_corners_mm(self) -> np.ndarray:
        """The picture's footprint on the table: its four corners (4, 2) in table mm, in the
        order of :meth:`view_corners_px` (meaningless where the view reaches the horizon).

        >>> cal = Calibration((101, 51), np.diag([2.0, 2.0, 1.0]))
        >>> cal.view_corners_mm().tolist()
        [[0.0, 0.0], [200.0, 0.0], [200.0, 100.0], [0.0, 100.0]]
        """
        return self.to_table(self.view_corners_px())

    def mm_per_px_at(self, point_px: Sequence[float]) -> float:
        """Local scale: table mm per image pixel near a pixel (geometric mean of both axes)."""
        u, v = float(point_px[0]), float(point_px[1])
        a, b, c = self.to_table([[u, v], [u + 1, v], [u, v + 1]])
        (ux, uy), (vx, vy) = b - a, c - a
        return math.sqrt(abs(ux * vy - uy * vx))

    def to_json(self) -> dict[str, Any]:
        """The CAL.json object."""
        return {"version": VERSION, "image_size": list(self.image_size),
                "homography": self.homography.tolist(),
                "lens": None if self.lens is None else self.lens.to_json(),
                "reprojection_mm": float(self.reprojection_mm), **dict(self.extra)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], where: str = "calibration") -> Calibration:
        """Reads CAL.json's object.

        Raises:
            CalibrationFileError: naming ``where`` and what is wrong.
        """
        if not isinstance(obj, Mapping):
            raise CalibrationFileError(f"{where}: not a calibration file (not a JSON object)")
        if "homography" not in obj:
            raise CalibrationFileError(f"{where}: not a calibration file (no 'homography')")
        _version(obj, where)
        size = _image_size(obj, where)
        lens = None if obj.get("lens") is None else Lens.from_json(obj["lens"], f"{where}: lens")
        known = {"version", "image_size", "homography", "lens", "reprojection_mm"}
        try:
            return cls(size, obj["homography"], lens, float(obj.get("reprojection_mm", 0.0)),
                       {k: v for k, v in obj.items() if k not in known})
        except (TypeError, ValueError) as exc:
            raise CalibrationFileError(f"{where}: homography must be 3x3 numbers ({exc})") from None
        except CalibrationFileError as exc:
            raise CalibrationFileError(f"{where}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Reads a CAL.json file."""
        return cls.from_json(_read_json(path, "calibration"), str(path))

    def save(self, path: str | Path) -> None:
        """Writes a CAL.json file."""
        _write_json(path, self.to_json())

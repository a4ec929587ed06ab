"""Lens calibration from chessboard photos (OpenCV's own procedure).

Corners by ``findChessboardCorners`` (default flags), refined by ``cornerSubPix`` with a 5x5
window (as OpenCV's calibration test does), then ``calibrateCamera`` with no flags. A set is
refused when too few photos show the whole board or the corners cover too little of the view
(the distortion far from the covered part would be a guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.errors import LensError
from calibration.model import Lens
from tabletop.errors import InputError

MIN_IMAGES = 3
"""Photos with the whole board found needed for a calibration."""

SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.1)


@dataclass(frozen=True, eq=False)
class LensResult:
    """A lens calibration and how it was made.

    Attributes:
        lens: The lens.
        used: Photos whose corners were found.
        rejected: Photos where the whole board was not found.
        coverage: Share of the view covered by the boards seen (0-1).
        per_view_rms_px: RMS reprojection error of each used photo.
    """

    lens: Lens
    used: tuple[Path, ...]
    rejected: tuple[Path, ...]
    coverage: float
    per_view_rms_px: tuple[float, ...]


def find_corners(grey: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    """Sub-pixel inner corners of a chessboard, (cols * rows, 2), or None when not found."""
    ok, corners = cv2.findChessboardCorners(grey, pattern)
    if not ok:
        return None
    corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1), SUBPIX_CRITERIA)
    return corners.reshape(-1, 2)


def coverage(corner_sets: Sequence[np.ndarray], size_wh: tuple[int, int]) -> float:
    """Share of the image inside the union of the boards' outlines (convex hulls).

    >>> round(coverage([np.array([[0, 0], [99, 0], [99, 49], [0, 49]])], (100, 100)), 1)
    0.5
    """
    w, h = size_wh
    f = 200.0 / max(w, h)  # a small mask is plenty
    mask = np.zeros((max(1, round(h * f)), max(1, round(w * f))), np.uint8)
    for c in corner_sets:
        hull = cv2.convexHull(np.round((np.asarray(c) + 0.5) * f).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1)
    return float(mask.mean())


def calibrate_lens(paths: Sequence[str | Path], pattern: tuple[int, int], square_mm: float,
                   min_coverage: float = 0.25) -> LensResult:
    """Lens calibration from chessboard photos.

    Args:
        paths: The photos (one camera, one resolution).
        pattern: Inner corners (cols, rows), like (9, 6).
        square_mm: Side of a square.
        min_coverage: Least share of the view the boards must cover together.

    Raises:
        InputError: a photo cannot be read. LensError: sizes differ, too few photos show the
            board, or the corners cover too little of the view.
    """
    obj = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    obj[:, :2] = np.mgrid[0:pattern[0], 0:pattern[1]].T.reshape(-1, 2) * square_mm
    size: tuple[int, int] | None = None
    used: list[Path] = []
    rejected: list[Path] = []
    img_pts: list[np.ndarray] = []
    for path in paths:
        p = Path(path)
        grey = cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) if p.is_file() else None
        if grey is None:
            why = "not an image OpenCV can read" if p.is_file() else "no such image file"
            raise InputError(f"{p}: {why}")
        this = (grey.shape[1], grey.shape[0])
        if size is None:
            size = this
        elif this != size:
            raise LensError(f"{p}: is {this[0]}x{this[1]} but {Path(paths[0])} is "
                            f"{size[0]}x{size[1]}; use photos of one resolution")
        corners = find_corners(grey, pattern)
        if corners is None:
            rejected.append(p)
        else:
            used.append(p)
            img_pts.append(corners)
    assert size is not None
    cols, rows = pattern
    if len(used) < MIN_IMAGES:
        missing = ", ".join(p.name for p in rejected[:5]) + (", ..." if len(rejected) > 5 else "")
        raise LensError(f"the {cols}x{rows} chessboard was found in {len(used)} of "
                        f"{len(paths)} images{f' (not in {missing})' if missing else ''}; "
                        f"at least {MIN_IMAGES} needed "
                        "(whole board in view, sharp, --chessboard counting inner corners)")
    cov = coverage(img_pts, size)
    if cov < min_coverage:
        raise LensError(f"the chessboards cover {cov:.0%} of the view, less than "
                        f"{min_coverage:.0%}; add photos with the board near the edges and corners")
    rms, K, dist, rvecs, tvecs = cv2.calibrateCamera(
        [obj] * len(img_pts), [c.reshape(-1, 1, 2).astype(np.float32) for c in img_pts],
        size, None, None)
    per_view = []
    for c, rv, tv in zip(img_pts, rvecs, tvecs, strict=True):
        proj, _ = cv2.projectPoints(obj, rv, tv, K, dist)
        per_view.append(float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - c) ** 2, axis=1)))))
    lens = Lens(size, K, np.ravel(dist)[:5], float(rms))
    return LensResult(lens, tuple(used), tuple(rejected), cov, tuple(per_view))

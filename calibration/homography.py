"""The table homography: from marker corners or user-given points to a :class:`Calibration`.

``calibrate_from_markers`` is generic (any layout of ArUco markers with known corners in mm: the
mat, the Jungle board's corner markers): every detected corner, refined to sub-pixel, enters a
RANSAC homography, then a least-squares refit on the inliers, so a covered marker (not seen) or
a misread one (an outlier) does not spoil it. ``calibrate_from_points`` fits user-given
correspondences (POINTS.json).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.corners import refine_corners
from calibration.errors import CalibrationError, MatNotFound, ResolutionMismatch
from calibration.model import Calibration, Lens
from tabletop import jsonin
from tabletop.files import read_bytes
from tabletop.markers import ARUCO_DICTIONARY

MIN_MARKERS = 2
"""Markers that must agree (RANSAC inliers) for a marker calibration."""


@dataclass(frozen=True, eq=False)
class MarkerDetections:
    """ArUco markers found in one image.

    Attributes:
        ids: (N,) int marker ids.
        corners_px: (N, 4, 2) corners in raw image pixels, ArUco's order (TL, TR, BR, BL).
    """

    ids: np.ndarray
    corners_px: np.ndarray

    def __post_init__(self) -> None:
        for a in (self.ids, self.corners_px):
            a.setflags(write=False)

    def __len__(self) -> int:
        return len(self.ids)


def detector_parameters() -> cv2.aruco.DetectorParameters:
    """Detector settings of the product: sub-pixel corner refinement on every marker."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 5
    params.cornerRefinementMaxIterations = 50
    params.cornerRefinementMinAccuracy = 0.01
    return params


def to_grey(image_bgr: np.ndarray) -> np.ndarray:
    """(H, W) grey from BGR, BGRA or grey (returned as it is)."""
    img = np.asarray(image_bgr)
    if img.ndim == 3:
        return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY if img.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
    return img


def detect_markers(image_bgr: np.ndarray, dictionary_name: str = ARUCO_DICTIONARY,
                   params: cv2.aruco.DetectorParameters | None = None,
                   refine: bool = True) -> MarkerDetections:
    """Finds ArUco markers with sub-pixel corners.

    Args:
        image_bgr: (H, W, 3) BGR or (H, W) grey uint8 image.
        dictionary_name: An OpenCV predefined dictionary name.
        params: Detector settings (default :func:`detector_parameters`).
        refine: Corners from the fitted outer edges (:func:`calibration.corners.refine_corners`,
            unbiased under blur) rather than the detector's corner refinement.

    Returns:
        The markers found (possibly none).
    """
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary_name))
    detector = cv2.aruco.ArucoDetector(dictionary, params or detector_parameters())
    grey = to_grey(image_bgr)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None or len(ids) == 0:
        return MarkerDetections(np.zeros(0, int), np.zeros((0, 4, 2)))
    quads = np.array(corners, dtype=float).reshape(-1, 4, 2)
    if refine:
        quads = refine_corners(grey, quads)
    return MarkerDetections(ids.ravel().astype(int), quads)


def _residuals_mm(H: np.ndarray, px: np.ndarray, mm: np.ndarray) -> np.ndarray:
    hom = np.c_[px, np.ones(len(px))] @ H.T
    return np.linalg.norm(hom[:, :2] / hom[:, 2:3] - mm, axis=1)


def _check_lens(lens: Lens | None, size_wh: tuple[int, int]) -> None:
    if lens is not None and lens.image_size != (0, 0) and tuple(lens.image_size) != size_wh:
        raise ResolutionMismatch(
            f"the image is {size_wh[0]}x{size_wh[1]} but the lens was calibrated at "
            f"{lens.image_size[0]}x{lens.image_size[1]}")


def fit_homography(points_px: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """Least-squares homography pixels -> mm (DLT then Levenberg-Marquardt on mm residuals).

    Args:
        points_px: (N, 2), N >= 4.
        points_mm: (N, 2).

    Returns:
        3x3 with H[2, 2] = 1.
    """
    H, _ = cv2.findHomography(np.asarray(points_px, np.float64),
                              np.asarray(points_mm, np.float64), 0)
    if H is None or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-15:
        raise CalibrationError("the points do not give a homography (degenerate layout)")
    return H / H[2, 2]


def calibrate_from_markers(image_bgr: np.ndarray, layout: Mapping[int, Any],
                           lens: Lens | None = None, *,
                           dictionary_name: str = ARUCO_DICTIONARY,
                           detections: MarkerDetections | None = None,
                           ransac_mm: float | None = None,
                           edge_bias: bool = True,
                           extra: Mapping[str, Any] | None = None) -> Calibration:
    """Image-to-table homography from ArUco markers at known positions.

    Args:
        image_bgr: The camera image (raw, as the camera gives it).
        layout: marker id -> (4, 2) corners in table mm, ArUco's order (TL, TR, BR, BL).
        lens: Undistorts the detected corners first when given.
        dictionary_name: The markers' dictionary.
        detections: Markers already found in ``image_bgr`` (skips detection).
        ransac_mm: RANSAC inlier threshold in mm (default: 4 pixels' worth, at least 1 mm).
        edge_bias: Estimate and undo a shift common to every marker edge (in pixels: a camera's
            tone curve or the printer's ink spread makes black squares look smaller or bigger);
            it is kept in ``extra["fit"]["edge_bias_px"]``.
        extra: More fields for the calibration's ``extra``.

    Returns:
        The calibration; its ``extra["markers"]`` holds the layout's markers used
        (``corners_mm``, ``corners_px`` as seen, ``inlier_ids``) for the drift watch and
        ``extra["fit"]`` the corner correspondences for the error map.

    Raises:
        MatNotFound: fewer than two markers of the layout seen (or agreeing).
    """
    img = np.asarray(image_bgr)
    if img.ndim not in (2, 3) or img.size == 0:
        raise CalibrationError("not an image")
    size_wh = (int(img.shape[1]), int(img.shape[0]))
    _check_lens(lens, size_wh)
    wanted = {int(k): np.asarray(v, dtype=float).reshape(4, 2) for k, v in layout.items()}
    found = detections if detections is not None else detect_markers(img, dictionary_name)
    keep = [i for i, k in enumerate(found.ids) if int(k) in wanted]
    if len(keep) < MIN_MARKERS:
        raise MatNotFound(
            f"{'no' if not keep else 'only ' + str(len(keep))} marker"
            f"{'' if len(keep) == 1 else 's'} of the mat found "
            f"({len(found)} ArUco marker{'' if len(found) == 1 else 's'} in view, "
            f"{len(wanted)} expected); at least {MIN_MARKERS} must be visible")
    ids = found.ids[keep]
    raw_px = found.corners_px[keep].reshape(-1, 2)
    px = lens.undistort_points(raw_px) if lens is not None else raw_px
    mm = np.concatenate([wanted[int(k)] for k in ids])
    # RANSAC threshold: a few pixels in mm at the mat's scale
    side_px = np.linalg.norm(np.diff(px.reshape(-1, 4, 2), axis=1), axis=2).mean()
    side_mm = np.linalg.norm(np.diff(mm.reshape(-1, 4, 2), axis=1), axis=2).mean()
    thr = ransac_mm if ransac_mm is not None else max(1.0, 4.0 * side_mm / max(side_px, 1e-9))
    H, mask = cv2.findHomography(px, mm, cv2.RANSAC, thr, maxIters=5000, confidence=0.999)
    if H is None:
        raise MatNotFound("the mat's markers do not agree on one plane")
    inl = mask.ravel().astype(bool)
    # a marker counts when at least 3 of its 4 corners agree; its corners all refit otherwise
    marker_ok = inl.reshape(-1, 4).sum(axis=1) >= 3
    if marker_ok.sum() < MIN_MARKERS:
        raise MatNotFound(
            f"only {int(marker_ok.sum())} marker of the mat agrees with the others; "
            "is the mat flat and fully printed?")
    use = inl & np.repeat(marker_ok, 4)
    H = fit_homography(px[use], mm[use])
    # final inliers by the refit (and refit once more if that set changed)
    res = _residuals_mm(H, px, mm)
    use2 = (res < thr) & np.repeat(marker_ok, 4)
    if use2.sum() >= 8 and not np.array_equal(use2, use):
        use = use2
        H = fit_homography(px[use], mm[use])
    edge_bias_px = 0.0
    if edge_bias:
        # every edge seen shifted by the same few tenths of a pixel (tone curve, ink spread,
        # blur): estimate that shift against the layout's marker sizes, undo it, refit
        whole = np.repeat(use.reshape(-1, 4).all(axis=1), 4)
        for _ in range(3):
            delta, px_fixed = _edge_shift(H, px, mm, whole)
            edge_bias_px += delta
            px = px_fixed
            H = fit_homography(px[use], mm[use])
    res = _residuals_mm(H, px, mm)
    inlier_ids = sorted({int(k) for k, ok in zip(ids, marker_ok, strict=True) if ok})
    out_extra: dict[str, Any] = {
        "source": "markers",
        "markers": {
            "dictionary": dictionary_name,
            "corners_mm": {str(int(k)): wanted[int(k)].tolist() for k in ids},
            "corners_px": {str(int(k)): c.round(4).tolist()
                           for k, c in zip(ids, found.corners_px[keep], strict=True)},
            "inlier_ids": inlier_ids,
            "outlier_ids": sorted({int(k) for k in ids} - set(inlier_ids)),
        },
        "fit": {**_fit_extra(px[use], mm[use], res[use]), "edge_bias_px": edge_bias_px},
    }
    out_extra.update(extra or {})
    return Calibration(size_wh, H, lens, float(res[use].mean()), out_extra)


def _edge_shift(H: np.ndarray, px: np.ndarray, mm: np.ndarray,
                use: np.ndarray) -> tuple[float, np.ndarray]:
    """The inward shift of every marker edge in pixels, and the corners with it undone.

    Shifting both edges through a corner inward by ``delta`` moves the corner by ``delta * m``,
    ``m`` solving ``m . n1 = m . n2 = 1`` for the edges' inward normals ``n1``, ``n2``.

    Args:
        H: pixels -> mm.
        px: (4N, 2) observed corners, marker by marker in ArUco's order.
        mm: (4N, 2) their layout positions.
        use: (4N,) corners of markers taking part (whole markers).
    """
    quads = px.reshape(-1, 4, 2)
    m = np.zeros_like(quads)
    for j in range(4):
        prev, nxt = quads[:, (j - 1) % 4], quads[:, (j + 1) % 4]
        c = quads[:, j]
        centre = quads.mean(axis=1)
        normals = []
        for other in (prev, nxt):
            d = other - c
            n = np.c_[-d[:, 1], d[:, 0]] / np.maximum(np.linalg.norm(d, axis=1), 1e-12)[:, None]
            flip = np.sum(n * (centre - c), axis=1) < 0
            n[flip] *= -1
            normals.append(n)
        A = np.stack(normals, axis=1)  # (N, 2, 2): rows n1, n2
        ok = np.abs(np.linalg.det(A)) > 1e-3
        m[ok, j] = np.linalg.solve(A[ok], np.ones((int(ok.sum()), 2, 1)))[:, :, 0]
    m = m.reshape(-1, 2)
    inv = np.linalg.inv(H)
    hom = np.c_[mm, np.ones(len(mm))] @ inv.T
    predicted = hom[:, :2] / hom[:, 2:3]
    d = (px - predicted)[use]
    mu = m[use]
    denom = float(np.sum(mu * mu))
    if denom <= 0:
        return 0.0, px
    delta = float(np.sum(d * mu) / denom)
    return delta, px - delta * m


def _fit_extra(px: np.ndarray, mm: np.ndarray, res: np.ndarray) -> dict[str, Any]:
    return {"pixels": px.round(4).tolist(), "world_mm": mm.round(6).tolist(),
            "residual_max_mm": float(res.max()) if len(res) else 0.0,
            "residual_rms_mm": float(np.sqrt(np.mean(res ** 2))) if len(res) else 0.0}


def _point_pairs(points: Any, where: str) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(points, list):
        raise CalibrationError(f"{where}: must be a JSON list of "
                               '{"pixel": [u, v], "world": [x, y]} objects')
    px, mm = [], []
    for i, p in enumerate(points):
        try:
            if not isinstance(p, Mapping):
                raise TypeError
            u, v = (float(a) for a in p["pixel"])
            x, y = (float(a) for a in p["world"])
        except (KeyError, TypeError, ValueError):
            raise CalibrationError(
                f"{where}: point {i} must be {{\"pixel\": [u, v], \"world\": [x, y]}}") from None
        if not all(math.isfinite(a) for a in (u, v, x, y)):
            raise CalibrationError(f"{where}: point {i} holds a value that is not finite")
        px.append((u, v))
        mm.append((x, y))
    if len(px) < 4:
        raise CalibrationError(f"{where}: needs at least 4 points, has {len(px)}")
    return np.array(px), np.array(mm)


def general_position_four(points: np.ndarray, rel_tol: float = 0.01) -> np.ndarray | None:
    """Indices of 4 points with no three on one line, or None when there are none.

    Greedy: the two points farthest apart, the one farthest from their line, then the one
    that makes the flattest of the four triangles least flat. Collinear means a triangle
    whose smallest height is below ``rel_tol`` times the spread of all the points.

    >>> general_position_four(np.array([[0, 0], [1, 0], [2, 0], [3, 0]])) is None
    True
    >>> sorted(general_position_four(np.array([[0, 0], [9, 0], [0, 9], [9, 9], [4, 0]])).tolist())
    [0, 1, 2, 3]
    """
    pts = np.asarray(points, dtype=float)
    if len(pts) < 4:
        return None
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    a, b = (int(v) for v in np.unravel_index(np.argmax(d), d.shape))
    spread = d[a, b]
    if spread <= 0:
        return None

    def height(i: np.ndarray | int, p: int, q: int) -> np.ndarray:
        """Smallest height of the triangles (i, p, q): twice the area over the longest side."""
        u, w = pts[q] - pts[p], pts[i] - pts[p]
        area2 = np.abs(u[0] * w[..., 1] - u[1] * w[..., 0])
        longest = np.maximum(np.linalg.norm(u), np.maximum(
            np.linalg.norm(w, axis=-1), np.linalg.norm(pts[i] - pts[q], axis=-1)))
        return area2 / np.maximum(longest, 1e-300)

    hc = height(np.arange(len(pts)), a, b)
    c = int(np.argmax(hc))
    if hc[c] < rel_tol * spread:
        return None
    others = np.array([i for i in range(len(pts)) if i not in (a, b, c)])
    h = np.minimum(np.minimum(height(others, a, b), height(others, a, c)), height(others, b, c))
    best = int(np.argmax(h))
    if h[best] >= rel_tol * spread:
        return np.array([a, b, c, int(others[best])])
    return _best_four(pts, height, rel_tol * spread)


_EXHAUSTIVE_MAX = 30
"""Up to this many points, a failed greedy choice is checked against every four of them."""


def _best_four(pts: np.ndarray, height: Callable[[Any, int, int], Any],
               min_height: float) -> np.ndarray | None:
    """The four points whose flattest triangle is least flat, searched among all fours (the
    greedy choice can miss them: its first three may leave no fourth off their lines)."""
    n = len(pts)
    if n > _EXHAUSTIVE_MAX:
        return None
    best, best_h = None, min_height
    for quad in combinations(range(n), 4):
        h = min(float(height(i, p, q)) for i, p, q in
                ((quad[0], quad[1], quad[2]), (quad[0], quad[1], quad[3]),
                 (quad[0], quad[2], quad[3]), (quad[1], quad[2], quad[3])))
        if h >= best_h:
            best, best_h = np.array(quad), h
    return best


def load_points(path: str | Path) -> Any:
    """Reads POINTS.json (the parsed JSON list)."""
    return jsonin.loads(read_bytes(path, "points file", CalibrationError),
                        f"{path}: not a points file", CalibrationError)


def calibrate_from_points(points_json: Any, image_size: Sequence[int],
                          lens: Lens | None = None, where: str = "points") -> Calibration:
    """Homography from user-given correspondences (POINTS.json).

    Args:
        points_json: The parsed POINTS.json list, or a path to it.
        image_size: (width, height) of the image the pixels are in.
        lens: Pixels are raw; with a lens they are undistorted first.
        where: Names the points' source in error messages.

    Raises:
        CalibrationError: fewer than 4 points, a malformed point, a pixel outside the image,
            no 4 world points with no three on a line.
    """
    if isinstance(points_json, str | Path):
        where = str(points_json)
        points_json = load_points(points_json)
    size_wh = (int(image_size[0]), int(image_size[1]))
    _check_lens(lens, size_wh)
    raw_px, mm = _point_pairs(points_json, where)
    w, h = size_wh
    for i, (u, v) in enumerate(raw_px):
        if not (-0.5 <= u <= w - 0.5 and -0.5 <= v <= h - 0.5):
            raise CalibrationError(f"{where}: point {i}: pixel ({u:g}, {v:g}) is outside "
                                   f"the {w}x{h} image")
    if general_position_four(mm) is None:
        raise CalibrationError(
            f"{where}: three of the world points are on one line (needs 4 with no three "
            "on a line)" if len(mm) == 4 else
            f"{where}: the world points are (nearly) on one line, or all but one are; needs "
            "4 with no three on a line")
    if general_position_four(raw_px) is None:
        raise CalibrationError(f"{where}: the pixels are (nearly) on one line")
    px = lens.undistort_points(raw_px) if lens is not None else raw_px
    H = fit_homography(px, mm)
    res = _residuals_mm(H, px, mm)
    extra = {"source": "points", "fit": _fit_extra(px, mm, res)}
    return Calibration(size_wh, H, lens, float(res.mean()), extra)

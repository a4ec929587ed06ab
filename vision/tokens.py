"""Tokens: pieces carrying an ArUco marker (``DICT_4X4_250``), reported with the marker's id.

Markers are read in the raw frame (its full resolution) and in it divided by its local white
(a blind's stripe across a marker), both also enlarged twice where tokens are seen small (a
far or wide camera); their centres are moved onto the table plane through the calibration and
corrected for the token's thickness. Ids of the calibration
mat and of the Jungle board's corners are not pieces and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.markers import ARUCO_DICTIONARY, JUNGLE_TOKEN_IDS, TOKEN_IDS
from vision.detections import Detections
from vision.topview import CameraGeometry


@dataclass(frozen=True)
class TokenConfig:
    """Attributes:
    thickness_mm: A token's thickness.
    ids: The marker ids that are tokens.
    side_mm: A token's side.
    min_side_px: Tokens seen smaller than this (their side in the frame at its centre) are
        also read in the frame enlarged twice: ArUco's thresholds and cell sampling lose
        markers of a few pixels a cell (a far or wide camera).
    """

    thickness_mm: float = 3.0
    ids: tuple[int, ...] = (*JUNGLE_TOKEN_IDS, *TOKEN_IDS)
    side_mm: float = 30.0
    min_side_px: float = 40.0


_DETECTOR: cv2.aruco.ArucoDetector | None = None


def _detector() -> cv2.aruco.ArucoDetector:
    global _DETECTOR
    if _DETECTOR is None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        _DETECTOR = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    return _DETECTOR


def side_px(calibration: Calibration, side_mm: float) -> float:
    """How many frame pixels a length of ``side_mm`` on the table spans at the frame's centre."""
    w, h = calibration.image_size
    centre = calibration.to_table(np.array([[w / 2.0, h / 2.0]]))[0]
    ends = calibration.to_image(centre + np.array([[0.0, 0.0], [side_mm, 0.0],
                                                   [0.0, side_mm]])).reshape(-1, 2)
    return float(min(np.hypot(*(ends[1] - ends[0])), np.hypot(*(ends[2] - ends[0]))))


def flattened(grey: np.ndarray, cell_px: float) -> np.ndarray:
    """The frame divided by its local white (the brightest within about a marker's cell,
    smoothed): a blind's stripe or a lamp's edge across a marker no longer turns its white
    cells in the shade black, while each cell keeps its contrast with its neighbours."""
    k = max(5, round(2 * cell_px) | 1)
    white = cv2.GaussianBlur(cv2.dilate(grey, np.ones((k, k), np.uint8)), (0, 0), k / 2.0)
    return cv2.divide(grey, cv2.max(white, 1), scale=200)


def read_markers(grey: np.ndarray, enlarge: bool, cell_px: float) -> dict[int, np.ndarray]:
    """Marker id -> its (4, 2) corners in the frame, read in the frame and in it flattened
    (:func:`flattened`); with ``enlarge``, also in both enlarged twice. A marker found in
    several is kept as first found."""
    views = [(grey, 1.0), (flattened(grey, cell_px), 1.0)]
    if enlarge:
        views += [(cv2.resize(v, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), 2.0)
                  for v, _ in list(views)]
    found: dict[int, np.ndarray] = {}
    for img, f in views:
        corners, ids, _ = _detector().detectMarkers(img)
        for i, v in enumerate([] if ids is None else ids.ravel()):
            # pixel centres: x_big = 2 x + 0.5
            found.setdefault(int(v), (corners[i].reshape(4, 2) - (f - 1) / 2) / f)
    return found


def detect_tokens(cfg: TokenConfig, frame_bgr: np.ndarray, calibration: Calibration,
                  camera: CameraGeometry) -> Detections:
    """Finds the marker-tagged tokens in a raw frame."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    side = side_px(calibration, cfg.side_mm)
    found = read_markers(grey, side < cfg.min_side_px, side / 9.0)
    wanted = set(cfg.ids)
    keep = sorted(v for v in found if v in wanted)
    if not keep:
        return Detections.empty()
    quads = [calibration.to_table(found[v]) for v in keep]
    seen = np.array([q.mean(axis=0) for q in quads])
    foot = camera.foot_of(seen, cfg.thickness_mm)
    return Detections.of(foot, ["token"] * len(keep), seen_mm=seen, marker_id=keep)

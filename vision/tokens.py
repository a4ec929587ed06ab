"""Tokens: pieces carrying an ArUco marker (``DICT_4X4_250``), reported with the marker's id.

Markers are read in the raw frame (its full resolution), their centres moved onto the table
plane through the calibration and corrected for the token's thickness. Ids of the calibration
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
    """

    thickness_mm: float = 3.0
    ids: tuple[int, ...] = (*JUNGLE_TOKEN_IDS, *TOKEN_IDS)


_DETECTOR: cv2.aruco.ArucoDetector | None = None


def _detector() -> cv2.aruco.ArucoDetector:
    global _DETECTOR
    if _DETECTOR is None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        _DETECTOR = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    return _DETECTOR


def detect_tokens(cfg: TokenConfig, frame_bgr: np.ndarray, calibration: Calibration,
                  camera: CameraGeometry) -> Detections:
    """Finds the marker-tagged tokens in a raw frame."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(grey)
    if ids is None:
        return Detections.empty()
    wanted = set(cfg.ids)
    keep = [i for i, v in enumerate(ids.ravel()) if int(v) in wanted]
    if not keep:
        return Detections.empty()
    quads = [calibration.to_table(corners[i].reshape(4, 2)) for i in keep]
    seen = np.array([q.mean(axis=0) for q in quads])
    foot = camera.foot_of(seen, cfg.thickness_mm)
    return Detections.of(foot, ["token"] * len(keep), seen_mm=seen,
                         marker_id=[int(ids.ravel()[i]) for i in keep])

"""Shared helpers of the vision tests: calibrations of known cameras, devscene loading."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

from calibration.model import Calibration, Lens


def pose(height_mm: float = 900.0, tilt_deg: float = 15.0, size: tuple[int, int] = (1280, 720),
         hfov_deg: float = 65.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """K, R, t of a camera above the table origin, tilted about the x axis."""
    w, h = size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    K = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])
    a = math.radians(tilt_deg)
    # looking down (camera z towards -Z world), tilted
    R0 = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1.0]])
    Rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    R = Rx @ R0
    C = np.array([0.0, height_mm * math.tan(a), height_mm])
    t = -R @ C
    return K, R, t


def calibration_of(K: np.ndarray, R: np.ndarray, t: np.ndarray, size: tuple[int, int],
                   with_lens: bool = False) -> Calibration:
    """The exact table calibration of a pinhole camera."""
    G = K @ np.c_[R[:, 0], R[:, 1], t]
    H = np.linalg.inv(G)
    lens = Lens(size, K, np.zeros(5)) if with_lens else None
    return Calibration(size, H / H[2, 2], lens)


def load_devscene(folder: Path, name: str) -> tuple[np.ndarray, Calibration, dict]:
    """A devscene's image, its calibration from its points (as a user makes it), its truth."""
    d = json.loads((folder / f"{name}.json").read_text())
    img = cv2.imread(str(folder / f"{name}.jpg"))
    px = np.array([p["pixel"] for p in d["calibration_points"]], float)
    world = np.array([p["world"] for p in d["calibration_points"]], float)
    lens = None
    if d["camera"].get("dist") is not None:
        lens = Lens((d["width"], d["height"]), d["camera"]["K"], d["camera"]["dist"])
        px = lens.undistort_points(px)
    H, _ = cv2.findHomography(px, world)
    return img, Calibration((d["width"], d["height"]), H, lens), d


def detect_drawn_case(seed: int) -> tuple[object, object]:
    """The render of the renderer's variety case at ``seed`` (no hand) and the scene the
    detector reads from it, looking for tiles, coins and posts."""
    from tabletop.render import variety
    from vision import Detector, DetectorConfig

    r = variety.draw_case(seed, hand=False).render()
    res = Detector(r.calibration(), None, DetectorConfig(kinds=("tile", "coin", "post"))
                   ).detect(r.image)
    return r, res.scene


def tile_angle_diff_deg(a: float, b: float) -> float:
    """How far apart two tile angles are, a square's angles being the same every 90 degrees."""
    d = (a - b) % 90.0
    return min(d, 90.0 - d)

"""Drift watch: are the calibration markers still where the calibration put them?

Cheap enough for every still frame: it looks only at small windows round the markers'
expected places (from CAL.json's ``extra["markers"]``), finds the markers there with sub-pixel
corners, maps them to the table by the calibration and measures how far they are from their
known millimetres. Only when none is found where expected does it search the whole frame (the
camera may have moved far).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.homography import detect_markers, detector_parameters, to_grey
from calibration.model import Calibration

EDGE_PX = 3
"""Corners closer than this to a window's edge belong to a marker the window cuts."""

TOLERANCE_MM = 1.5
"""Median marker displacement above which the view counts as moved."""


@dataclass(frozen=True)
class DriftReport:
    """What the drift watch saw on one frame.

    Attributes:
        moved: True when the markers are measurably away from where the calibration expects
            them (or none is where expected but some are elsewhere).
        shift_mm: Median marker displacement in table mm (NaN when no marker was seen).
        shift_max_mm: Largest marker displacement (NaN when none seen).
        markers_seen: Calibration markers found.
        markers_expected: Calibration markers the watch looks for.
        status: ``ok``, ``moved`` or ``unknown`` (no marker seen: covered, or moved far).
        message: One sentence for the dashboard.
    """

    moved: bool
    shift_mm: float
    shift_max_mm: float
    markers_seen: int
    markers_expected: int
    status: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """JSON-able (NaN as null)."""

        def num(v: float) -> float | None:
            return round(v, 3) if math.isfinite(v) else None

        return {"moved": self.moved, "shift_mm": num(self.shift_mm),
                "shift_max_mm": num(self.shift_max_mm), "markers_seen": self.markers_seen,
                "markers_expected": self.markers_expected, "status": self.status,
                "message": self.message}


class DriftWatch:
    """Watches the markers of one calibration.

    Args:
        cal: A calibration made from markers (its ``extra["markers"]``).
        tolerance_mm: Median displacement that counts as moved.
        search_px: Half-margin of the window round each expected marker (default: 60 % of
            the marker's size in pixels, at least 12 px).

    Raises:
        CalibrationError: the calibration has no markers to watch (made from points).
    """

    def __init__(self, cal: Calibration, tolerance_mm: float = TOLERANCE_MM,
                 search_px: float | None = None) -> None:
        markers = cal.extra.get("markers")
        if not isinstance(markers, dict) or not markers.get("corners_mm"):
            raise CalibrationError("this calibration was not made from markers, so there is "
                                   "nothing to watch for drift")
        self.cal = cal
        self.tolerance_mm = float(tolerance_mm)
        self.dictionary_name = str(markers.get("dictionary", "DICT_4X4_250"))
        ids = markers.get("inlier_ids") or [int(k) for k in markers["corners_mm"]]
        self.corners_mm = {int(k): np.asarray(markers["corners_mm"][str(k)], float).reshape(4, 2)
                           for k in ids}
        w, h = cal.image_size
        self.windows: dict[int, tuple[int, int, int, int]] = {}
        for k, c_mm in self.corners_mm.items():
            px = cal.to_image(c_mm)
            side = float(np.linalg.norm(np.diff(np.r_[px, px[:1]], axis=0), axis=1).mean())
            m = search_px if search_px is not None else max(12.0, 0.6 * side)
            x0, y0 = np.floor(px.min(axis=0) - m).astype(int)
            x1, y1 = np.ceil(px.max(axis=0) + m).astype(int)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 > 8 and y1 - y0 > 8:
                self.windows[k] = (int(x0), int(y0), int(x1), int(y1))
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary_name))
        self._detector = cv2.aruco.ArucoDetector(d, detector_parameters())
        # the windows packed side by side into one image, so one detector call sees them all
        self._tiles: dict[int, tuple[int, int, int, int, int, int]] = {}
        gap = 8
        row_w = max(400, int(math.sqrt(sum((x1 - x0 + gap) * (y1 - y0 + gap)
                                              for x0, y0, x1, y1 in self.windows.values()))))
        mx = my = row_h = 0
        for k, (x0, y0, x1, y1) in self.windows.items():
            if mx and mx + x1 - x0 > row_w:
                mx, my, row_h = 0, my + row_h + gap, 0
            self._tiles[k] = (mx, my, x0, y0, x1, y1)
            mx += x1 - x0 + gap
            row_h = max(row_h, y1 - y0)
        self._mosaic_size = (max([t[0] + t[4] - t[2] for t in self._tiles.values()] or [1]),
                             max([t[1] + t[5] - t[3] for t in self._tiles.values()] or [1]))

    def _mosaic(self, frame: np.ndarray) -> np.ndarray:
        w, h = self._mosaic_size
        out = np.full((h, w), 255, np.uint8)
        for mx, my, x0, y0, x1, y1 in self._tiles.values():
            out[my:my + y1 - y0, mx:mx + x1 - x0] = to_grey(frame[y0:y1, x0:x1])
        return out

    def _shift_mm(self, marker_id: int, corners_px: np.ndarray) -> float:
        """How far the marker's centre is from where it was (corner biases cancel)."""
        seen_mm = self.cal.to_table(corners_px)
        return float(np.linalg.norm((seen_mm - self.corners_mm[marker_id]).mean(axis=0)))

    def check(self, frame_bgr: np.ndarray) -> DriftReport:
        """Measures the markers on one frame.

        Raises:
            ResolutionMismatch: the frame is not of the calibrated size.
        """
        frame = np.asarray(frame_bgr)
        self.cal.check_image_size((frame.shape[1], frame.shape[0]), "the frame")
        shifts: dict[int, float] = {}
        mosaic = self._mosaic(frame)
        corners, ids, _ = self._detector.detectMarkers(mosaic)
        for c, i in zip(corners, np.ravel(ids) if ids is not None else [], strict=True):
            k = int(i)
            if k not in self._tiles or k in shifts:
                continue
            mx, my, x0, y0, x1, y1 = self._tiles[k]
            c = c.reshape(4, 2) - (mx, my)
            # a marker cut by its window's edge has false corners: all four well inside only
            b = EDGE_PX
            if (c.min() >= b and c[:, 0].max() <= x1 - x0 - 1 - b
                    and c[:, 1].max() <= y1 - y0 - 1 - b):
                shifts[k] = self._shift_mm(k, c + np.array([x0, y0]))
        searched_all = False
        if not shifts:
            searched_all = True
            found = detect_markers(frame, self.dictionary_name, refine=False)
            for i, c in zip(found.ids, found.corners_px, strict=True):
                if int(i) in self.corners_mm and int(i) not in shifts:
                    shifts[int(i)] = self._shift_mm(int(i), c)
        return self._report(shifts, searched_all)

    def _report(self, shifts: dict[int, float], searched_all: bool) -> DriftReport:
        n = len(self.corners_mm)
        if not shifts:
            return DriftReport(False, math.nan, math.nan, 0, n, "unknown",
                               "No calibration marker is in view: the mat is covered or the "
                               "camera has moved; drift cannot be checked.")
        values = np.array(list(shifts.values()))
        med, top = float(np.median(values)), float(values.max())
        moved = med > self.tolerance_mm or (searched_all and med > self.tolerance_mm / 2)
        if moved:
            msg = (f"The camera or the mat has moved by about {med:.1f} mm since calibration "
                   f"({len(shifts)} of {n} markers seen); calibrate again.")
        else:
            msg = (f"Calibration holds: markers within {med:.2f} mm of where they were "
                   f"({len(shifts)} of {n} seen).")
        return DriftReport(bool(moved), med, top, len(shifts), n,
                           "moved" if moved else "ok", msg)


def check_drift(cal: Calibration, frame_bgr: np.ndarray,
                tolerance_mm: float = TOLERANCE_MM) -> DriftReport:
    """One-off :meth:`DriftWatch.check` (build a :class:`DriftWatch` once for a stream)."""
    return DriftWatch(cal, tolerance_mm).check(frame_bgr)

"""Drawing a calibration on its image: markers used and ignored, and the table's mm grid.

A grid that does not lie on the table, or a marker drawn in red, shows at a glance what went
wrong (``tabletop calibrate IMAGE -o CAL.json --show CHECK.png``).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration

USED_BGR = (60, 200, 60)
IGNORED_BGR = (40, 40, 230)
GRID_BGR = (230, 160, 40)


def grid_lines_px(cal: Calibration, step_mm: float,
                  area_mm: tuple[float, float, float, float], samples: int = 24
                  ) -> list[tuple[bool, np.ndarray]]:
    """The table's millimetre grid seen through ``cal``: one ``(is_axis, points (K, 2) px)``
    per line, at whole multiples of ``step_mm`` over ``area_mm`` (x0, y0, x1, y1).

    Each line is sampled at ``samples`` points; the points behind the camera, not finite or
    far outside the picture are left out, and a line with fewer than two left is dropped.
    ``is_axis``: the line is one of the table's axes (x = 0 or y = 0).

    >>> cal = Calibration((200, 100), np.diag([1.0, 1.0, 1.0]))
    >>> [(axis, p[0].tolist(), p[-1].tolist()) for axis, p in grid_lines_px(
    ...     cal, 100.0, (0.0, 0.0, 199.0, 99.0), samples=2)]  # doctest: +NORMALIZE_WHITESPACE
    [(True, [0.0, 0.0], [0.0, 99.0]), (False, [100.0, 0.0], [100.0, 99.0]),
     (False, [200.0, 0.0], [200.0, 99.0]), (True, [0.0, 0.0], [199.0, 0.0]),
     (False, [0.0, 100.0], [199.0, 100.0])]
    """
    x0, y0, x1, y1 = area_mm
    w, h = cal.image_size
    out: list[tuple[bool, np.ndarray]] = []
    for axis, (lo, hi), (a, b) in ((0, (x0, x1), (y0, y1)), (1, (y0, y1), (x0, x1))):
        first = np.floor(lo / step_mm) * step_mm
        last = np.ceil(hi / step_mm) * step_mm
        for v in np.arange(first, last + step_mm / 2, step_mm):
            line = np.zeros((samples, 2))
            line[:, axis] = v
            line[:, 1 - axis] = np.linspace(a, b, samples)
            front = (np.c_[line, np.ones(samples)] @ cal.inverse.T)[:, 2] > 0
            if front.sum() < 2:
                continue
            px = cal.to_image(line[front])
            ok = np.all(np.isfinite(px), axis=1) & (np.abs(px) < 4 * max(w, h)).all(axis=1)
            if ok.sum() >= 2:
                out.append((bool(abs(v) < 1e-6), px[ok]))
    return out


class CalibrationAnnotator:
    """Draws a calibration's markers and millimetre grid.

    Args:
        grid_mm: Grid spacing on the table.
        extent_mm: Half-width of the grid round the markers' middle (default: the markers'
            spread, doubled).
        thickness: Line thickness in pixels.
    """

    def __init__(self, grid_mm: float = 50.0, extent_mm: float | None = None,
                 thickness: int = 1) -> None:
        self.grid_mm = float(grid_mm)
        self.extent_mm = extent_mm
        self.thickness = int(thickness)

    def _grid(self, out: np.ndarray, cal: Calibration, centre: np.ndarray, half: float) -> None:
        g = self.grid_mm
        lo = np.floor((centre - half) / g) * g  # lines at whole multiples of the spacing
        hi = np.ceil((centre + half) / g) * g
        for _, px in grid_lines_px(cal, g, (lo[0], lo[1], hi[0], hi[1]), samples=60):
            cv2.polylines(out, [np.round(px).astype(np.int32)], False, GRID_BGR,
                          self.thickness, cv2.LINE_AA)

    def annotate(self, image_bgr: np.ndarray, cal: Calibration) -> np.ndarray:
        """A copy of the image with the calibration drawn on it."""
        out = np.array(image_bgr, copy=True)
        if out.ndim == 2:
            out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
        markers = cal.extra.get("markers") if isinstance(cal.extra, dict) else None
        fit = cal.extra.get("fit") if isinstance(cal.extra, dict) else None
        if isinstance(markers, dict) and markers.get("corners_mm"):
            pts = np.concatenate([np.asarray(v, float) for v in markers["corners_mm"].values()])
        elif isinstance(fit, dict) and fit.get("world_mm"):
            pts = np.asarray(fit["world_mm"], float)
        else:
            w, h = cal.image_size
            pts = cal.to_table([[w / 2, h / 2]])
        centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
        half = self.extent_mm or float(np.max(pts.max(axis=0) - pts.min(axis=0)))
        self._grid(out, cal, centre, half)
        if isinstance(markers, dict):
            used = set(markers.get("inlier_ids", []))
            for key, corners in markers.get("corners_px", {}).items():
                quad = np.round(np.asarray(corners, float)).astype(np.int32)
                colour = USED_BGR if int(key) in used else IGNORED_BGR
                cv2.polylines(out, [quad], True, colour, self.thickness + 1, cv2.LINE_AA)
                cv2.putText(out, str(key), tuple(int(v) for v in quad[0]),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
        elif isinstance(fit, dict) and fit.get("pixels"):
            raw = np.asarray(fit["pixels"], float)
            if cal.lens is not None:
                raw = cal.lens.distort_points(raw)
            for p in np.round(raw).astype(int):
                cv2.drawMarker(out, (int(p[0]), int(p[1])), USED_BGR, cv2.MARKER_CROSS, 12,
                               self.thickness + 1)
        return out

"""Marker squares found without ArUco's contour stage, their corners fitted to the edges.

A token's marker a few pixels a cell (a wide view, a high camera) is lost by ArUco's own
contour stage: its adaptive threshold breaks the thin black border into pieces and no piece is
a square. Here the marker is found as a whole: the dark print of its size in the frame
divided by its local white (its black border and dark cells closed into one blob, holes and
all), or the token's white square of its size brighter than the table round it (the marker
then the middle ``marker_mm`` of it). Either is only a first guess: :func:`fitted_square`
moves each side onto the marker's outer edge (black border to white margin), a line fitted to
where it rises halfway from black to white across the side, at sub-pixel places, and the
corners are where the lines meet. What a square is (its id, or nothing) is for the bit read
(``tokens.read_bits``).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration

DARK_LEVEL = 120.0
"""Print darker than this in the flattened frame (its local white is 200) is ink."""


def _ordered(quad_px: np.ndarray) -> np.ndarray:
    """The four corners clockwise on the image (y down), as ArUco orders them."""
    q = np.asarray(quad_px, np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    return q[np.argsort(np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0]))]


def _side_mm(calibration: Calibration, quad_px: np.ndarray) -> tuple[float, float]:
    """The shortest and longest side of a frame quad on the table (mm)."""
    q = calibration.to_table(quad_px)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    return float(sides.min()), float(sides.max())


def _blob_quads(mask: np.ndarray, close_px: int) -> list[np.ndarray]:
    """The minimum-area rectangles (4, 2) of the outer outlines of ``mask`` closed by a
    square of ``close_px``."""
    k = max(1, close_px)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.boxPoints(cv2.minAreaRect(c)) for c in contours if len(c) >= 4]


def candidate_squares(grey: np.ndarray, flat: np.ndarray, calibration: Calibration,
                      marker_mm: float, token_mm: float, cell_px: float,
                      tolerance: float = 0.3) -> list[np.ndarray]:
    """First guesses (4, 2) of marker squares in the frame, clockwise: dark print of a
    marker's size in ``flat`` (the frame divided by its local white) and white squares of a
    token's size brighter than the table round them in ``grey`` (their middle
    ``marker_mm``); each within ``tolerance`` of its size on the table, near square."""
    out: list[np.ndarray] = []
    dark = (flat < DARK_LEVEL).astype(np.uint8)
    k = round(2 * token_mm / (marker_mm / 6.0) * cell_px) | 1
    local = cv2.blur(grey.astype(np.float32), (k, k))
    bright = (grey.astype(np.float32) > local + 12.0).astype(np.uint8)
    for mask, size_mm, scale in ((dark, marker_mm, 1.0), (bright, token_mm, marker_mm / token_mm)):
        for q in _blob_quads(mask, round(cell_px)):
            lo, hi = _side_mm(calibration, q)
            if lo < (1 - tolerance) * size_mm or hi > (1 + tolerance) * size_mm:
                continue
            if hi > (1 + tolerance / 2) * lo:
                continue
            c = q.mean(axis=0)
            out.append(_ordered(c + (q - c) * scale))
    return out


def _bilinear(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """``img`` (float32) sampled at points (..., 2) by bilinear interpolation."""
    pts = xy.reshape(-1, 1, 2).astype(np.float32)
    return cv2.remap(img, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(xy.shape[:-1])


def _side_line(img: np.ndarray, a: np.ndarray, b: np.ndarray, centre: np.ndarray,
               cell_px: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The marker's outer edge near the side ``a``-``b``: a line (point, unit direction)
    fitted to where profiles across the side rise halfway from dark to light (about their
    steepest rise) (from 0.8 of a
    cell inside to 0.6 outside), or None where too few profiles rise."""
    d = b - a
    length = float(np.hypot(*d))
    if length < 4:
        return None
    u = d / length
    n = np.array([-u[1], u[0]])
    if np.dot(n, (a + b) / 2 - centre) < 0:
        n = -n
    ts = np.linspace(0.15, 0.85, max(5, round(length * 0.7)))
    step = 0.1
    offs = np.arange(-0.8 * cell_px, 0.6 * cell_px + 1e-9, step)
    pts = a + ts[:, None, None] * d + offs[None, :, None] * n
    prof = _bilinear(img, pts)
    grad = np.gradient(prof, axis=1)
    edge: list[np.ndarray] = []
    for i in range(len(ts)):
        j = int(np.argmax(grad[i]))
        if grad[i, j] <= 0 or j == 0 or j == len(offs) - 1:
            continue
        if prof[i, -1] - prof[i, 0] < 0.25 * max(float(prof[i].max()), 1.0):
            continue
        lo_at = int(np.argmin(prof[i, :j + 1]))
        hi_at = j + int(np.argmax(prof[i, j:]))
        mid = (prof[i, lo_at] + prof[i, hi_at]) / 2
        run = prof[i, lo_at:hi_at + 1]
        k = lo_at + int(np.argmax(run >= mid))  # first sample at or above halfway
        if k == lo_at:
            continue
        y0, y1 = prof[i, k - 1], prof[i, k]
        at = offs[k - 1] + step * float((mid - y0) / max(y1 - y0, 1e-6))
        edge.append(a + ts[i] * d + at * n)
    if len(edge) < max(3, len(ts) // 2):
        return None
    line = cv2.fitLine(np.float32(edge), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array(line[2:], float), np.array(line[:2], float)


def _meet(p: tuple[np.ndarray, np.ndarray], q: tuple[np.ndarray, np.ndarray]
          ) -> np.ndarray | None:
    """Where two lines (point, direction) cross, None when near parallel."""
    (p0, pd), (q0, qd) = p, q
    den = pd[0] * qd[1] - pd[1] * qd[0]
    if abs(den) < 1e-3:
        return None
    t = ((q0[0] - p0[0]) * qd[1] - (q0[1] - p0[1]) * qd[0]) / den
    return p0 + t * pd


def fitted_square(img: np.ndarray, quad_px: np.ndarray, cell_px: float, rounds: int = 2
                  ) -> np.ndarray | None:
    """The marker square near the first guess ``quad_px`` (4, 2, clockwise) with each side
    on the marker's outer edge in ``img`` (float32; the flattened frame), ``rounds`` times;
    None where a side has no edge or the corners move more than a cell."""
    q = _ordered(quad_px)
    for _ in range(rounds):
        c = q.mean(axis=0)
        lines = [_side_line(img, q[i], q[(i + 1) % 4], c, cell_px) for i in range(4)]
        if any(line is None for line in lines):
            return None
        new = [_meet(lines[i - 1], lines[i]) for i in range(4)]
        if any(p is None for p in new):
            return None
        moved = np.array(new)
        if float(np.abs(moved - q).max()) > cell_px:
            return None
        q = moved
    return q

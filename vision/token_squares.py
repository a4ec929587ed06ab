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

MARKER_CELLS = 6
"""Cells across a 4x4 marker, its black border included."""

DARK_LEVEL = 120.0
"""Print darker than this in the flattened frame (its local white is 200) is ink."""

MIN_RISE = 0.08
"""A profile across a side rising less than this share of its light level shows no edge: a
glare's veil over a dark table lifts the black print to within a fifth of the white
(black 170 of 255), so the rise is measured against the square's own (:data:`EDGE_SHARE`)."""

EDGE_SHARE = 0.5
"""A side's edge point stands where its profile rises at least this share of the median rise
of the square's four sides (a cell's edge inside the print, a grain's, is weaker)."""


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
    # the dark print closed by half a cell, less than its white margin (3/4 of a cell)
    for mask, size_mm, scale, close in ((dark, marker_mm, 1.0, 0.5),
                                        (bright, token_mm, marker_mm / token_mm, 1.0)):
        near_px = size_mm / marker_mm * MARKER_CELLS * cell_px  # its size at the centre
        for q in _blob_quads(mask, round(close * cell_px)):
            px = np.linalg.norm(q[[1, 2]] - q[[0, 1]], axis=1)
            if px.max() < 0.5 * near_px or px.min() > 2 * near_px:
                continue  # far from its size wherever it lies (before the exact test)
            lo, hi = _side_mm(calibration, q)
            if lo < (1 - tolerance) * size_mm or hi > (1 + tolerance) * size_mm:
                continue
            if hi > (1 + tolerance / 2) * lo:
                continue
            c = q.mean(axis=0)
            out.append(_ordered(c + (q - c) * scale))
    return out


def _bilinear(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """``img`` (float32) sampled at points (rows, columns, 2) by bilinear interpolation."""
    pts = xy.astype(np.float32)
    return cv2.remap(img, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _side_edge(img: np.ndarray, a: np.ndarray, b: np.ndarray, centre: np.ndarray,
               cell_px: float, min_rise: float = MIN_RISE
               ) -> tuple[np.ndarray, np.ndarray]:
    """The marker's outer edge near the side ``a``-``b`` (k, 2) and each point's rise (k,):
    where profiles across the side (from 1.3 cells inside to 0.6 outside) rise halfway from
    dark to light about their steepest rise, at sub-pixel places; profiles rising less than
    ``min_rise`` of their light level give none."""
    d = b - a
    length = float(np.hypot(*d))
    if length < 4:
        return np.zeros((0, 2)), np.zeros(0)
    u = d / length
    n = np.array([-u[1], u[0]])
    if np.dot(n, (a + b) / 2 - centre) < 0:
        n = -n
    ts = np.linspace(0.15, 0.85, max(5, round(length * 0.7)))
    step = 0.1
    offs = np.arange(-1.3 * cell_px, 0.6 * cell_px + 1e-9, step)
    pts = a + ts[:, None, None] * d + offs[None, :, None] * n
    prof = _bilinear(img, pts)
    grad = np.gradient(prof, axis=1)
    edge: list[np.ndarray] = []
    rises: list[float] = []
    for i in range(len(ts)):
        j = int(np.argmax(grad[i]))
        if grad[i, j] <= 0 or j == 0 or j == len(offs) - 1:
            continue
        lo_at = int(np.argmin(prof[i, :j + 1]))
        hi_at = j + int(np.argmax(prof[i, j:]))
        rise = float(prof[i, hi_at] - prof[i, lo_at])
        if rise < min_rise * max(float(prof[i, hi_at]), 1.0):
            continue
        mid = (prof[i, lo_at] + prof[i, hi_at]) / 2
        run = prof[i, lo_at:hi_at + 1]
        k = lo_at + int(np.argmax(run >= mid))  # first sample at or above halfway
        if k == lo_at:
            continue
        y0, y1 = prof[i, k - 1], prof[i, k]
        at = offs[k - 1] + step * float((mid - y0) / max(y1 - y0, 1e-6))
        edge.append(a + ts[i] * d + at * n)
        rises.append(rise)
    return np.array(edge).reshape(-1, 2), np.array(rises)


def _normal(angle: float, k: int, turn: int) -> np.ndarray:
    """The outward normal of side ``k``: ``angle`` and ``k`` quarter turns the way ``turn``
    (+1 counterclockwise on the table, -1 clockwise)."""
    a = angle + turn * k * np.pi / 2
    return np.array([np.cos(a), np.sin(a)])


def _turn(quad_mm: np.ndarray) -> int:
    """+1 where the corners (4, 2) on the table go counterclockwise, -1 clockwise (a table
    frame mirrored against the frame's: the Jungle board's, x to file g, y to rank 9)."""
    a, b = quad_mm[1] - quad_mm[0], quad_mm[3] - quad_mm[0]
    return 1 if a[0] * b[1] - a[1] * b[0] >= 0 else -1


def _moments(points_mm: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[float, ...]]]:
    """What a square's least-squares fit needs of each side's edge points, whatever the
    angle: the points' mean (2,) over all sides, and for each side, about that mean, its
    count, sums of x and y, and sums of x x, x y and y y."""
    pts = [np.asarray(p, np.float64).reshape(-1, 2) for p in points_mm]
    origin = np.concatenate(pts).mean(axis=0)
    sides = []
    for p in pts:
        r = p - origin
        sides.append((float(len(r)), *(float(v) for v in r.sum(axis=0)),
                      float(r[:, 0] @ r[:, 0]), float(r[:, 0] @ r[:, 1]),
                      float(r[:, 1] @ r[:, 1])))
    return origin, sides


def _square_on(moments: tuple[np.ndarray, list[tuple[float, ...]]], angle: float,
               turn: int = 1) -> tuple[np.ndarray, float, float]:
    """The square whose side ``k`` has the outward normal at ``angle`` + ``k`` quarter turns
    (the way ``turn`` says, :func:`_normal`), its centre (2,) and side fitted to each side's
    edge points (their :func:`_moments`) by least squares, ``n . c + h = n . p`` for every
    point ``p`` of a side of normal ``n``, the side ``2 h`` (an edge found inside or outside
    the print by a blur on all four sides moves no centre); its side and RMS (the printed
    side, not the fitted one, places the corners)."""
    origin, sides = moments
    # normal equations of (cx, cy, h): a 3 x 3 system, summed side by side
    a = np.zeros((3, 3))
    b = np.zeros(3)
    quad = 0.0
    nk = []
    for k, (m, sx, sy, sxx, sxy, syy) in enumerate(sides):
        nx, ny = (float(v) for v in _normal(angle, k, turn))
        along = nx * sx + ny * sy  # the sum of n . p
        a += m * np.array([[nx * nx, nx * ny, nx], [nx * ny, ny * ny, ny], [nx, ny, 1.0]])
        b += along * np.array([nx, ny, 1.0])
        quad += nx * nx * sxx + 2 * nx * ny * sxy + ny * ny * syy
        nk.append((nx, ny, m, along))
    cx, cy, h = np.linalg.solve(a, b)
    sse, count = quad, 0.0
    for nx, ny, m, along in nk:
        fit = nx * cx + ny * cy + h
        sse += m * fit * fit - 2 * fit * along
        count += m
    return np.array([cx, cy]) + origin, float(2 * h), float(np.sqrt(max(sse, 0.0) / count))


def _fitted_on_table(points_mm: list[np.ndarray], angle0: float, turn: int = 1
                     ) -> tuple[np.ndarray, float, float, float]:
    """:func:`_square_on` with its angle searched within 8 degrees of ``angle0`` (golden
    section): centre, side, angle, RMS."""
    moments = _moments(points_mm)
    lo, hi = angle0 - np.radians(8), angle0 + np.radians(8)
    g = (np.sqrt(5) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1 = _square_on(moments, x1, turn)[2]
    f2 = _square_on(moments, x2, turn)[2]
    for _ in range(24):
        if f1 < f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - g * (hi - lo)
            f1 = _square_on(moments, x1, turn)[2]
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + g * (hi - lo)
            f2 = _square_on(moments, x2, turn)[2]
    a = (lo + hi) / 2
    c, side, rms = _square_on(moments, a, turn)
    return c, side, a, rms


def fitted_square(img: np.ndarray, quad_px: np.ndarray, cell_px: float,
                  calibration: Calibration, side_mm: float, rounds: int = 2,
                  max_rms_mm: float = 0.6
                  ) -> np.ndarray | None:
    """The marker square near the first guess ``quad_px`` (4, 2), clockwise, in frame
    pixels: the edge points of each side in ``img`` (float32, the flattened frame;
    :func:`_side_edge`) moved onto the table plane, where one square of side ``side_mm``
    (its centre, angle) is fitted to all four sides at once, points further than twice the
    RMS dropped once;
    ``rounds`` times from the last square. None where the guess is not half to twice a
    marker's size, a side has fewer than three edge
    points, the fit's RMS exceeds ``max_rms_mm`` or its corners move more than 1.5 cells."""
    q = _ordered(quad_px)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if sides.max() > 2 * MARKER_CELLS * cell_px or sides.min() < MARKER_CELLS * cell_px / 2:
        return None  # no marker's size: nothing to fit
    for _ in range(rounds):
        c = q.mean(axis=0)
        found = [_side_edge(img, q[i], q[(i + 1) % 4], c, cell_px) for i in range(4)]
        rises = np.concatenate([r for _, r in found])
        if len(rises) == 0:
            return None
        floor = EDGE_SHARE * float(np.median(rises))
        edges = [e[r >= floor] for e, r in found]
        if min(len(e) for e in edges) < 3:
            return None
        pts = [calibration.to_table(e) for e in edges]
        qm = calibration.to_table(q)
        turn = _turn(qm)
        mid = (qm[0] + qm[1]) / 2 - qm.mean(axis=0)  # side 0's outward normal
        centre, side, angle, rms = _fitted_on_table(pts, float(np.arctan2(mid[1], mid[0])),
                                                 turn)
        keep = []
        for k, p in enumerate(pts):
            r = np.abs((p - centre) @ _normal(angle, k, turn) - side / 2)
            keep.append(p[r <= max(2 * rms, 0.05)])
        if min(len(p) for p in keep) < 3:
            return None
        centre, side, angle, rms = _fitted_on_table(keep, angle, turn)
        if rms > max_rms_mm or abs(side - side_mm) > 0.15 * side_mm:
            return None
        side = side_mm  # the edges' halfway may lie inside or outside the print (a blur)
        # corner k between side k-1 and side k
        corners = np.array([centre + side / 2 * (_normal(angle, k, turn)
                                                 + _normal(angle, k - 1, turn))
                            for k in range(4)])
        moved = _ordered(calibration.to_image(corners).reshape(4, 2))
        shift = min(float(np.abs(np.roll(moved, k, axis=0) - q).max()) for k in range(4))
        if shift > 1.5 * cell_px:
            return None
        q = moved
    return q

"""Marker corners from their edges: unbiased under blur, where corner detectors are not.

A blurred L-shaped corner (the outer corner of a marker's black border) rounds off, and
``cornerSubPix`` finds it about half a pixel inside the marker. A straight edge's gradient,
though, stays centred on the edge for any symmetric blur. So each side of the marker is
sampled across at many points away from the corners, each sample's edge found to sub-pixel
(the centroid of the gradient across it, on a bicubic resampling), a line fitted through them
(total least squares, outliers dropped), and the corners are where neighbouring lines meet.
"""

from __future__ import annotations

import cv2
import numpy as np

STEP_PX = 0.25
"""Sampling step across an edge."""

MIN_RISE = 12.0
"""Grey levels an edge must rise by to be measured."""

INTERPOLATION = cv2.INTER_CUBIC
"""Resampling of the profiles (bilinear ones have a kinked gradient at every pixel)."""


def _edge_offsets(profiles: np.ndarray, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each profile rises from dark to bright (its gradient's centroid), and by how much.

    The centroid of the rising gradient is the edge for any symmetric blur, and unlike the
    gradient's peak it does not lock onto the pixel grid.

    Args:
        profiles: (M, T) grey values along ``ts`` (increasing outward).
        ts: (T,) offsets in pixels.
    """
    g = np.clip(np.gradient(profiles, axis=1), 0, None)
    total = g.sum(axis=1)
    return (g * ts).sum(axis=1) / np.maximum(total, 1e-9), total


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Total least squares line through points, refitted without outliers: (point, direction)."""
    for _ in range(2):
        if len(points) < 4:
            return None
        centre = points.mean(axis=0)
        _, _, vt = np.linalg.svd(points - centre)
        normal = vt[1]
        res = (points - centre) @ normal
        mad = np.median(np.abs(res - np.median(res))) + 1e-3
        keep = np.abs(res) < 4 * 1.4826 * mad + 0.05
        if keep.all():
            break
        points = points[keep]
    return centre, vt[0]


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    A = np.array([d1, -d2]).T
    if abs(np.linalg.det(A)) < 1e-6:
        return None
    s = np.linalg.solve(A, p2 - p1)
    return p1 + s[0] * d1


def refine_corners(grey: np.ndarray, corners_px: np.ndarray) -> np.ndarray:
    """Moves each marker's corners to where its fitted outer edges meet.

    Args:
        grey: (H, W) uint8 image.
        corners_px: (N, 4, 2) marker corners (ArUco's order), roughly right (within a pixel).

    Returns:
        (N, 4, 2) refined corners; a marker whose edges cannot be fitted keeps its corners.
    """
    corners = np.asarray(corners_px, dtype=float).reshape(-1, 4, 2)
    if len(corners) == 0:
        return corners.copy()
    img = grey.astype(np.float32)
    out = corners.copy()
    for m, quad in enumerate(corners):
        centre = quad.mean(axis=0)
        side_px = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        if side_px.min() < 8:
            continue  # too small to sample its edges
        cell = side_px.mean() / 6.0
        half = float(np.clip(0.45 * cell, 1.5, 5.0))
        ts = np.arange(-half, half + 1e-9, STEP_PX)
        xs, ys, bases, normals, counts = [], [], [], [], []
        for j in range(4):
            p, q = quad[j], quad[(j + 1) % 4]
            d = (q - p) / side_px[j]
            n = np.array([d[1], -d[0]])
            if n @ (p - centre) < 0:
                n = -n
            k = max(6, int(0.6 * side_px[j]))
            s = np.linspace(0.2, 0.8, k)[:, None] * (q - p) + p
            pts = s[:, None, :] + ts[None, :, None] * n
            xs.append(pts[..., 0])
            ys.append(pts[..., 1])
            bases.append(s)
            normals.append(n)
            counts.append(k)
        mx = np.concatenate(xs).astype(np.float32)
        my = np.concatenate(ys).astype(np.float32)
        profiles = cv2.remap(img, mx, my, INTERPOLATION, borderMode=cv2.BORDER_REPLICATE)
        offs, strength = _edge_offsets(profiles.astype(float), ts)
        lines = []
        start = 0
        for j in range(4):
            sl = slice(start, start + counts[j])
            start += counts[j]
            good = strength[sl] > max(MIN_RISE, 0.25 * float(np.median(strength[sl])))
            edge = bases[j][good] + offs[sl][good][:, None] * normals[j]
            lines.append(_fit_line(edge))
        if any(line is None for line in lines):
            continue
        new = []
        for j in range(4):
            a, b = lines[(j - 1) % 4], lines[j]
            x = _intersect(a[0], a[1], b[0], b[1])  # type: ignore[index]
            new.append(x)
        if any(x is None for x in new):
            continue
        new_arr = np.array(new)
        if np.linalg.norm(new_arr - quad, axis=1).max() > max(2.0, 0.75 * cell):
            continue  # the fit went astray: keep the detector's corners
        out[m] = new_arr
    return out

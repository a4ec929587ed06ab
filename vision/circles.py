"""A generic circle finder for round objects on a plain surface (no calibration needed).

Used for photos that are not of a calibrated table (the coin photos of ``../shared/realdata``):
the surface is taken away with a morphological top-hat (uneven light does not matter), the
objects are thresholded (Otsu), and touching objects are split at the peaks of the distance
transform, one circle per peak.

>>> import cv2, numpy as np
>>> img = np.full((120, 200), 40, np.uint8)
>>> for x in (50, 88, 150):
...     _ = cv2.circle(img, (x, 60), 19, 200, -1)
>>> len(find_circles(img))
3
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.errors import FrameError


def find_circles(image: np.ndarray, max_radius_px: float | None = None) -> np.ndarray:
    """Circles ``(x, y, r)`` in pixels, shape (N, 3), of round objects on a plain background.

    Args:
        image: uint8 grey or BGR image.
        max_radius_px: Largest object radius expected; None: a quarter of the smaller side.

    Raises:
        FrameError: not an 8-bit image.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.size == 0:
        raise FrameError("find_circles needs a non-empty 8-bit image")
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    h, w = grey.shape
    rmax = max_radius_px or min(h, w) / 4.0
    border = np.r_[grey[0], grey[-1], grey[:, 0], grey[:, -1]]
    bg = float(np.median(border))
    k = int(2 * rmax + 1) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    pad = k
    big = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=int(bg))
    if bg < float(np.median(grey)):  # bright objects on a dark surface
        hat = cv2.morphologyEx(big, cv2.MORPH_TOPHAT, kernel)
    else:
        hat = cv2.morphologyEx(big, cv2.MORPH_BLACKHAT, kernel)
    hat = hat[pad:-pad, pad:-pad]
    thr, mask = cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for j, c in enumerate(contours):  # fill holes inside objects, not the surface between them
        if hier is None or hier[0][j][3] < 0:
            continue
        hole = np.zeros_like(mask)
        cv2.drawContours(hole, [c], -1, 255, cv2.FILLED)
        inside = hat[(hole > 0) & (mask == 0)]
        if inside.size and float(np.median(inside)) > 0.4 * thr:
            mask = cv2.bitwise_or(mask, hole)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    dt = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    singles = []
    comps = []
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        sub = dt[y0:y0 + bh, x0:x0 + bw] * (labels[y0:y0 + bh, x0:x0 + bw] == i)
        r = float(sub.max())
        if r < 3:
            continue
        comps.append((i, sub, x0, y0, area, r))
        if area <= 1.35 * math.pi * r * r:
            singles.append(r)
    r_typ = float(np.median(singles)) if singles else None
    out = []
    for _i, sub, x0, y0, area, r in comps:
        if area <= 1.35 * math.pi * r * r and (r_typ is None or r <= 1.25 * r_typ):
            ys, xs = np.nonzero(sub >= r - 0.5)
            out.append((x0 + xs.mean(), y0 + ys.mean(), r))
            continue
        rr = r_typ
        if rr is None:  # no lone object to learn the size from: the typical peak of this one
            d5 = cv2.dilate(sub, np.ones((5, 5), np.uint8))
            vals = sub[(sub >= d5 - 1e-3) & (sub >= 0.5 * r)]
            rr = float(np.median(vals)) if vals.size else r
        if r > 1.25 * rr:  # overlapping objects: their peaks merge, so look closer
            rr *= 0.8
        kk = max(3, int(1.2 * rr) | 1)
        dil = cv2.dilate(sub, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kk, kk)))
        ys, xs = np.nonzero((sub >= dil - 1e-3) & (sub >= 0.6 * rr))
        kept: list[tuple[float, float, float]] = []
        for j in np.argsort(-sub[ys, xs]):
            p = (float(xs[j]), float(ys[j]))
            if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= (1.2 * rr) ** 2 for q in kept):
                kept.append((p[0], p[1], float(sub[ys[j], xs[j]])))
        out.extend((x0 + x, y0 + y, rad) for x, y, rad in kept)
    return np.array(out, float).reshape(-1, 3)

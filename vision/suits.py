"""Which suit (or segment colour) a symbol's pixels show.

A symbol seen through a camera is its ink mixed with the piece's pale body (small symbols
blur into it), so each observed colour ``o`` (relative to the body, 1 = body) is compared
with ``1 + a * (ink - 1)`` for the best mixing ``a`` of each candidate ink: black ink gives
greys, red ink pinks and reds, whatever the symbol's size or the light.

>>> inks = {"suns": (213, 94, 0), "moons": (0, 0, 0)}
>>> classify_ink(np.array([0.9, 0.6, 0.4]), inks)[0]
'suns'
>>> classify_ink(np.array([0.5, 0.5, 0.52]), inks)[0]
'moons'
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def classify_ink(rel_rgb: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]]
                 ) -> tuple[str | None, float]:
    """The ink best explaining a colour relative to the body, and a confidence in [0, 1].

    Args:
        rel_rgb: (3,) observed colour divided by the body's colour, RGB order.
        inks_rgb: name -> 8-bit RGB of each candidate ink.

    Returns:
        ``(name, confidence)``; confidence compares the best fit's residual with the runner-up.
    """
    o = np.asarray(rel_rgb, float) - 1.0
    if not np.all(np.isfinite(o)) or np.linalg.norm(o) < 0.05:
        return None, 0.0
    scores = []
    for name, rgb in inks_rgb.items():
        c = np.asarray(rgb, float) / 255.0 - 1.0
        a = float(np.clip(o @ c / max(c @ c, 1e-9), 0.02, 1.2))
        scores.append((float(np.linalg.norm(o - a * c)), name))
    scores.sort()
    best, name = scores[0]
    second = scores[1][0] if len(scores) > 1 else best + 1.0
    conf = float(np.clip(1.0 - best / max(second, 1e-9), 0.0, 1.0))
    return name, conf


def symbol_colour(patch_bgr: np.ndarray, region: np.ndarray, dark_fraction: float = 0.8
                  ) -> tuple[np.ndarray | None, int]:
    """The mean colour of the symbol pixels in a region, relative to the body (RGB).

    Args:
        patch_bgr: uint8 (H, W, 3) BGR.
        region: bool (H, W), where the piece's face is.
        dark_fraction: Symbol pixels are darker than this share of the body's brightness.

    Returns:
        ``(rel_rgb or None, number of symbol pixels)``.
    """
    px = patch_bgr[region].astype(float)
    if len(px) < 8:
        return None, 0
    lum = px.sum(axis=1)
    body = px[lum >= np.percentile(lum, 75)].mean(axis=0)
    ink = lum < dark_fraction * body.sum()
    n = int(ink.sum())
    if n < 3:
        return None, n
    rel = px[ink].mean(axis=0) / np.maximum(body, 1.0)
    return rel[::-1], n

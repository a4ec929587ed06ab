"""Sub-pixel sampling of images (shared by the stages that fit edges)."""

from __future__ import annotations

import numpy as np


def bilinear(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear samples of a 2-D image at points ``xy`` (..., 2), clamped to the image.

    >>> img = np.array([[0.0, 1.0], [2.0, 3.0]])
    >>> bilinear(img, np.array([[0.5, 0.5], [0.25, 0.0]])).tolist()
    [1.5, 0.25]
    """
    h, w = img.shape
    x = np.clip(xy[..., 0], 0, w - 1.001)
    y = np.clip(xy[..., 1], 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    return (img[y0, x0] * (1 - fx) * (1 - fy) + img[y0, x0 + 1] * fx * (1 - fy)
            + img[y0 + 1, x0] * (1 - fx) * fy + img[y0 + 1, x0 + 1] * fx * fy)

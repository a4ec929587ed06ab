"""Sub-pixel sampling of images (shared by the stages that fit edges)."""

from __future__ import annotations

import cv2
import numpy as np


def bilinear(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear samples of a 2-D image at points ``xy`` (..., 2), clamped to the image.

    OpenCV's remap does the work (several times faster than gathering with numpy); it
    interpolates at 1/32 of a pixel, so a sample is off by at most the image's gradient over
    1/64 of a pixel.

    >>> img = np.array([[0.0, 1.0], [2.0, 3.0]], np.float32)
    >>> bilinear(img, np.array([[0.5, 0.5], [0.25, 0.0]])).tolist()
    [1.5, 0.25]
    >>> bilinear(np.array([[0, 1], [2, 3]], np.uint8), np.array([[0.5, 0.5]])).tolist()
    [1.5]
    """
    xy = np.asarray(xy)
    shape = xy.shape[:-1]
    if not xy.size:
        return np.zeros(shape, np.float32)
    m = xy.reshape(1, -1, 2).astype(np.float32)
    src = img
    if img.dtype != np.float32:  # (remap would round whole-numbered images' samples)
        h, w = img.shape[:2]
        x0 = int(np.clip(np.floor(m[..., 0].min()), 0, w - 1))
        y0 = int(np.clip(np.floor(m[..., 1].min()), 0, h - 1))
        x1 = int(np.clip(np.ceil(m[..., 0].max()) + 2, x0 + 1, w))
        y1 = int(np.clip(np.ceil(m[..., 1].max()) + 2, y0 + 1, h))
        src = img[y0:y1, x0:x1].astype(np.float32)
        m = m - np.array([x0, y0], np.float32)
    out = cv2.remap(src, m, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(shape).astype(np.float32, copy=False)

"""Connected blobs of a mask, found cheaply when the mask is mostly empty.

``cv2.connectedComponentsWithStats`` over a whole top view costs several milliseconds, most of
it for statistics of a table that is empty almost everywhere. :func:`blobs` gives the same
components from the outer contours (a fraction of a millisecond), labelling each one only
inside its own bounding box: the same pixels, bounding boxes and areas, in a fraction of the
time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

_CROSS = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


@dataclass(frozen=True, eq=False)
class Blob:
    """One 8-connected component of a mask.

    Attributes:
        x, y, w, h: Its bounding box in the mask (pixels).
        area: Its pixel count.
        shape: The mask's ``(height, width)``.
    """

    x: int
    y: int
    w: int
    h: int
    area: int
    shape: tuple[int, int]
    _labels: np.ndarray
    _label: int
    _origin: tuple[int, int]

    def mask(self, pad: int = 0) -> tuple[np.ndarray, int, int]:
        """``(patch, x0, y0)``: uint8 0/255 of this blob alone in its box grown by ``pad``
        (clipped to the mask), and where the patch's top-left pixel lies in the mask."""
        hh, ww = self.shape
        xa, ya = max(0, self.x - pad), max(0, self.y - pad)
        xb, yb = min(ww, self.x + self.w + pad), min(hh, self.y + self.h + pad)
        out = np.zeros((yb - ya, xb - xa), np.uint8)
        ox, oy = self._origin
        own = self._labels[self.y - oy:self.y - oy + self.h, self.x - ox:self.x - ox + self.w]
        box = out[self.y - ya:self.y - ya + self.h, self.x - xa:self.x - xa + self.w]
        box[own == self._label] = 255
        return out, xa, ya

    def points(self) -> np.ndarray:
        """Its pixels as (N, 2) integer (column, row) coordinates in the mask."""
        ox, oy = self._origin
        own = self._labels[self.y - oy:self.y - oy + self.h, self.x - ox:self.x - ox + self.w]
        ys, xs = np.nonzero(own == self._label)
        return np.c_[xs + self.x, ys + self.y]


def blobs(mask: np.ndarray, min_box_area: int = 0) -> Iterator[Blob]:
    """The 8-connected components of a uint8 mask (non-zero = on), as :class:`Blob` values.

    Components whose bounding box holds fewer than ``min_box_area`` pixels are skipped (their
    area can only be smaller). Components lying in a hole of another are found too.

    >>> m = np.zeros((8, 10), np.uint8); m[1:3, 1:4] = 255; m[5:7, 6:9] = 1
    >>> sorted((b.x, b.y, b.w, b.h, b.area) for b in blobs(m))
    [(1, 1, 3, 2, 6), (6, 5, 3, 2, 6)]
    """
    hh, ww = mask.shape[:2]
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if w * h < min_box_area:
            continue
        own = np.zeros((h, w), np.uint8)
        cv2.drawContours(own, [c], -1, 255, thickness=cv2.FILLED, offset=(-x, -y))
        # one pixel more all round: whatever a filled outline misses on its border still
        # belongs here (another component cannot touch this one)
        own = cv2.dilate(own, _CROSS)
        part = cv2.bitwise_and(mask[y:y + h, x:x + w], own)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        for i in range(1, n):
            bx, by, bw, bh, area = (int(v) for v in stats[i])
            if bw * bh < min_box_area:
                continue
            yield Blob(x + bx, y + by, bw, bh, area, (hh, ww), labels, i, (x, y))

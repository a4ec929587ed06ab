"""The centre net's input: a coarse top view made independent of the light and the table.

The frame is warped onto the table at :data:`MM_PER_PX` millimetres a pixel (its own
:class:`~vision.topview.TopView`, from the frame halved). Each channel is then divided by a
large-scale local median of itself (in logs), so the table's colour, a lamp's fall-off, a
window's gradient and the wide stripes of a blind all cancel and what stands out of its
surroundings remains; three more channels give the brightness over the frame's level (a white
piece on a white table is not brighter than its surroundings, but it is bright). A last
channel says where the view sees the camera image.

>>> import numpy as np
>>> from calibration.model import Calibration
>>> cal = Calibration((320, 240), np.array([[1.0, 0, 160], [0, 1.0, 120], [0, 0, 1]]))
>>> view = coarse_view(cal)
>>> x = centre_input(view, np.full((240, 320, 3), 90, np.uint8))
>>> x.shape, float(abs(x[:3, 20:-20, 20:-20]).max())  # (the edge samples some black beyond)
((7, 120, 160), 0.0)
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration
from vision.patches import frame_level
from vision.topview import TopView, halve

MM_PER_PX = 2.0
"""Scale of the centre net's view (a coin is about ten samples across)."""

CHANNELS = 7
"""log2(view / local median) B, G, R; log2(view / frame level) B, G, R; the valid mask."""

MEDIAN_MM = 96.0
"""Width of the local median the first three channels are divided by (about two tiles)."""

_MEDIAN_CELL = 4
"""The median is taken on cells of this many view pixels (cheap), then smoothed up."""

_LOG2 = np.log2(np.arange(256, dtype=np.float32) + 1.0)

_LOG2_FLOOR = np.maximum(_LOG2, 2.0).astype(np.float32)
"""log2 of a local median, at least 2 (a median under 3 counts as 3)."""


def coarse_view(calibration: Calibration,
                area_mm: tuple[float, float, float, float] | None = None) -> TopView:
    """The centre net's top view of a calibration (over ``area_mm``, or all it sees)."""
    return TopView(calibration, 1.0 / MM_PER_PX, area_mm)


def centre_input(view: TopView, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None,
                 out: np.ndarray | None = None) -> np.ndarray:
    """The net's input, float32 (:data:`CHANNELS`, H, W) over ``view`` (see module notes).

    ``view`` is expected at :data:`MM_PER_PX` (:func:`coarse_view`): a view of another
    scale gives the net pieces of sizes it never saw. ``out``: see :func:`input_of_top`.
    """
    top, level = centre_top(view, frame_bgr, half_bgr)
    return input_of_top(top, view.valid, level, out)


def centre_top(view: TopView, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None
               ) -> tuple[np.ndarray, float]:
    """The coarse top view's samples (uint8 BGR, H x W x 3) and the frame's level: all
    :func:`input_of_top` needs (what the training views store)."""
    half = halve(frame_bgr) if half_bgr is None else half_bgr
    # the view's samples from the halved frame: the corner's pixel maps scaled by a half
    top = view.warp_coarse(frame_bgr, 1, half)
    return top, float(frame_level(frame_bgr))


def input_of_top(top_bgr: np.ndarray, valid: np.ndarray, level: float,
                 out: np.ndarray | None = None) -> np.ndarray:
    """The net's input from a coarse top view's samples, the view's valid mask (0 / non-0)
    and the frame's level (:func:`centre_top`).

    ``out``: a float32 (:data:`CHANNELS`, H', W') buffer, H' >= H and W' >= W, to write the
    input into (the same values); its top-left (CHANNELS, H, W) corner is returned and the
    rest left as it was (a buffer kept from frame to frame, its rows and columns beyond the
    view zero: the padded input the net takes, with no fresh memory and no copy).
    """
    top_bgr = np.ascontiguousarray(top_bgr, np.uint8)
    h, w = valid.shape
    if out is None:
        out = np.zeros((CHANNELS, h, w), np.float32)
    else:
        if out.dtype != np.float32 or out.shape[0] != CHANNELS or out.shape[1] < h \
                or out.shape[2] < w:
            raise ValueError(f"out: a float32 ({CHANNELS}, >= {h}, >= {w}) buffer, "
                             f"not {out.dtype} {out.shape}")
        out = out[:, :h, :w]
    some = valid[::4, ::4] > 0
    if not some.any():
        out[:] = 0.0
        return out
    fill = _channel_medians(top_bgr[::4, ::4][some])
    # the view with its unseen part filled by that colour (one plane each, then the view's
    # own pixels copied over it where it sees the camera image)
    top = cv2.merge([np.full((h, w), int(v), np.uint8) for v in fill])
    cv2.copyTo(top_bgr, np.ascontiguousarray(valid), top)
    f = _MEDIAN_CELL
    hc, wc = max(1, h // f), max(1, w // f)
    cells = cv2.resize(top, (wc, hc), interpolation=cv2.INTER_AREA)
    k = max(3, round(MEDIAN_MM / (MM_PER_PX * f)) | 1)
    med = cv2.medianBlur(cells, k) if min(hc, wc) > 1 else cells
    med = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)
    lev = float(np.log2(max(level, 4.0)))
    over_level = np.clip(_LOG2 - lev, -4.0, 2.0).astype(np.float32)
    mask = (valid > 0).astype(np.float32)
    # log2(t / local median), clipped, and log2(t / level), clipped: by look-ups, channel by
    # channel
    for c, (t, m) in enumerate(zip(cv2.split(top), cv2.split(med), strict=True)):
        d = cv2.subtract(cv2.LUT(t, _LOG2), cv2.LUT(m, _LOG2_FLOOR))
        cv2.multiply(np.clip(d, -4.0, 2.0, out=d), mask, dst=out[c])
        cv2.multiply(cv2.LUT(t, over_level), mask, dst=out[3 + c])
    out[6] = mask
    return out


def _channel_medians(px: np.ndarray) -> np.ndarray:
    """``np.median(px, axis=0).astype(np.uint8)`` of 8-bit pixels (N, C), N > 0, from each
    channel's histogram (the two middle values' mean, rounded down).

    >>> _channel_medians(np.array([[1, 9], [4, 3], [2, 200], [7, 8]], np.uint8)).tolist()
    [3, 8]
    """
    n = len(px)
    lo, hi = (n - 1) // 2, n // 2
    out = []
    for c in range(px.shape[1]):
        cum = np.cumsum(np.bincount(px[:, c], minlength=256))
        a = int(np.searchsorted(cum, lo, side="right"))
        b = int(np.searchsorted(cum, hi, side="right"))
        out.append((a + b) // 2)
    return np.array(out, np.uint8)

"""Post candidates from local contrast at a post's own scale, where no threshold of the whole
table sees one.

The dark mask (:mod:`vision.prepare`) asks a post to be darker than the table by five sigmas
of the table's noise over the whole view, and the centre net's post channel gives a post on a
black gingham, on red cloth in a dim warm room or on a walnut table under three lamps little or
no heat. Yet from above such a post is still a patch one post wide that stands out of its own
surroundings: darker in every channel (a post on a pale or mid table), or unlike them in some
channel (a lit post on black felt, a post on a check).

So the centre net's input (:mod:`vision.centres_input`: the coarse top view at 2 mm a pixel,
each channel over its own 96 mm local median, so light and table colour cancel) is read at a
post's width: the mean over a post-wide box of how dark it is (the channels' mean log ratio,
negated) and of how unlike it is (the largest absolute log ratio of any channel), each in
units of its own spread over the surrounding ``window_mm`` (a noisy black cloth, a busy check
and a calm laminate alike). The local maxima of the larger of the two, ``min_z`` spreads and
more above their surroundings, are places to look at (:func:`vision.post_candidates.
propose_posts` reads a post there and it stands only where the post judge is sure of it):
no threshold of the table's own level, no branch per table kind.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from vision.centres import Peaks, local_maxima
from vision.centres_input import MM_PER_PX, centre_input, coarse_view
from vision.topview import TopView

STEP = 2
"""The contrast is read on every this many samples of the net's input (4 mm: a post is
still two to three samples wide)."""


@dataclass(frozen=True)
class PostContrastConfig:
    """Attributes:
    box_mm: The box the contrast is averaged over (a post's width).
    surround_mm: The box round it the contrast is measured against.
    window_mm: The surroundings the box's mean and spread are measured over.
    min_z: Least standing out (in spreads of the surroundings) of a place looked at.
    min_spread: Least spread (log2 units) a standing out is measured in (a calm table's
        spread is its camera's noise alone, which averaging over the box nearly removes).
    apart_mm: Places closer than this are one (the larger kept).
    border_mm: Places this close to the edge of the coarse view's valid area are left out.
    max_each: At most this many places (those standing out most; a cost bound).
    """

    box_mm: float = 10.0
    surround_mm: float = 28.0
    window_mm: float = 62.0
    min_z: float = 3.0
    min_spread: float = 0.05
    apart_mm: float = 14.0
    border_mm: float = 8.0
    max_each: int = 12


def standing_out(x: np.ndarray, valid: np.ndarray, cfg: PostContrastConfig) -> np.ndarray:
    """(H', W') float32 over a grid of every ``STEP``-th sample of ``x`` (the centre net's
    input, channels 0-2 the log2 ratios to the local median): how far each post-wide box
    stands out of its surroundings, in their spreads: the larger of its darkness and its
    unlikeness; 0 outside ``valid`` (over ``x``).

    >>> x = np.zeros((3, 60, 60), np.float32)
    >>> x[:, 28:33, 28:33] = -2.0  # a dark patch a post wide on a flat table
    >>> z = standing_out(x, np.full((60, 60), 255, np.uint8), PostContrastConfig())
    >>> z.shape, bool(z[15, 15] > 3.0), float(z[3, 3])
    ((30, 30), True, 0.0)
    """
    h, w = valid.shape
    hs, ws = max(1, h // STEP), max(1, w // STEP)
    b, g, r = (cv2.resize(np.ascontiguousarray(c[:hs * STEP, :ws * STEP], np.float32),
                          (ws, hs), interpolation=cv2.INTER_AREA) for c in x[:3])
    dark = cv2.multiply(cv2.add(cv2.add(b, g), r), -1.0 / 3.0)
    unlike = cv2.max(cv2.max(cv2.absdiff(b, 0.0), cv2.absdiff(g, 0.0)), cv2.absdiff(r, 0.0))
    mm = MM_PER_PX * STEP
    box = max(3, round(cfg.box_mm / mm) | 1)
    win = max(box + 2, round(cfg.window_mm / mm) | 1)
    best = np.zeros(dark.shape, np.float32)
    ring = max(box + 2, round(cfg.surround_mm / mm) | 1)
    for sig in (dark, unlike):
        # the box over its near surroundings (a blind's stripe, a window's gradient, a
        # cloth's fold are flat at a post's scale), in the spread of that difference round it
        d = cv2.subtract(cv2.boxFilter(sig, -1, (box, box)), cv2.boxFilter(sig, -1, (ring, ring)))
        sd = cv2.sqrt(cv2.max(cv2.sqrBoxFilter(d, cv2.CV_32F, (win, win)), cfg.min_spread ** 2))
        cv2.max(best, cv2.divide(d, sd), dst=best)
    best[cv2.resize(valid[:hs * STEP, :ws * STEP], (ws, hs),
                    interpolation=cv2.INTER_NEAREST) == 0] = 0.0
    return best


def contrast_peaks(x: np.ndarray, view: TopView, cfg: PostContrastConfig) -> Peaks:
    """The places worth looking at for a post (table mm), each with how far it stands out
    (the :class:`~vision.centres.Peaks` score), most first (the pieces already found stand
    out too: the caller leaves them out before it takes ``cfg.max_each``). ``view`` is the
    coarse view ``x`` was made over."""
    k = max(3, round(2 * cfg.border_mm / MM_PER_PX) | 1)
    valid = cv2.erode(view.valid, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    z = standing_out(x, valid, cfg)
    n = max(3, round(cfg.apart_mm / (MM_PER_PX * STEP)) | 1)
    xy, score = local_maxima(z, n, cfg.min_z)
    if not len(score):
        return Peaks(np.zeros((0, 2)), np.zeros(0))
    px = (xy.astype(float) + 0.5) * STEP - 0.5
    return Peaks(view.to_mm(px), score)


_VIEWS: dict[int, tuple[Calibration, TopView]] = {}


def frame_input(frame_bgr: np.ndarray, calibration: Calibration
                ) -> tuple[TopView, np.ndarray]:
    """The centre net's coarse view of a calibration (made once per calibration) and its
    input for a frame."""
    hit = _VIEWS.get(id(calibration))
    if hit is None or hit[0] is not calibration:
        if len(_VIEWS) > 4:
            _VIEWS.clear()
        hit = _VIEWS[id(calibration)] = (calibration, coarse_view(calibration))
    view = hit[1]
    return view, centre_input(view, frame_bgr)


def frame_contrast_peaks(frame_bgr: np.ndarray, calibration: Calibration,
                         cfg: PostContrastConfig) -> Peaks:
    """:func:`contrast_peaks` of a frame (its coarse view made once per calibration)."""
    view, x = frame_input(frame_bgr, calibration)
    return contrast_peaks(x, view, cfg)

"""The first stage: warp, normalise, and the masks every later stage reads.

Pieces of a piecepack (coins, tiles) are cream or white: brighter than the table once the
table is divided out. Posts and shadows are darker. Both masks are thresholded against the
table's own noise, measured on each frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.normalise import TABLE_LEVEL, NormaliseConfig, normalise
from vision.topview import TopView


@dataclass(frozen=True)
class PrepareConfig:
    """Attributes:
    normalise: How the table's colour is estimated.
    bright_sigmas: A piece pixel is brighter than the table by this many noise sigmas...
    min_bright: ...and at least by this much (in normalised levels, table = 100).
    dark_sigmas: A dark pixel (posts, hands' shade) is darker by this many sigmas...
    min_dark: ...and at least by this much.
    close_mm: Gaps narrower than this in a pale piece (a back's grid lines) are closed.
    hole_table_sigmas: A hole in a pale blob stays open when its colour is within this many
        noise sigmas of the table's (table seen through a loop of coins)...
    small_hole_mm2: ...unless it is smaller than this (less than half a coin: a symbol).
    """

    normalise: NormaliseConfig = field(default_factory=NormaliseConfig)
    bright_sigmas: float = 4.0
    min_bright: float = 7.0
    dark_sigmas: float = 5.0
    min_dark: float = 25.0
    close_mm: float = 2.0
    hole_table_sigmas: float = 5.0
    small_hole_mm2: float = 120.0


@dataclass(frozen=True, eq=False)
class Prepared:
    """One frame, ready for the stages.

    Attributes:
        view: The top view it was made with.
        top: The warped frame, uint8 (H, W, 3) BGR.
        norm: ``top`` divided by the table's colour (table = 100), uint8 (H, W, 3).
        level: Per-pixel brightness of ``norm`` (the largest channel), uint8 (H, W).
        bright: 255 where a pale piece is (holes such as symbols filled), uint8 (H, W).
        dark: 255 where something darker than the table is, uint8 (H, W).
        noise: The table's noise (robust sigma of ``level``).
        shade: Grey brightness relative to the table's (1 = table), float32 (H, W), not
            clipped: for finding edges to a fraction of a pixel.
        valid: uint8 (H, W), 255 over the play area: where the view sees the camera image and
            no printed sheet (the calibration mat, a board) lies.
    """

    view: TopView
    top: np.ndarray
    norm: np.ndarray
    level: np.ndarray
    bright: np.ndarray
    dark: np.ndarray
    noise: float
    shade: np.ndarray
    valid: np.ndarray


def fill_holes(mask: np.ndarray, norm: np.ndarray | None = None,
               min_table_distance: float = 0.0, always_below_px: float = 0.0) -> np.ndarray:
    """The mask with holes inside its outer contours filled (uint8 0/255).

    With ``norm``, a hole that looks like the table (mean distance of its normalised colour
    from the table's below ``min_table_distance``) stays open: it is the table showing
    through a ring of pieces (a worm closed in a loop), not a symbol. Holes smaller than
    ``always_below_px`` pixels are filled whatever they look like.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    holes = [c for c, hh in zip(contours, hierarchy[0], strict=True) if hh[3] >= 0]
    if norm is None:
        cv2.drawContours(out, holes, -1, 255, thickness=cv2.FILLED)
        return out
    small, large = [], []
    for c in holes:
        (small if cv2.contourArea(c) < always_below_px else large).append(c)
    if small:  # symbols and the like: filled whatever they look like, all at once
        cv2.drawContours(out, small, -1, 255, thickness=cv2.FILLED)
    for c in large:
        x, y, w, h = cv2.boundingRect(c)
        hole = np.zeros((h, w), np.uint8)
        cv2.drawContours(hole, [c], -1, 255, thickness=cv2.FILLED, offset=(-x, -y))
        hole = cv2.bitwise_and(hole, cv2.bitwise_not(mask[y:y + h, x:x + w]))
        if hole.any():
            px = norm[y:y + h, x:x + w][hole > 0].astype(np.float32) - TABLE_LEVEL
            if float(np.sqrt((px * px).sum(axis=1)).mean()) < min_table_distance:
                continue
        cv2.drawContours(out, [c], -1, 255, thickness=cv2.FILLED)
    return out


def prepare(cfg: PrepareConfig, view: TopView, frame_bgr: np.ndarray,
            valid: np.ndarray | None = None) -> Prepared:
    """Warps and normalises a frame and finds its bright and dark masks.

    Args:
        cfg: Thresholds.
        view: The top view.
        frame_bgr: The raw frame.
        valid: uint8 (H, W) play area in the view; None: all the view sees.
    """
    valid = view.valid if valid is None else valid
    top = view.warp(frame_bgr)
    norm, bg = normalise(cfg.normalise, top, valid, view.px_per_mm)
    shade = cv2.divide(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32),
                       cv2.cvtColor(bg, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0)
    blur = cv2.GaussianBlur(norm, (3, 3), 0)
    level = cv2.max(cv2.max(blur[..., 0], blur[..., 1]), blur[..., 2])
    sample = level[::7, ::7][valid[::7, ::7] > 0]
    if sample.size:
        med = float(np.median(sample))
        noise = 1.4826 * float(np.median(np.abs(sample.astype(float) - med)))
    else:
        noise = 0.0
    hi = TABLE_LEVEL + max(cfg.min_bright, cfg.bright_sigmas * noise)
    lo = TABLE_LEVEL - max(cfg.min_dark, cfg.dark_sigmas * noise)
    bright = cv2.bitwise_and(cv2.threshold(level, hi, 255, cv2.THRESH_BINARY)[1], valid)
    k = max(3, round(cfg.close_mm * view.px_per_mm) | 1)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    bright = fill_holes(bright, norm, cfg.hole_table_sigmas * max(noise, 2.0),
                        cfg.small_hole_mm2 * view.px_per_mm ** 2)
    # level < lo for whole-numbered levels: level <= ceil(lo) - 1
    dark = cv2.bitwise_and(
        cv2.threshold(level, math.ceil(lo) - 1, 255, cv2.THRESH_BINARY_INV)[1], valid)
    return Prepared(view, top, norm, level, bright, dark, noise, shade, valid)

"""What a coin candidate looks like, as a row of numbers for the coin judge
(:mod:`vision.coin_judge`).

However a candidate was found (the bright mask's blobs, the centre net's peaks), it is read the
same way: a patch of the raw frame round its seen top face (:data:`PATCH_MM` a side at
:data:`PATCH_PX` samples, one perspective warp through the calibration and lens), divided by
the colour of the table round it (the median of the ring from 1.5 to 1.9 radii). Along
:data:`RAYS` rays from the centre:

- the level in bands of radius (a coin: a flat face to its rim, then the table; a glare: a
  bright blur fading out; a die: a face with pips, ending at a square, not a circle);
- where each ray crosses halfway from the face to the table: how many rays cross within a
  fifth of a radius of the coin's rim, how those crossings spread, and their second and fourth
  harmonics round the circle (a pencil's end is long, a die's top is square);
- the gradient on the rim: how strong against the face and the table, and how much of it points
  along the radius (all of it on a circle; on a square, only at its sides' middles);
- the face's colour against the table's, its texture, and how busy the table round it is;
- the namer's probabilities at its foot (nothing, coin face up, coin value up, tile, post).

Nothing here is a threshold: the judge learns what tells a coin from a die, a glare, a cloth's
check or a mug's rim (``training/train_coin_judge.py``).

>>> len(FEATURES) == len(set(FEATURES))
True
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from calibration.model import Calibration
from vision.namer_classes import CLASSES, KIND_OF
from vision.patches import sample_patches

PATCH_MM = 40.0
"""Side of the patch read round a candidate's seen top face."""

PATCH_PX = 64
"""Its side in samples (1.6 a millimetre)."""

RAYS = 32
"""Rays from the centre."""

STEP = 0.05
"""Samples along a ray, in shares of the radius, from 0.1 to 1.9."""

BANDS: tuple[tuple[float, float], ...] = (
    (0.1, 0.3), (0.3, 0.6), (0.6, 0.85), (0.85, 1.0), (1.0, 1.15), (1.15, 1.4), (1.4, 1.9))
"""Bands of radius whose mean level is a feature."""

FEATURES: tuple[str, ...] = (
    *(f"band_{a:.2f}_{b:.2f}" for a, b in BANDS),
    "contrast", "face_spread", "table_busy",
    "rim_share", "edge_spread", "edge_h2", "edge_h4", "edge_mean",
    "ring_spread_in", "ring_spread_out",
    "grad_rim", "grad_face", "grad_table", "grad_radial",
    "face_log_b", "face_log_g", "face_log_r", "face_chroma", "dark_share",
    "p_nothing", "p_coin_up", "p_coin_down", "p_tile", "p_post",
)
"""The features' names, in order."""


@functools.lru_cache(maxsize=4)
def _rays(radius_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(RAYS, S, 2) sample places in patch samples, their radii (S,) in shares of the radius,
    and the rays' unit directions (RAYS, 2)."""
    s = PATCH_PX / PATCH_MM
    r = radius_mm * s
    c = (PATCH_PX - 1) / 2.0
    rho = np.arange(0.1, 1.9 + 1e-9, STEP)
    a = np.linspace(0.0, 2.0 * np.pi, RAYS, endpoint=False)
    d = np.c_[np.cos(a), np.sin(a)]
    pts = c + rho[None, :, None] * r * d[:, None, :]
    return pts.astype(np.float32), rho, d


_CHUNK = 32
"""Patches read with one remap at most: stacked, their rows stay well under 4,096 (remap's
fixed-point bilinear weights go wrong past that: samples there differ from one patch's)."""


def _sample(stack: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of every patch of ``stack`` (N, H, W[, C]) float32 at the same places
    ``pts`` (..., 2) of each: (N, ..., [C]). The patches are stacked one above another and read
    by one remap (a sample never reaches a neighbour: the places lie inside each patch)."""
    n, h = stack.shape[:2]
    flat = pts.reshape(1, -1, 2).astype(np.float32)
    mx = np.repeat(flat[..., 0], n, axis=0)
    my = flat[..., 1] + (h * np.arange(n, dtype=np.float32))[:, None]
    tall = stack.reshape(n * h, *stack.shape[2:])
    out = cv2.remap(tall, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(n, *pts.shape[:-1], *stack.shape[3:])


def _harmonic(v: np.ndarray, k: int) -> np.ndarray:
    """Amplitude of the k-th harmonic of values round a circle, (N, M) -> (N,)."""
    a = np.linspace(0.0, 2.0 * np.pi, v.shape[1], endpoint=False)
    return np.hypot((v * np.cos(k * a)).mean(axis=1), (v * np.sin(k * a)).mean(axis=1)) * 2.0


def patch_features(patch_bgr: np.ndarray, radius_mm: float) -> np.ndarray:
    """The appearance features (all of :data:`FEATURES` but the namer's) of one patch."""
    return patches_features(patch_bgr[None], radius_mm)[0]


def patches_features(patches_bgr: np.ndarray, radius_mm: float) -> np.ndarray:
    """The appearance features (all of :data:`FEATURES` but the namer's) of patches
    (N, :data:`PATCH_PX`, :data:`PATCH_PX`, 3), (N, F)."""
    parts = [_features(patches_bgr[i:i + _CHUNK], radius_mm)
             for i in range(0, len(patches_bgr), _CHUNK)]
    return np.concatenate(parts) if parts else np.zeros((0, len(FEATURES) - 5), np.float32)


def _grey(bgr: np.ndarray) -> np.ndarray:
    """The mean of the last axis's three channels (as ``mean(axis=-1)``, a few times faster)."""
    return (bgr[..., 0] + bgr[..., 1] + bgr[..., 2]) / np.float32(3.0)


def _features(patches_bgr: np.ndarray, radius_mm: float) -> np.ndarray:
    pts, rho, d = _rays(round(radius_mm, 3))
    n = len(patches_bgr)
    img = patches_bgr.astype(np.float32) + 1.0
    col = _sample(img, pts)  # (N, RAYS, S, 3)
    ring = col[:, :, (rho >= 1.5) & (rho <= 1.9)].reshape(n, -1, 3)
    table = np.maximum(np.median(np.ascontiguousarray(ring.transpose(0, 2, 1)), axis=2), 1.0)
    rel = col / table[:, None, None, :]  # (N, 3) the table's colour
    level = _grey(rel)  # (N, RAYS, S): the table at 1
    face_m = (rho >= 0.3) & (rho <= 0.75)
    body = np.median(level[:, :, face_m].reshape(n, -1), axis=1)
    contrast = body - 1.0
    sign = np.where(contrast >= 0, 1.0, -1.0)
    c_abs = np.maximum(np.abs(contrast), 0.02)
    bands = [level[:, :, (rho >= a) & (rho < b + 1e-9)].reshape(n, -1).mean(axis=1) - 1.0
             for a, b in BANDS]
    face_spread = level[:, :, (rho >= 0.2) & (rho <= 0.8)].reshape(n, -1).std(axis=1) / c_abs
    tbl = level[:, :, (rho >= 1.4) & (rho <= 1.9)].reshape(n, -1)
    table_busy = np.median(np.abs(tbl - 1.0), axis=1) / c_abs
    # where each ray crosses halfway from the face to the table, past 0.6 radii
    mid = (body + 1.0) / 2.0
    past = sign[:, None, None] * (level - mid[:, None, None]) < 0
    past[:, :, rho <= 0.6] = False
    j = np.argmax(past, axis=2)  # (N, RAYS)
    found = np.take_along_axis(past, j[..., None], axis=2)[..., 0]
    jm = np.maximum(j - 1, 0)
    a_ = np.take_along_axis(level, jm[..., None], axis=2)[..., 0]
    b_ = np.take_along_axis(level, j[..., None], axis=2)[..., 0]
    t = np.clip((a_ - mid[:, None]) / np.where(np.abs(a_ - b_) < 1e-6, 1e-6, a_ - b_),
                0.0, 1.0)
    edge = np.where(found, rho[jm] + t * (rho[j] - rho[jm]), 2.0)
    rim_share = np.mean(np.abs(edge - 1.0) <= 0.2, axis=1)
    em = np.median(edge, axis=1)
    edge_spread = np.median(np.abs(edge - em[:, None]), axis=1)
    e0 = edge - edge.mean(axis=1, keepdims=True)
    h2, h4 = _harmonic(e0, 2), _harmonic(e0, 4)
    i_in = int(np.argmin(np.abs(rho - 0.9)))
    i_out = int(np.argmin(np.abs(rho - 1.15)))
    ring_in = level[:, :, i_in].std(axis=1) / c_abs
    ring_out = level[:, :, i_out].std(axis=1) / c_abs
    grey = _grey(img / table[:, None, None, :])  # (N, P, P)
    h = grey.shape[1]
    tall = grey.reshape(n * h, -1)
    g = np.stack([cv2.Sobel(tall, cv2.CV_32F, 1, 0, ksize=3),
                  cv2.Sobel(tall, cv2.CV_32F, 0, 1, ksize=3)], axis=2).reshape(n, h, -1, 2)
    gs = _sample(g, pts)  # (N, RAYS, S, 2)
    mag = np.hypot(gs[..., 0], gs[..., 1])
    rim_m = (rho >= 0.85) & (rho <= 1.15)
    grad_rim = mag[:, :, rim_m].max(axis=2).mean(axis=1) / c_abs
    grad_face = mag[:, :, face_m].reshape(n, -1).mean(axis=1) / c_abs
    grad_table = mag[:, :, (rho >= 1.4) & (rho <= 1.9)].reshape(n, -1).mean(axis=1) / c_abs
    radial = np.abs((gs[:, :, rim_m] * d[None, :, None, :]).sum(axis=3))
    grad_radial = radial.reshape(n, -1).sum(axis=1) / np.maximum(
        mag[:, :, rim_m].reshape(n, -1).sum(axis=1), 1e-6)
    face_col = np.median(np.ascontiguousarray(
        rel[:, :, face_m].reshape(n, -1, 3).transpose(0, 2, 1)), axis=2)
    logs = np.log2(np.maximum(face_col, 1e-3))  # (N, 3)
    chroma = logs.max(axis=1) - logs.min(axis=1)
    inner = level[:, :, (rho >= 0.1) & (rho <= 0.8)].reshape(n, -1)
    dark_share = np.mean(inner < (body - 0.5 * c_abs)[:, None], axis=1)
    return np.column_stack([*bands, contrast, face_spread, table_busy, rim_share,
                            edge_spread, h2, h4, em, ring_in, ring_out, grad_rim, grad_face,
                            grad_table, grad_radial, logs, chroma, dark_share]
                           ).astype(np.float32)


def namer_features(p: np.ndarray) -> np.ndarray:
    """(N, 5) of the namer's class probabilities (N, len(CLASSES)): nothing, a coin face up,
    a coin value up, a tile, a post."""
    p = np.asarray(p, np.float32).reshape(-1, len(CLASSES))
    up = [i for i, c in enumerate(CLASSES) if c.startswith("coin-") and c != "coin-down"]
    tile = [i for i, k in enumerate(KIND_OF) if k == "tile"]
    return np.c_[p[:, CLASSES.index("nothing")], p[:, up].sum(axis=1),
                 p[:, CLASSES.index("coin-down")], p[:, tile].sum(axis=1),
                 p[:, CLASSES.index("post")]]


def coin_features(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
                  namer_p: np.ndarray, radius_mm: float) -> np.ndarray:
    """(N, len(FEATURES)) float32 rows of the candidates seen at ``seen_mm`` (N, 2), their
    namer's probabilities ``namer_p`` (N, len(CLASSES)) at their feet."""
    seen = np.asarray(seen_mm, float).reshape(-1, 2)
    if not len(seen):
        return np.zeros((0, len(FEATURES)), np.float32)
    look = patches_features(sample_patches(frame_bgr, calibration, seen, PATCH_MM, PATCH_PX),
                            radius_mm)
    return np.c_[look, namer_features(namer_p)].astype(np.float32)

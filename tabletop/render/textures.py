"""Procedural table surfaces (wood planks, woven cloth, felt, linen), drawn in table millimetres.

Each texture is a float32 BGR reflectance image in [0, 1] covering a rectangle of the table in a
frame turned by ``angle_deg`` (planks and threads run along its first axis). Textures are
deterministic in their seed and cached, so a sequence of frames shares one table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

TextureFn = Callable[[np.random.Generator, int, int, float], np.ndarray]


def smooth_noise(rng: np.random.Generator, shape_hw: tuple[int, int],
                 cell_px: tuple[float, float]) -> np.ndarray:
    """Smooth random field in about [-1, 1]: random values on a coarse grid, cubic-upsampled.

    Args:
        rng: Random source.
        shape_hw: (height, width) of the output.
        cell_px: (along rows, along columns) correlation length in pixels (anisotropic allowed).
    """
    h, w = shape_hw
    gh = max(2, math.ceil(h / max(cell_px[0], 1e-3)) + 3)
    gw = max(2, math.ceil(w / max(cell_px[1], 1e-3)) + 3)
    coarse = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(coarse, (int((gw - 1) * cell_px[1]) + 1, int((gh - 1) * cell_px[0]) + 1),
                     interpolation=cv2.INTER_CUBIC)
    return big[:h, :w] if big.shape[0] >= h and big.shape[1] >= w else cv2.resize(
        coarse, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(bgr: tuple[float, float, float], shape_hw: tuple[int, int]) -> np.ndarray:
    out = np.empty((*shape_hw, 3), np.float32)
    out[:] = np.asarray(bgr, np.float32)
    return out


OAK: tuple[tuple[float, float, float], ...] = ((0.33, 0.48, 0.66), (0.28, 0.42, 0.60),
                                               (0.38, 0.55, 0.72))
"""Oak tones (B, G, R) the plain ``wood`` table picks from."""


def planks(rng: np.random.Generator, h: int, w: int, ppm: float,
           palette: tuple[tuple[float, float, float], ...] = OAK,
           plank_mm: tuple[float, float] = (85.0, 140.0),
           ring_mm: tuple[float, float] = (7.0, 13.0), tone: tuple[float, float] = (0.80, 1.12),
           grain: float = 1.0, joint: float = 0.45) -> np.ndarray:
    """Wooden planks running along x: per-plank tone, flowing growth rings, pores, joints.

    Args:
        rng: Random source.
        h: Rows (across the planks).
        w: Columns (along the planks).
        ppm: Texture pixels per millimetre.
        palette: Base colours (B, G, R); one is drawn.
        plank_mm: Range of plank widths.
        ring_mm: Range of growth-ring spacings (finer than the camera resolves would alias).
        tone: Range of per-plank brightness.
        grain: Contrast of rings, streaks and pores (1: oak).
        joint: Darkening of the joints between planks.
    """
    plank_w = rng.uniform(*plank_mm)
    ring = rng.uniform(*ring_mm)
    rows = np.arange(h, dtype=np.float32)[:, None] / ppm  # across the planks, mm
    cols = np.arange(w, dtype=np.float32)[None, :] / ppm  # along the planks, mm
    offset = rng.uniform(0, plank_w)
    plank = np.floor((rows + offset) / plank_w).astype(np.int32)
    n_planks = int(plank.max()) + 2
    tones = rng.uniform(*tone, n_planks).astype(np.float32)
    hue = rng.uniform(-0.06, 0.06, n_planks).astype(np.float32)
    phase = rng.uniform(0, 100.0, n_planks).astype(np.float32)
    warp_a = smooth_noise(rng, (h, w), (25.0 * ppm, 260.0 * ppm)) * (5.0 * ring)
    warp_b = smooth_noise(rng, (h, w), (6.0 * ppm, 60.0 * ppm)) * (1.5 * ring)
    even = (plank % 2 == 0)
    warp = np.where(even, warp_a, -warp_a) + warp_b
    rings = np.sin((rows + warp + phase[plank]) * (2 * math.pi / ring))
    rings = np.clip(rings * 1.25, -1, 1) * 0.5 + 0.5         # slightly sharp late-wood bands
    streak = smooth_noise(rng, (h, w), (0.6 * ppm, 45.0 * ppm))
    pores = smooth_noise(rng, (h, w), (0.5 * ppm, 4.0 * ppm))
    blotch = smooth_noise(rng, (h, w), (60.0 * ppm, 200.0 * ppm))
    if grain == 1.0:
        lum = (0.84 + 0.15 * rings - 0.09 * np.abs(streak) + 0.04 * pores + 0.04 * blotch)
    else:
        lum = (0.84 + grain * (0.15 * rings - 0.09 * np.abs(streak) + 0.04 * pores)
               + 0.04 * blotch)
    lum *= tones[plank]
    # joints between planks and staggered butt joints
    within = np.mod(rows + offset, plank_w)
    joints = np.exp(-((np.minimum(within, plank_w - within)) * ppm / 0.9) ** 2)
    ends = rng.uniform(300.0, 900.0, n_planks).astype(np.float32)
    start = rng.uniform(0, 900.0, n_planks).astype(np.float32)
    along = np.mod(cols + start[plank], ends[plank])
    butt = np.exp(-((np.minimum(along, ends[plank] - along)) * ppm / 0.9) ** 2)
    lum *= 1.0 - joint * np.maximum(joints, butt)
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32)  # B, G, R
    out = _colour(tuple(base), (h, w)) * lum[..., None]
    out[..., 0] *= 1.0 - hue[plank]
    out[..., 2] *= 1.0 + hue[plank]
    return out


def wood(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Oak-like planks running along x (:func:`planks` with oak's tones)."""
    return planks(rng, h, w, ppm)


def _weave(rng: np.random.Generator, h: int, w: int, ppm: float, pitch_mm: float,
           contrast: float) -> np.ndarray:
    """Over-under threads along both axes with uneven (slubbed) threads."""
    rows = np.arange(h, dtype=np.float32)[:, None] / ppm
    cols = np.arange(w, dtype=np.float32)[None, :] / ppm
    jitter_r = smooth_noise(rng, (h, w), (3.0 * ppm, 40.0 * ppm)) * 0.25 * pitch_mm
    jitter_c = smooth_noise(rng, (h, w), (40.0 * ppm, 3.0 * ppm)) * 0.25 * pitch_mm
    weft = np.cos((rows + jitter_r) * (2 * math.pi / pitch_mm))
    warp = np.cos((cols + jitter_c) * (2 * math.pi / pitch_mm))
    slub_r = smooth_noise(rng, (h, w), (1.2 * pitch_mm * ppm, 25.0 * ppm))
    slub_c = smooth_noise(rng, (h, w), (25.0 * ppm, 1.2 * pitch_mm * ppm))
    pattern = 0.5 * (weft * (1 + 0.4 * slub_r) + warp * (1 + 0.4 * slub_c))
    return 1.0 + contrast * pattern


def cloth(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A cotton tablecloth (blue, green or red-brown) with a visible weave and soft folds."""
    colours = [(0.52, 0.33, 0.18), (0.25, 0.40, 0.22), (0.22, 0.24, 0.45), (0.50, 0.45, 0.38)]
    base = colours[int(rng.integers(len(colours)))]
    lum = _weave(rng, h, w, ppm, rng.uniform(1.8, 2.6), 0.10)
    lum *= 1.0 + 0.07 * smooth_noise(rng, (h, w), (70.0 * ppm, 70.0 * ppm))
    folds = smooth_noise(rng, (h, w), (25.0 * ppm, 300.0 * ppm))
    lum *= 1.0 + 0.05 * folds
    lum *= 1.0 + 0.05 * smooth_noise(rng, (h, w), (0.7 * ppm, 0.7 * ppm))
    return _colour(base, (h, w)) * lum[..., None]


def felt(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Green baize: fine fuzz, no weave, gentle mottling."""
    base = (0.22, 0.42, 0.14) if rng.uniform() < 0.7 else (0.40, 0.22, 0.10)
    fuzz = smooth_noise(rng, (h, w), (0.6 * ppm, 0.6 * ppm))
    fibres = smooth_noise(rng, (h, w), (0.5 * ppm, 3.0 * ppm))
    mottle = smooth_noise(rng, (h, w), (40.0 * ppm, 40.0 * ppm))
    lum = 1.0 + 0.07 * fuzz + 0.05 * fibres + 0.04 * mottle
    return _colour(base, (h, w)) * lum[..., None]


def linen(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Grey-beige linen: irregular crosshatch of thick and thin threads, cloudy tone."""
    base = (0.50, 0.54, 0.56) if rng.uniform() < 0.6 else (0.58, 0.66, 0.72)
    lum = _weave(rng, h, w, ppm, rng.uniform(2.2, 3.2), 0.14)
    lum *= 1.0 + 0.06 * smooth_noise(rng, (h, w), (35.0 * ppm, 35.0 * ppm))
    lum *= 1.0 + 0.06 * smooth_noise(rng, (h, w), (0.6 * ppm, 8.0 * ppm))
    lum *= 1.0 + 0.06 * smooth_noise(rng, (h, w), (8.0 * ppm, 0.6 * ppm))
    return _colour(base, (h, w)) * lum[..., None]


TEXTURES: dict[str, TextureFn] = {"wood": wood, "cloth": cloth, "felt": felt, "linen": linen}
"""Texture generators by table name."""


@lru_cache(maxsize=8)
def table_texture(kind: str, seed: int, shape_hw: tuple[int, int], ppm: float) -> np.ndarray:
    """The texture of a table, (H, W, 3) uint8 BGR reflectance x 255, read-only and cached.

    Args:
        kind: A name in :data:`TEXTURES` or :data:`~tabletop.render.materials.MATERIALS`.
        seed: The table's seed.
        shape_hw: Size in texture pixels.
        ppm: Texture pixels per millimetre.
    """
    from tabletop.render.materials import MATERIALS  # the further kinds build on this module

    rng = np.random.default_rng([seed, 7919])
    make = TEXTURES.get(kind) or MATERIALS[kind]
    tex = make(rng, shape_hw[0], shape_hw[1], ppm)
    tex = cv2.GaussianBlur(tex, (0, 0), 0.45)
    tex = np.clip(tex * 255.0 + 0.5, 0.0, 255.0).astype(np.uint8)
    tex.setflags(write=False)
    return tex

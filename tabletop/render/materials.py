"""More table surfaces than the four of :mod:`~tabletop.render.textures`: woods (oak, walnut,
pine, dark-stained, varnished), felt and plain cloth in six colours, gingham and checked cloths,
white marble, slate, a glossy white top and laminates.

Each is a procedural texture of the same form as :data:`~tabletop.render.textures.TEXTURES`
(float32 BGR reflectance in [0, 1], seeded); :data:`MATERIALS` holds them by name and
:data:`MATERIAL_FAMILY` sorts them into families.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from tabletop.render.textures import TextureFn, _colour, _weave, linen, planks, smooth_noise

BGR = tuple[float, float, float]

WOODS: dict[str, dict] = {
    "oak": {"palette": ((0.30, 0.47, 0.68), (0.34, 0.52, 0.72), (0.27, 0.43, 0.62))},
    "walnut": {"palette": ((0.14, 0.22, 0.33), (0.17, 0.26, 0.38), (0.12, 0.19, 0.29)),
               "ring_mm": (6.0, 11.0), "grain": 1.3},
    "pine": {"palette": ((0.45, 0.67, 0.84), (0.50, 0.72, 0.86)), "ring_mm": (9.0, 16.0),
             "plank_mm": (90.0, 180.0), "grain": 1.5},
    "dark-wood": {"palette": ((0.07, 0.10, 0.15), (0.09, 0.12, 0.17), (0.08, 0.09, 0.13)),
                  "grain": 0.9, "tone": (0.85, 1.1)},
    "varnished-oak": {"palette": ((0.22, 0.42, 0.66), (0.25, 0.45, 0.70)), "grain": 0.9,
                      "joint": 0.3},
}
"""Wood tables: arguments of :func:`~tabletop.render.textures.planks`."""

COLOURS: dict[str, BGR] = {
    "green": (0.20, 0.40, 0.12), "blue": (0.46, 0.26, 0.10), "red": (0.12, 0.11, 0.48),
    "grey": (0.36, 0.36, 0.35), "black": (0.055, 0.055, 0.06), "beige": (0.55, 0.68, 0.76),
}
"""Dyed felt and cloth (B, G, R)."""

CHECK_INKS: dict[str, BGR] = {
    "red": (0.14, 0.13, 0.70), "blue": (0.62, 0.30, 0.10), "green": (0.22, 0.48, 0.14),
    "black": (0.10, 0.10, 0.11),
}
"""Gingham colours on white (B, G, R)."""


def felt_of(colour: BGR, rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Felt of one colour: fine fuzz, fibres, gentle mottling, no weave."""
    tint = np.asarray(colour, np.float32) * rng.uniform(0.9, 1.1)
    fuzz = smooth_noise(rng, (h, w), (0.6 * ppm, 0.6 * ppm))
    fibres = smooth_noise(rng, (h, w), (0.5 * ppm, 3.0 * ppm))
    mottle = smooth_noise(rng, (h, w), (40.0 * ppm, 40.0 * ppm))
    lum = 1.0 + 0.07 * fuzz + 0.05 * fibres + 0.05 * mottle
    return _colour(tuple(tint), (h, w)) * lum[..., None]


def cloth_of(colour: BGR, rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A plain woven tablecloth of one colour with soft folds."""
    tint = np.asarray(colour, np.float32) * rng.uniform(0.9, 1.1)
    lum = _weave(rng, h, w, ppm, rng.uniform(1.6, 2.8), 0.10)
    lum *= 1.0 + 0.07 * smooth_noise(rng, (h, w), (70.0 * ppm, 70.0 * ppm))
    lum *= 1.0 + 0.06 * smooth_noise(rng, (h, w), (25.0 * ppm, 300.0 * ppm))
    lum *= 1.0 + 0.05 * smooth_noise(rng, (h, w), (0.7 * ppm, 0.7 * ppm))
    return _colour(tuple(tint), (h, w)) * lum[..., None]


def checks_of(ink: BGR, check_mm: tuple[float, float], rng: np.random.Generator, h: int, w: int,
              ppm: float) -> np.ndarray:
    """Gingham: bands of ``ink`` across both axes on white; where they cross the ink is full,
    where one band runs it is half (the cloth's three tones), with a weave on top."""
    size = rng.uniform(*check_mm)
    rows = np.arange(h, dtype=np.float32)[:, None] / ppm
    cols = np.arange(w, dtype=np.float32)[None, :] / ppm
    wobble = smooth_noise(rng, (h, w), (60.0 * ppm, 60.0 * ppm)) * 0.03 * size
    edge = 0.35  # mm of soft edge between bands (threads blending)

    def band(t: np.ndarray) -> np.ndarray:
        m = np.mod(t, 2.0 * size)
        d = np.minimum(np.abs(m - 0.5 * size), np.abs(m - 2.5 * size))  # from a band's middle
        return np.clip((0.5 * size - d) / edge + 0.5, 0.0, 1.0)

    phase_r, phase_c = rng.uniform(0, 2 * size, 2)
    across = band(rows + phase_r + wobble)
    along = band(cols + phase_c + wobble)
    amount = 0.5 * (across + along)  # 0 white, 0.5 one band, 1 both
    white = np.array((0.86, 0.89, 0.90), np.float32) * rng.uniform(0.93, 1.03)
    inkv = np.asarray(ink, np.float32)
    out = white[None, None, :] * (1.0 - amount[..., None]) + inkv[None, None, :] * amount[..., None]
    lum = _weave(rng, h, w, ppm, rng.uniform(1.4, 2.2), 0.08)
    lum *= 1.0 + 0.05 * smooth_noise(rng, (h, w), (30.0 * ppm, 250.0 * ppm))
    return (out * lum[..., None]).astype(np.float32)


def marble(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """White marble: a milky ground, cloudy grey drifts and a few long grey veins that wander
    and branch."""
    def turbulence(cell_mm: float, octaves: int) -> np.ndarray:
        acc = np.zeros((h, w), np.float32)
        for k in range(octaves):
            c = cell_mm / 2 ** k * ppm
            acc += smooth_noise(rng, (h, w), (c, c)) / 2 ** k
        return acc

    rows = np.arange(h, dtype=np.float32)[:, None] / ppm
    cols = np.arange(w, dtype=np.float32)[None, :] / ppm
    lum = np.full((h, w), 0.94, np.float32)
    lum += 0.03 * turbulence(150.0, 3)  # cloudy drifts
    a = rng.uniform(0, math.pi)
    for k, (period, width, depth) in enumerate(((rng.uniform(250, 450), 0.035, 0.30),
                                                (rng.uniform(90, 160), 0.02, 0.16))):
        b = a + (0.0 if k == 0 else rng.uniform(0.5, 1.2))
        base = math.cos(b) * cols + math.sin(b) * rows
        wander = turbulence(period * 0.8, 4) * (0.22 * period)
        v = np.abs(np.sin((base + wander) * (math.pi / period)))
        strength = np.clip(0.6 + 0.8 * smooth_noise(rng, (h, w), (200 * ppm, 200 * ppm)), 0, 1)
        lum -= depth * strength * np.exp(-(v / width) ** 2)
        lum -= 0.35 * depth * strength * np.exp(-(v / (4 * width)) ** 2)  # a soft halo
    lum += 0.01 * smooth_noise(rng, (h, w), (0.6 * ppm, 0.6 * ppm))
    tone = np.array((0.93, 0.94, 0.95), np.float32) * rng.uniform(0.95, 1.02)
    out = _colour(tuple(tone), (h, w)) * lum[..., None]
    out[..., 0] *= 1.0 + 0.03 * (0.94 - lum)  # veins a little bluish grey
    return out


def slate(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Slate: dark blue-grey, a fine grain, faint short cleavage marks and lighter patches."""
    grain = smooth_noise(rng, (h, w), (0.5 * ppm, 0.5 * ppm))
    marks = smooth_noise(rng, (h, w), (1.2 * ppm, 12.0 * ppm))
    patches = smooth_noise(rng, (h, w), (60.0 * ppm, 90.0 * ppm))
    lum = 1.0 + 0.06 * grain + 0.025 * marks + 0.05 * patches
    tone = np.array((0.25, 0.235, 0.22), np.float32) * rng.uniform(0.85, 1.15)
    return _colour(tuple(tone), (h, w)) * lum[..., None]


def glossy_white(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A lacquered white top: nearly uniform, a faint mottle."""
    lum = 1.0 + 0.012 * smooth_noise(rng, (h, w), (80.0 * ppm, 80.0 * ppm))
    lum += 0.006 * smooth_noise(rng, (h, w), (0.8 * ppm, 0.8 * ppm))
    tone = np.array((0.90, 0.91, 0.91), np.float32) * rng.uniform(0.97, 1.01)
    return _colour(tuple(tone), (h, w)) * lum[..., None]


def laminate_of(colour: BGR, rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A plain laminate top: one colour, a fine speckle, a faint cloudiness."""
    speckle = smooth_noise(rng, (h, w), (0.6 * ppm, 0.6 * ppm))
    cloud = smooth_noise(rng, (h, w), (40.0 * ppm, 40.0 * ppm))
    lum = 1.0 + 0.025 * speckle + 0.02 * cloud
    tone = np.asarray(colour, np.float32) * rng.uniform(0.93, 1.05)
    return _colour(tuple(tone), (h, w)) * lum[..., None]


def laminate_wood(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A wood-look laminate: printed planks with low-contrast grain and barely visible joints."""
    return planks(rng, h, w, ppm, ((0.36, 0.52, 0.68), (0.42, 0.58, 0.72), (0.30, 0.40, 0.52)),
                  plank_mm=(120.0, 200.0), ring_mm=(8.0, 14.0), tone=(0.92, 1.05), grain=0.6,
                  joint=0.15)


def tile_board(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A board of square laminate tiles: a light plain colour, thin dark seams (0.2-1 mm)
    every 300-600 mm, each tile a little different in tone."""
    size = rng.uniform(300.0, 600.0)
    seam = rng.uniform(0.2, 1.0)
    rows = np.arange(h, dtype=np.float32)[:, None] / ppm + rng.uniform(0, size)
    cols = np.arange(w, dtype=np.float32)[None, :] / ppm + rng.uniform(0, size)
    cell = (np.floor(rows / size).astype(np.int32) * 7919
            + np.floor(cols / size).astype(np.int32)) % 97
    tones = rng.uniform(0.96, 1.04, 97).astype(np.float32)
    base = laminate_of((0.60, 0.63, 0.64), rng, h, w, ppm)
    base *= tones[cell][..., None]
    dr = np.abs(np.mod(rows + size / 2, size) - size / 2)
    dc = np.abs(np.mod(cols + size / 2, size) - size / 2)
    line = np.exp(-(np.minimum(dr, dc) / max(seam / 2, 0.3 / ppm)) ** 2)
    return base * (1.0 - 0.45 * line[..., None])


MATERIALS: dict[str, TextureFn] = {
    **{name: partial(planks, **kw) for name, kw in WOODS.items()},
    **{f"felt-{c}": partial(felt_of, bgr) for c, bgr in COLOURS.items()},
    **{f"cloth-{c}": partial(cloth_of, bgr) for c, bgr in COLOURS.items()},
    **{f"gingham-{c}": partial(checks_of, ink, (6.0, 14.0)) for c, ink in CHECK_INKS.items()},
    "checks-large": partial(checks_of, (0.30, 0.32, 0.55), (18.0, 30.0)),
    "checks-small": partial(checks_of, (0.55, 0.42, 0.25), (4.0, 6.0)),
    "marble": marble,
    "slate": slate,
    "glossy-white": glossy_white,
    "laminate-grey": partial(laminate_of, (0.62, 0.62, 0.61)),
    "laminate-beige": partial(laminate_of, (0.62, 0.72, 0.79)),
    "laminate-wood": laminate_wood,
    "laminate-tiles": tile_board,
    "linen": linen,
}
"""Table textures by name (``linen`` is the plain renderer's)."""

MATERIAL_FAMILY: dict[str, str] = {
    **dict.fromkeys(WOODS, "wood"),
    **{f"felt-{c}": "felt" for c in COLOURS},
    **{f"cloth-{c}": "cloth" for c in COLOURS},
    "linen": "cloth",
    **{f"gingham-{c}": "pattern" for c in CHECK_INKS},
    "checks-large": "pattern", "checks-small": "pattern",
    "marble": "stone", "slate": "stone",
    "glossy-white": "white",
    "laminate-grey": "laminate", "laminate-beige": "laminate", "laminate-wood": "laminate",
    "laminate-tiles": "laminate",
}
"""Each material's family: wood, felt, cloth, pattern, stone, white or laminate."""

GLOSSY: frozenset[str] = frozenset({"varnished-oak", "glossy-white", "marble", "laminate-grey",
                                     "laminate-beige", "laminate-wood", "laminate-tiles"})
"""Materials that mirror a lamp (glare can be drawn on them)."""

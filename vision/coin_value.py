"""A coin lying value up: its numeral is black ink, as a moon is, but centred on the face.

A piecepack coin shows its suit's symbol on one side and its value's numeral on the other.
Read from the darkest tenth of the face (:func:`vision.suits.darkest_colour_of`), a black
numeral names the neutral ink, a moon. What tells them apart by design is where the ink lies:
a moon is a crescent, its ink to one side of the face (the hollow on the other), while a
numeral is set in the middle of it. So the face's ink (each pixel weighted by how much darker
than the body it is, past a share of the symbol core's darkness) has its weight centre far
from the face's centre for a moon (0.6 to 1.1 of the ink's own spread, on renders and
devscenes alike; at least 0.4 with the face's centre a millimetre off) and near it for a
numeral (0.1 to 0.3; at most 0.45 a millimetre off): :data:`CENTRED_SHARE` between them. The
body is measured where each pixel lies (:func:`body_level`, a plane through the face's brighter
half), so a shadow's edge across the face (a blind's stripe) is no ink: a moon half in a stripe
read by one body level had its shadowed half weigh in as ink and looked centred. The
measure is a ratio of lengths on the face, so it holds whatever the ink's shade, the light, the
blur or the camera's resolution.

>>> yy, xx = np.mgrid[-10:11, -10:11]
>>> offsets = np.c_[xx.ravel(), yy.ravel()]
>>> face = np.full((2, len(offsets), 3), 200.0)
>>> face[0, np.hypot(xx - 5, yy).ravel() < 3] = 20.0  # ink to one side
>>> face[1, (np.abs(xx) < 2).ravel() & (np.abs(yy) < 6).ravel()] = 20.0  # a centred stroke
>>> ink_off_centre(face, offsets).round(2).tolist()
[2.5, 0.0]
>>> numeral_shown(face, offsets).tolist()
[False, True]
"""

from __future__ import annotations

import numpy as np

CENTRED_SHARE = 0.4
"""Ink whose weight centre lies within this share of its spread of the face's centre is a
numeral (chosen on the face patches of renders 55,000-55,299 at their true places shifted by
up to a millimetre, and held against the devscenes' moons as a whole)."""

UNSURE_SHARE = 0.65
"""Between :data:`CENTRED_SHARE` and this, the ink's place does not tell a numeral from a
crescent: a numeral blurred or in a blind's band on a dark table, or read from a face a
millimetre off, reaches 0.59, a crescent seen so falls to 0.49 (renders 644000-644049 of coins
on black felt and cloth, dark wood, walnut and slate); the devscenes' moons read 0.74 and up.
There a reader that sees the shapes may say which (``value_seen`` of :func:`numeral_shown`)."""

NUMERAL_MM2 = 5.0
"""Where the ink's place does not tell (:data:`UNSURE_SHARE`), ink of less than this area of
full black (:func:`ink_area_mm2`) is a numeral's stroke: no crescent is so small. On renders
690000-690079 of coins on black felt and cloth, dark wood, walnut and slate under every light,
the value faces whose ink lay in that band read 1.1-3.7 mm², the moons there 17-48 mm² (a
moon's least anywhere 3.5, its 1st percentile 8.0; the devscenes' moons 7.1 and up but one
clipped face read as no ink): a faint "1" or "2" a millimetre off the face's centre, which the
namer had called a crescent, is the value it shows."""

CORE_SHARE = 0.3
"""A pixel weighs in as ink by how much darker than the body it is past this share of the
darkness of the face's darkest tenth (the symbol's core): the face's shading and noise, far
lighter than any ink, weigh nothing."""


def body_level(lum: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """The face's body brightness at each pixel, (M, P): a plane through the brighter half of
    each face, fitted again on the pixels not far below it (the ink left out). A light that
    changes across the face (a blind's stripe edge, a lamp's falloff) then does not weigh in
    as ink: the ink is what is darker than the body where it lies.

    >>> xy = np.c_[np.arange(-5.0, 6.0), np.zeros(11)]
    >>> lum = 300.0 + 20.0 * xy[:, 0]  # a light falling off across the face
    >>> lum[5] = 60.0                  # a stroke of ink in the middle
    >>> body_level(lum[None], xy)[0, [0, 5, 10]].round().tolist()
    [200.0, 300.0, 400.0]
    """
    n = lum.shape[1]
    a = np.c_[np.ones(n), xy]  # (P, 3)
    keep = lum >= np.median(lum, axis=1, keepdims=True)
    level = np.repeat(np.median(lum, axis=1, keepdims=True), n, axis=1)
    for _ in range(2):
        wk = keep.astype(float)
        lhs = np.einsum("mp,pi,pj->mij", wk, a, a) + 1e-6 * np.eye(3)
        rhs = np.einsum("mp,pi,mp->mi", wk, a, lum)
        coef = np.linalg.solve(lhs, rhs[..., None])[..., 0]  # (M, 3)
        level = coef @ a.T
        keep = lum >= 0.85 * level
    return level


def _relative_levels(px: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's level over the face's body where it lies (:func:`body_level`), (M, P),
    and whether each face has a body to measure against (not black), (M,)."""
    lum = np.asarray(px, float).sum(axis=2)
    body = body_level(lum, np.asarray(offsets, float).reshape(-1, 2))
    return lum / np.maximum(body, 1e-6), body.mean(axis=1) > 3.0


def ink_area_mm2(px: np.ndarray, offsets: np.ndarray, sample_mm: float) -> np.ndarray:
    """The ink on each face as an area of full black, mm²: each pixel's darkness under the
    body where it lies (1 less its level over the body's, :func:`body_level`), summed. Blur
    spreads a symbol's ink but keeps this sum, and the measure is in millimetres, so it holds
    whatever the camera's focus or resolution; a clipped body and a pale ink lower it, noise
    raises it.

    Args:
        px: (M, P, 3) pixels of M faces (any channel order), P each.
        offsets: (P, 2) each pixel's place relative to the face's centre, in samples.
        sample_mm: The side of a sample on the table, mm.

    Returns:
        (M,) float; NaN where a face is black (no body to measure against).

    >>> face = np.full((2, 100, 3), 200.0)
    >>> face[0, :8] = 0.0                 # 8 samples of black
    >>> face[1, :32] = 150.0              # the same ink blurred over 32 samples
    >>> off = np.c_[np.arange(100) % 10, np.arange(100) // 10] - 4.5
    >>> ink_area_mm2(face, off, 0.5).round(2).tolist()
    [2.0, 2.0]
    """
    p = np.asarray(px, float)
    if p.shape[0] == 0 or p.shape[1] < 8:
        return np.full(p.shape[0], np.nan)
    rel, ok = _relative_levels(p, offsets)
    area = np.clip(1.0 - rel, 0.0, None).sum(axis=1) * sample_mm * sample_mm
    return np.where(ok, area, np.nan)


def ink_off_centre(px: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """How far the weight centre of each face's ink lies from the face's centre, in units of
    the ink's own spread (its radius of gyration).

    Args:
        px: (M, P, 3) pixels of M faces (any channel order), P each.
        offsets: (P, 2) each pixel's place relative to the face's centre (any unit).

    Returns:
        (M,) float; NaN where a face shows no ink (or a black body).
    """
    p = np.asarray(px, float)
    m, n = p.shape[:2]
    if m == 0 or n < 8:
        return np.full(m, np.nan)
    xy = np.asarray(offsets, float).reshape(-1, 2)
    rel, ok = _relative_levels(p, xy)
    order = np.sort(rel, axis=1)
    core = 1.0 - order[:, :max(3, n // 10)].mean(axis=1)
    w = np.clip(1.0 - rel - CORE_SHARE * core[:, None], 0.0, None)
    total = w.sum(axis=1)
    ok &= total > 0
    total = np.where(ok, total, 1.0)
    mx, my = w @ xy[:, 0] / total, w @ xy[:, 1] / total
    spread = np.sqrt((w * ((xy[None, :, 0] - mx[:, None]) ** 2
                           + (xy[None, :, 1] - my[:, None]) ** 2)).sum(axis=1) / total)
    out = np.hypot(mx, my) / np.maximum(spread, 1e-9)
    return np.where(ok & (spread > 0), out, np.nan)


def numeral_shown(px: np.ndarray, offsets: np.ndarray, share: float = CENTRED_SHARE,
                  value_seen: np.ndarray | None = None, sample_mm: float | None = None
                  ) -> np.ndarray:
    """Whether each face's ink is centred (a numeral), bool (M,); False where no ink. Where
    its place does not tell (off the centre by :data:`CENTRED_SHARE` to :data:`UNSURE_SHARE`
    of its spread), ink smaller than any crescent (under :data:`NUMERAL_MM2`, with
    ``sample_mm`` the side of a sample on the table) is a numeral; else ``value_seen`` (bool
    (M,): a reader of the face's shapes, the namer, sees a numeral rather than a crescent)
    says; None: a crescent.

    >>> face = np.full((3, 40, 3), 200.0)
    >>> off = np.c_[np.arange(40) % 8 - 3.5, np.arange(40) // 8 - 2.0]
    >>> face[0, [0, 1, 8, 9]] = 20.0   # a blot in a corner
    >>> face[1, [0, 7]] = 20.0         # two apart on one side: the place does not tell
    >>> face[2, [19, 20]] = 20.0       # centred
    >>> ink_off_centre(face, off).round(2).tolist()
    [4.74, 0.57, 0.0]
    >>> numeral_shown(face, off).tolist()
    [False, False, True]
    >>> numeral_shown(face, off, value_seen=np.ones(3, bool)).tolist()
    [False, True, True]
    >>> numeral_shown(face, off, sample_mm=1.0).tolist()  # 2 mm² of ink: no crescent
    [False, True, True]
    """
    off = ink_off_centre(px, offsets)
    shown = np.isfinite(off) & (off < share)
    unsure = np.isfinite(off) & (off >= share) & (off < UNSURE_SHARE)
    if sample_mm is not None and unsure.any():
        small = np.zeros(len(shown), bool)
        small[unsure] = ink_area_mm2(np.asarray(px)[unsure], offsets, sample_mm) < NUMERAL_MM2
        shown |= small
    if value_seen is not None:
        shown |= unsure & np.asarray(value_seen, bool).reshape(-1)
    return shown

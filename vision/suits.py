"""Which suit (or segment colour) a symbol's pixels show.

A symbol seen through a camera is its ink mixed with the piece's pale body (small symbols
blur into it): the mix keeps the ink's hue and loses saturation, so a symbol's colour
(relative to the body, which cancels the light's colour) is read by its hue, and black ink by
having next to none.

>>> inks = {"suns": (213, 94, 0), "moons": (0, 0, 0)}
>>> classify_ink(np.array([0.9, 0.6, 0.4]), inks)[0]
'suns'
>>> classify_ink(np.array([0.5, 0.5, 0.52]), inks)[0]
'moons'

A coin's symbol is read from the darkest tenth of its face (:func:`darkest_colours`), not
from every pixel darker than a share of the body: where glare lifts the face, a dim lamp
darkens it or the symbol is small and blurred, a fixed share finds few or no ink pixels (no
suit), or many half-inked ones whose colour is mostly the body's (a blue read as black). The
darkest tenth of a face is always its symbol's core, whatever the light.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import numpy as np

from tabletop.pieceset import SUIT_COLOURS_HEX, hex_to_rgb
from vision.stats import percentile, row_percentiles

DEFAULT_SUIT_INKS: tuple[tuple[str, tuple[int, int, int]], ...] = tuple(
    (suit, hex_to_rgb(colour)) for suit, colour in SUIT_COLOURS_HEX.items())
"""Suit name -> 8-bit RGB of its ink, as the piece set's defaults (piecepackr's colours)."""


@functools.lru_cache(maxsize=32)
def _ink_directions(inks: tuple[tuple[str, tuple[int, int, int]], ...], grey_ratio: float
                    ) -> tuple[list[str], list[tuple[str, tuple[float, float, float], float]]]:
    """(neutral ink names, [(coloured ink name, unit chroma direction, saturation)]) of a set
    of inks."""
    neutral, coloured = [], []
    for name, rgb in inks:
        c = [v / 255.0 for v in rgb]
        m = sum(c) / 3.0
        cc = [v - m for v in c]
        norm = math.sqrt(sum(v * v for v in cc))
        ink_sat = norm / max(1.0 - m, 1e-6)
        if ink_sat < grey_ratio:
            neutral.append(name)
        else:
            coloured.append((name, (cc[0] / norm, cc[1] / norm, cc[2] / norm), ink_sat))
    return neutral, coloured


def neutral_inks(inks_rgb: Mapping[str, tuple[int, int, int]], grey_ratio: float = 0.13
                 ) -> tuple[str, ...]:
    """The names of the neutral (black) inks of a set, as :func:`classify_ink` sees them.

    >>> neutral_inks(dict(DEFAULT_SUIT_INKS))
    ('moons',)
    """
    return tuple(_ink_directions(
        tuple((k, tuple(int(c) for c in v)) for k, v in inks_rgb.items()), grey_ratio)[0])


def classify_ink(rel_rgb: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]],
                 grey_ratio: float = 0.13, ink_share: float = 0.25,
                 light_rgb: np.ndarray | None = None) -> tuple[str | None, float]:
    """The ink best explaining a colour relative to the body, and a confidence in [0, 1].

    Blur and print mix an ink with the pale body, which keeps its hue but lowers its
    saturation, so the reading is by hue direction: the observed colour's deviation from grey
    is compared (cosine) with each coloured ink's; a colour whose deviation is small for its
    darkness (below ``grey_ratio``) is the neutral ink (black). So is a colour tinted towards
    a coloured ink by less than ``ink_share`` of that ink's own saturation: black ink under a
    warm light reads a little warm where the camera's highlight roll-off has dimmed the pale
    body's brightest channel, far less than an orange ink does. That drift is towards the
    light's own tint: given the body as seen (``light_rgb``, tinted by the light by at least
    :data:`TINTED` of its level), only the part of the colour's tint along the light's counts
    as drift, and a colour whose tint apart from that part reaches ``grey_ratio`` is an ink (a
    blue symbol under a warm lamp, its weak blue no drift of black towards the lamp's orange).
    Where the body's brightest channel lies in the camera's highlight shoulder (at least
    :data:`SHOULDER`), that channel is compressed and the ratio of the ink to it inflated, so
    black drifts far towards the light's tint (a black moon on a cream face in a warm lamp's
    pool read as an orange sun at half its saturation, though the body's own tint is then
    faint): there a colour tinted along the light's tint (nothing of it apart from it reaching
    ``grey_ratio``) is black unless it reaches :data:`SHOULDER_SHARE` of the ink's saturation.

    Args:
        rel_rgb: (3,) observed colour divided by the body's colour, RGB order.
        inks_rgb: name -> 8-bit RGB of each candidate ink.
        grey_ratio: Saturation (chroma over darkness) below which a colour is neutral.
        ink_share: Share of the nearest coloured ink's saturation below which it is neutral.
        light_rgb: (3,) the body's colour as seen (the light's tint on it), RGB; None: unknown.

    Returns:
        ``(name, confidence)``, or ``(None, 0.0)`` when there is no ink to read.
    """
    o = [float(v) for v in np.asarray(rel_rgb, float).reshape(3)]
    if not all(math.isfinite(v) for v in o):
        return None, 0.0
    mean = sum(o) / 3.0
    dark = 1.0 - mean
    if dark < 0.04:
        return None, 0.0
    chroma = [v - mean for v in o]
    norm = math.sqrt(sum(v * v for v in chroma))
    sat = norm / dark
    neutral, coloured = _ink_directions(
        tuple((k, tuple(int(c) for c in v)) for k, v in inks_rgb.items()), grey_ratio)
    unit = [v / max(norm, 1e-9) for v in chroma]
    sims = sorted(((unit[0] * d[0] + unit[1] * d[1] + unit[2] * d[2], name, ink_sat)
                   for name, d, ink_sat in coloured), reverse=True)
    limit = max(grey_ratio, ink_share * sims[0][2]) if sims else grey_ratio
    if sat < limit and neutral and sat >= grey_ratio and light_rgb is not None and (
            _apart_from_light(chroma, light_rgb) >= grey_ratio * dark):
        limit = grey_ratio  # tinted, but not towards the light: an ink, not black's drift
    elif sims and neutral and light_rgb is not None and _in_shoulder(light_rgb) and (
            _apart_from_light(chroma, light_rgb, SHOULDER_TINTED) < grey_ratio * dark):
        limit = max(limit, SHOULDER_SHARE * sims[0][2])  # the shoulder's drift of black
    if (sat < limit and neutral) or not coloured:
        if not neutral:
            return None, 0.0
        return neutral[0], float(np.clip(1.0 - 0.5 * sat / limit, 0.0, 1.0))
    margin = sims[0][0] - (sims[1][0] if len(sims) > 1 else -1.0)
    conf = min(float(np.clip(margin * 2.0, 0.0, 1.0)),
               float(np.clip(0.5 + (sat - limit) / limit, 0.0, 1.0)) if neutral else 1.0)
    return sims[0][1], conf


TINTED = 0.05
"""A body whose colour's deviation from grey is at least this share of its level shows the
light's tint (below it, the tint's direction is noise)."""


SHOULDER = 235.0
"""A body whose brightest channel is at least this (8-bit) lies in the camera's highlight
shoulder, where a webcam (and the renderer, above 0.82 of its range) compresses the level."""

SHOULDER_SHARE = 0.45
"""In the shoulder, black's drift along the light's tint reaches up to this share of the
nearest ink's saturation (renders: a moon at 0.34-0.42 of the sun ink's; suns themselves at
0.58 or more, the devscenes' at 0.53 or more)."""

SHOULDER_TINTED = 0.01
"""In the shoulder the body's tint is compressed with its level: a tint of this share of
the level still gives the light's direction."""


def _in_shoulder(light_rgb: np.ndarray) -> bool:
    """Whether a body's colour as seen (RGB, 8-bit) has a channel in the highlight shoulder
    and shows the light's tint (at least :data:`SHOULDER_TINTED` of its level).

    >>> [_in_shoulder(np.array(b)) for b in ([248.0, 245, 239], [209.0, 209, 180], [250.0] * 3)]
    [True, False, False]
    """
    body = np.asarray(light_rgb, float).reshape(3)
    if not np.all(np.isfinite(body)) or float(body.max()) < SHOULDER:
        return False
    return float(np.linalg.norm(body - body.mean())) >= SHOULDER_TINTED * float(body.mean())


def _apart_from_light(chroma: list[float], light_rgb: np.ndarray, tinted: float = TINTED
                      ) -> float:
    """The length of a colour's tint (``chroma``, its deviation from grey) once its part
    along the light's tint (the body's, ``light_rgb``) is taken away; 0 where the light shows
    no tint (less than ``tinted`` of its level, :data:`TINTED`: then no part of it can be told
    from drift).

    >>> round(_apart_from_light([0.1, 0.0, -0.1], np.array([200.0, 150.0, 100.0])), 3)
    0.0
    >>> round(_apart_from_light([-0.1, 0.0, 0.1], np.array([200.0, 150.0, 100.0])), 3)
    0.141
    >>> _apart_from_light([-0.1, 0.0, 0.1], np.array([200.0, 200.0, 200.0]))
    0.0
    """
    body = np.asarray(light_rgb, float).reshape(3)
    m = float(body.mean())
    tint = body - m
    norm = float(np.linalg.norm(tint))
    c = np.asarray(chroma, float)
    if not np.isfinite(norm) or m <= 0 or norm < tinted * m:
        return 0.0
    along = max(0.0, float(c @ tint) / norm)
    return float(np.linalg.norm(c - along * tint / norm))


def symbol_colour(patch_bgr: np.ndarray, region: np.ndarray, dark_fraction: float = 0.8
                  ) -> tuple[np.ndarray | None, int]:
    """The mean colour of the symbol pixels in a region, relative to the body (RGB).

    Args:
        patch_bgr: uint8 (H, W, 3) BGR.
        region: bool (H, W), where the piece's face is.
        dark_fraction: Symbol pixels are darker than this share of the body's brightness.

    Returns:
        ``(rel_rgb or None, number of symbol pixels)``.
    """
    px = patch_bgr[region].astype(float)
    if len(px) < 8:
        return None, 0
    lum = px.sum(axis=1)
    body = px[lum >= percentile(lum, 75)].mean(axis=0)
    ink = lum < dark_fraction * body.sum()
    n = int(ink.sum())
    if n < 3:
        return None, n
    rel = px[ink].mean(axis=0) / np.maximum(body, 1.0)
    return rel[::-1], n


def symbol_colours(image_bgr: np.ndarray, centres_px: np.ndarray, offsets: np.ndarray,
                   dark_fraction: float = 0.8) -> list[tuple[np.ndarray | None, int]]:
    """:func:`symbol_colour` of many regions of one image at once: the pixels at each centre
    (N, 2) plus ``offsets`` (P, 2, whole pixels). A region reaching out of the image is read
    alone, from its pixels inside.
    """
    img = np.asarray(image_bgr)
    h, w = img.shape[:2]
    c = np.asarray(centres_px, int).reshape(-1, 2)
    xs = c[:, 0, None] + offsets[None, :, 0]
    ys = c[:, 1, None] + offsets[None, :, 1]
    inside = ((xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)).all(axis=1)
    out: list[tuple[np.ndarray | None, int]] = [(None, 0)] * len(c)
    for i in np.nonzero(~inside)[0]:  # at the image's edge: its pixels inside, alone
        ok = (xs[i] >= 0) & (xs[i] < w) & (ys[i] >= 0) & (ys[i] < h)
        region = np.zeros((h, w), bool)
        region[ys[i][ok], xs[i][ok]] = True
        out[i] = symbol_colour(img, region, dark_fraction)
    rows = np.nonzero(inside)[0]
    npx = offsets.shape[0]
    if not len(rows) or npx < 8:
        return out
    px = img[ys[rows], xs[rows]].astype(float)  # (M, P, 3)
    lum = px.sum(axis=2)
    top = lum >= row_percentiles(lum, 75)[:, None]
    body = (px * top[..., None]).sum(axis=1) / top.sum(axis=1)[:, None]
    ink = lum < dark_fraction * body.sum(axis=1)[:, None]
    n = ink.sum(axis=1)
    rel = (px * ink[..., None]).sum(axis=1) / np.maximum(n, 1)[:, None] / np.maximum(body, 1.0)
    for k, i in enumerate(rows):
        out[i] = (rel[k][::-1], int(n[k])) if n[k] >= 3 else (None, int(n[k]))
    return out


DARKEST_SHARE = 0.1
"""A coin's symbol: the darkest tenth of its face (a symbol covers about a fifth to a third of
it)."""


def darkest_colour_of(px: np.ndarray, share: float = DARKEST_SHARE) -> np.ndarray:
    """The mean colour of the darkest ``share`` of each row of pixels, relative to that row's
    body (the mean of its brightest quarter), RGB; one sort a row.

    Args:
        px: (M, P, 3) BGR pixels of M faces, P each (at least 8).

    Returns:
        (M, 3) float, NaN rows where the body is black.

    >>> face = np.full((1, 40, 3), 200.0); face[0, :4] = (100, 100, 50)
    >>> darkest_colour_of(face).round(2).tolist()
    [[0.25, 0.5, 0.5]]
    """
    p = np.asarray(px)
    m, n = p.shape[:2]
    if m == 0 or n < 8:
        return np.full((m, 3), np.nan)
    lum = p.sum(axis=2, dtype=np.int32 if p.dtype == np.uint8 else float)
    order = np.argsort(lum, axis=1)
    k = max(3, round(share * n))
    body = np.take_along_axis(p, order[:, n - max(1, n // 4):, None], axis=1).mean(axis=1)
    ink = np.take_along_axis(p, order[:, :k, None], axis=1).mean(axis=1)
    rel = np.where(body.sum(axis=1, keepdims=True) > 3.0, ink / np.maximum(body, 1.0), np.nan)
    return rel[:, ::-1]


def darkest_colours(image_bgr: np.ndarray, centres_px: np.ndarray, offsets: np.ndarray,
                    share: float = DARKEST_SHARE) -> np.ndarray:
    """:func:`darkest_colour_of` the regions of one image at each centre (N, 2) plus
    ``offsets`` (P, 2, whole pixels), (N, 3) RGB; a region reaching out of the image is read
    from its pixels inside."""
    img = np.asarray(image_bgr)
    h, w = img.shape[:2]
    c = np.asarray(centres_px, int).reshape(-1, 2)
    xs = c[:, 0, None] + offsets[None, :, 0]
    ys = c[:, 1, None] + offsets[None, :, 1]
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    inside = ok.all(axis=1)
    out = np.full((len(c), 3), np.nan)
    for i in np.nonzero(~inside)[0]:  # at the image's edge: its pixels inside, alone
        out[i] = darkest_colour_of(img[ys[i][ok[i]], xs[i][ok[i]]][None], share)[0]
    rows = np.nonzero(inside)[0]
    if len(rows):
        out[rows] = darkest_colour_of(img[ys[rows], xs[rows]], share)
    return out


def read_suits(rel_rgb: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]],
               light_rgb: np.ndarray | None = None) -> list[tuple[str | None, float]]:
    """:func:`classify_ink` of each row (N, 3) of colours relative to the body, with each
    body's colour as seen (``light_rgb``, (N, 3) RGB) where given."""
    rel = np.asarray(rel_rgb, float).reshape(-1, 3)
    if light_rgb is None:
        return [classify_ink(r, inks_rgb) for r in rel]
    light = np.asarray(light_rgb, float).reshape(-1, 3)
    return [classify_ink(r, inks_rgb, light_rgb=b) for r, b in zip(rel, light, strict=True)]


def brightest_colour_of(px: np.ndarray) -> np.ndarray:
    """The mean colour of the brightest quarter of each row of pixels (the body of a face,
    its colour as the light tints it), RGB.

    Args:
        px: (M, P, 3) BGR pixels of M faces.

    Returns:
        (M, 3) float.

    >>> face = np.full((1, 40, 3), 200.0); face[0, :4] = (100, 100, 50)
    >>> brightest_colour_of(face).tolist()
    [[200.0, 200.0, 200.0]]
    """
    p = np.asarray(px, float)
    m, n = p.shape[:2]
    if m == 0 or n == 0:
        return np.zeros((m, 3))
    order = np.argsort(p.sum(axis=2), axis=1)
    top = order[:, n - max(1, n // 4):]
    return np.take_along_axis(p, top[:, :, None], axis=1).mean(axis=1)[:, ::-1]

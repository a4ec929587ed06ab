"""A tile's face: up (a suit symbol in the centre) or down (the back's grid), and its suit.

Each tile is read from a square patch of its top face (:data:`PATCH_PX` a side, its sides along
the patch's), first as session 8 read it (:func:`_quadrant_reading`: the middle lines against
the quadrants, the symbol against the patch's brightest quarter). Under a blind's stripe that
reading calls a back a moon (the shaded part reads as black ink), so a tile read as a moon is
looked at again. A back's grid lines cross the middle of all four sides; a face has only its
symbol there (out to 0.3 of the side from the centre) and a faint border (0.44). The lines are
looked for as thin dark ridges between 0.30 and 0.42 of the side out along each of the four
arms: the patch's levels across the arm, averaged along it, must dip at the line below both
of its sides a few pixels away, relative to those sides. That is the tile's own paper against
its own ink, whatever the table's colour or the light's: a blind's stripe or a shadow across a
patch is a step in level, not a dip, and a coloured cloth or lamp scales paper and line alike.
A "moon" with them on all four arms, or on two and no symbol's ink in the centre against the
tile's own paper (the rest in a shade's edge or another piece's shadow), is a back.

>>> import cv2
>>> from vision.suits import DEFAULT_SUIT_INKS
>>> paper = np.full((PATCH_PX, PATCH_PX, 3), 200, np.uint8)
>>> back = paper.copy(); back[PATCH_PX // 2, :] = 90; back[:, PATCH_PX // 2] = 90
>>> back[:, :20] //= 2  # a blind's stripe over a third of it
>>> sun = cv2.circle(paper.copy(), (24, 24), 12, (0, 94, 213), -1)  # BGR of #D55E00
>>> [r[:2] for r in read_faces(np.stack([back, sun]), dict(DEFAULT_SUIT_INKS))]
[('down', None), ('up', 'suns')]
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from vision.prepare import largest_channel
from vision.stats import row_percentiles
from vision.suits import classify_ink, neutral_inks, symbol_colours

PATCH_PX = 48
"""Side of the canonical patch a tile's face is read from."""

_yy, _xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX]
_FACE_REGION = (_xx - PATCH_PX // 2 + 0.5) ** 2 + (_yy - PATCH_PX // 2 + 0.5) ** 2 <= (
    0.4 * PATCH_PX) ** 2
"""Where a face's symbol is looked for in the patch (a disc of 0.4 of its side)."""
_FACE_OFFSETS = np.c_[_xx[_FACE_REGION] - PATCH_PX // 2, _yy[_FACE_REGION] - PATCH_PX // 2]
"""The same, as offsets from the patch's centre pixel."""
_PAPER_DISC = cv2.getStructuringElement(cv2.MORPH_RECT, (PATCH_PX // 3 + 1,) * 2)
"""A square wider than a face's symbol (0.6 of the side), at half the patch's resolution."""

_r = np.hypot(_xx - PATCH_PX / 2 + 0.5, _yy - PATCH_PX / 2 + 0.5) / PATCH_PX
RING_FROM, RING_TO = 0.34, 0.42
"""Where the ring between a face's symbol (out to 0.3 of the side) and its printed border
(0.44) lies (shares of the side from the centre): blank paper on every face."""
_RING_Y, _RING_X = np.nonzero((_r >= RING_FROM) & (_r <= RING_TO))
_FACE_Y, _FACE_X = PATCH_PX // 2 + _FACE_OFFSETS[:, 1], PATCH_PX // 2 + _FACE_OFFSETS[:, 0]

ARM_FROM, ARM_TO = 0.30, 0.42
"""Where along each arm (shares of the side out from the centre) a back's line is looked for:
beyond a face's symbol, inside its printed border."""
SHIFT_PX = 6
"""How far across the arm (patch pixels) the line may lie from the patch's middle (the
tile's fit and the print's own offset)."""
SIDE_PX = 3
"""How far either side of the line its paper is taken."""

BACK_RIDGE = 0.012
"""Least dip of a back's line below its paper (share of the paper's level) on every arm: a
back for certain (a face's arms are blank paper: under 0.006 on the tuning renders, blur,
a blind's stripes and noise included; a faint back's lines, over-exposed, 0.027 and up)."""
PART_RIDGE = 0.04
"""A back whose lines show on only two or three arms (another piece's shadow, a stripe's edge
along the rest, a patch a little off the tile): a line this deep on two arms, and no symbol."""
INK_LEVEL = 0.6
"""A symbol's ink: under this share of its paper in its darkest channel."""
UNSURE_MOON = 0.3
"""The confidence of a moon read where neither its centre shows a symbol's ink against the
tile's own paper nor its arms a back's lines (a back's faint lines on black felt under a
blind): below the namer's ``unsure`` (:class:`vision.namer.NamerConfig`), so the namer, which
sees the whole tile, names its face."""
SHADE_RING = 0.15
"""A "moon" with at least this share of its ring (:func:`shaded_centres`) as dark as ink,
and its centre no darker, is a shade running across the tile, not a symbol: it is read as
if its centre were blank (a back's lines decide; else a moon left unsure for the namer). A
face's ring is paper; a band of shade 10 mm wide through the centre crosses 0.17 of it."""
SHADE_LIKE = 0.8
"""... where the centre's ink is at least this share of the ring's dark part's level (a
moon's ink in a band of shade: a fifth to a half of it)."""
NO_SYMBOL = 0.12
"""A patch with less of its centre disc in ink has no symbol (a face's: 0.2 and up; a back's
lines and shades: 0.09 at most on the tuning renders)."""


def tile_patch(top: np.ndarray, centre_px: np.ndarray, angle_px: float, side_px: float
               ) -> np.ndarray:
    """A tile's face as a square patch of :data:`PATCH_PX`, its sides along the patch's."""
    scale = PATCH_PX / side_px
    M = cv2.getRotationMatrix2D((float(centre_px[0]), float(centre_px[1])), angle_px, scale)
    M[:, 2] += np.array([PATCH_PX / 2, PATCH_PX / 2]) - centre_px
    return cv2.warpAffine(top, M, (PATCH_PX, PATCH_PX), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def arm_ridges(patches: np.ndarray) -> np.ndarray:
    """How deep a thin dark line runs out along each arm of each patch (N, 4: right, left,
    down, up), as a share of the paper beside it (0: none; a step in level or flat paper
    gives 0).

    Args:
        patches: (N, PATCH_PX, PATCH_PX, 3) uint8 BGR.
    """
    n = len(patches)
    if not n:
        return np.zeros((0, 4))
    lum = largest_channel(patches.reshape(-1, PATCH_PX, 3)).reshape(n, PATCH_PX, PATCH_PX)
    lum = lum.astype(np.float32)
    c = PATCH_PX // 2
    t0, t1 = round(ARM_FROM * PATCH_PX), round(ARM_TO * PATCH_PX)
    r = SHIFT_PX + SIDE_PX
    across = slice(c - r, c + r)  # the middle pixel of an even side is c - 1 / c: both in
    # profiles across each arm, averaged along it: (N, 4, 2r)
    prof = np.stack([lum[:, across, c + t0:c + t1].mean(axis=2),
                     lum[:, across, c - t1:c - t0].mean(axis=2),
                     lum[:, c + t0:c + t1, across].mean(axis=1),
                     lum[:, c - t1:c - t0, across].mean(axis=1)], axis=1)
    best = np.zeros((n, 4))
    for o in range(SIDE_PX, 2 * r - SIDE_PX):
        left, right = prof[..., o - SIDE_PX], prof[..., o + SIDE_PX]
        paper = np.maximum(np.maximum(left, right), 1.0)
        best = np.maximum(best, (np.minimum(left, right) - prof[..., o]) / paper)
    return best


def own_paper(patches: np.ndarray) -> np.ndarray:
    """(N, PATCH_PX, PATCH_PX, 3) float32: each patch's paper, per channel, a closing wider
    than any symbol (a shade's band or a lamp's colour over part of the tile divides out)."""
    n = len(patches)
    # the paper at half resolution (enough for a shade's soft edge), all patches at once, one
    # above the other, each in a border of its own edge as wide as the closing reaches (a shade
    # over a patch's edge runs on beyond it, not back into light)
    half, k = PATCH_PX // 2, 2 * (_PAPER_DISC.shape[0] // 2)
    small = np.stack([cv2.copyMakeBorder(
        cv2.resize(p, (half, half), interpolation=cv2.INTER_AREA), k, k, k, k,
        cv2.BORDER_REPLICATE) for p in np.asarray(patches)])
    h = half + 2 * k
    closed = cv2.morphologyEx(small.reshape(n * h, h, 3), cv2.MORPH_CLOSE, _PAPER_DISC,
                              borderType=cv2.BORDER_REPLICATE).reshape(n, h, h, 3)
    return np.stack([cv2.resize(p[k:k + half, k:k + half], (PATCH_PX, PATCH_PX),
                                interpolation=cv2.INTER_LINEAR) for p in closed]
                    ).astype(np.float32)


def symbol_inks(patches: np.ndarray, paper: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each patch's symbol, read against the tile's own paper round it (:func:`own_paper`,
    or ``paper`` made by it).

    Returns:
        ``(share, rel_rgb)``: (N,) share of the centre disc in ink (its smallest channel under
        :data:`INK_LEVEL` of the paper's), and (N, 3) the ink's mean colour over the paper's,
        RGB (NaN where there is no ink). Every suit's ink is dark in some channel (an orange sun
        in blue, a blue or green one in red, a moon in all); a back's thin lines, blurred, are
        not that dark, so a back has next to none.
    """
    share, _level, rel = _inks(patches, own_paper(patches) if paper is None else paper,
                               _FACE_Y, _FACE_X)
    return share, rel


def _inks(patches: np.ndarray, paper: np.ndarray, ys: np.ndarray, xs: np.ndarray,
          q: float = 50.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N,) share of the pixels ``ys``, ``xs`` of each patch in ink against ``paper``, (N,)
    the ``q``-th percentile of the ink's darkest channel over the paper's (NaN: none), (N, 3)
    its mean colour over the paper's, RGB (NaN under 3 pixels)."""
    n = len(patches)
    share, level, rel = np.zeros(n), np.full(n, np.nan), np.full((n, 3), np.nan)
    if not n:
        return share, level, rel
    ratio = np.asarray(patches)[:, ys, xs].astype(np.float32) / np.maximum(
        paper[:, ys, xs], 1.0)  # (N, P, 3)
    darkest = ratio.min(axis=2)
    ink = darkest < INK_LEVEL
    share = ink.mean(axis=1)
    for i in np.flatnonzero(ink.any(axis=1)):
        level[i] = float(np.percentile(darkest[i][ink[i]], q))
        if ink[i].sum() >= 3:
            rel[i] = ratio[i][ink[i]].mean(axis=0)[::-1]
    return share, level, rel


def shaded_centres(patches: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """(N,) bool: whose centre's ink is a blind's shade across the tile, not a symbol.

    The paper's closing (:func:`own_paper`) fills over a dark band narrower than it reaches
    (0.6 of the side), so such a band of shade reads as ink. A face's symbol stops short of
    the ring between it and the printed border (:data:`RING_FROM`-:data:`RING_TO` of the
    side from the centre: blank paper on every face); a band across the tile runs through
    it on both sides of the centre. So the centre's ink is shade where at least
    :data:`SHADE_RING` of the ring is as dark, and the centre's darkest fifth of ink no
    darker than the ring's dark part's median (:data:`SHADE_LIKE` of it: a moon's black ink
    in the band is the band's shade and the ink's darkness at once)."""
    ring, ring_level, _ = _inks(patches, paper, _RING_Y, _RING_X)
    _share, centre_level, _ = _inks(patches, paper, _FACE_Y, _FACE_X, 20.0)
    with np.errstate(invalid="ignore"):
        return (ring >= SHADE_RING) & (centre_level >= SHADE_LIKE * ring_level)


def _quadrant_reading(patches: np.ndarray, inks: Mapping[str, tuple[int, int, int]],
                      back_contrast: float) -> list[tuple[str, str | None, float]]:
    """The first reading (session 8's): a back's middle lines darker than its quadrants,
    against the patch's 80th percentile; the symbol against its brightest quarter."""
    lum = largest_channel(patches.reshape(-1, PATCH_PX, 3)).reshape(patches.shape[:3])
    lum = lum.astype(np.float32)
    body = row_percentiles(lum[:, 4:-4, 4:-4].reshape(len(lum), -1), 80)
    dark = np.clip(1.0 - lum / np.maximum(body, 1.0)[:, None, None], 0.0, 1.0)
    # the lines are looked for between a face's symbol (out to 0.3 of the side from the
    # centre) and the printed border (0.44): a sun's rays reach 0.3 on all four sides
    c, q, a = PATCH_PX // 2, int(PATCH_PX * 0.3), int(PATCH_PX * 0.38)
    arms = np.stack([dark[:, c - 4:c + 4, c + a - 2:c + a + 2].max(axis=1).mean(axis=1),
                     dark[:, c - 4:c + 4, c - a - 2:c - a + 2].max(axis=1).mean(axis=1),
                     dark[:, c + a - 2:c + a + 2, c - 4:c + 4].max(axis=2).mean(axis=1),
                     dark[:, c - a - 2:c - a + 2, c - 4:c + 4].max(axis=2).mean(axis=1)])
    # the same statistic (largest across an 8-pixel window) where a back is blank
    quads = np.stack([dark[:, c + dy - 4:c + dy + 4, c + dx - 2:c + dx + 2].max(axis=1)
                      .mean(axis=1) for dx in (-q, q) for dy in (-q, q)])
    back = arms.min(axis=0) - quads.max(axis=0)
    out: list[tuple[str, str | None, float]] = []
    up = [i for i in range(len(patches)) if not back[i] > back_contrast]
    strip = np.concatenate(list(patches[up]), axis=1) if up else patches[:0]
    centres = np.array([[PATCH_PX * k + c, c] for k in range(len(up))], int)
    read = dict(zip(up, symbol_colours(strip, centres, _FACE_OFFSETS) if up else [],
                    strict=True))
    for i in range(len(patches)):
        if back[i] > back_contrast:
            out.append(("down", None, float(np.clip(0.5 + back[i], 0.0, 1.0))))
            continue
        rel, _ = read[i]
        if rel is None:
            out.append(("down", None, 0.2))  # no symbol at all: a back whose lines did not show
            continue
        suit, conf = classify_ink(rel, inks)
        out.append(("up", suit, conf))
    return out


def read_faces(patches: np.ndarray, inks: Mapping[str, tuple[int, int, int]],
               back_contrast: float = 0.01) -> list[tuple[str, str | None, float]]:
    """(face, suit, confidence) of each tile from its patch (:func:`tile_patch`).

    The first reading (:func:`_quadrant_reading`, ``back_contrast`` its least contrast of a
    back's lines over its quadrants) stands, but for a black symbol (a moon) read where a
    blind's stripe or a shadow darkens part of a back: a tile read so whose centre shows no
    symbol's ink against its own paper (:func:`symbol_inks`) and whose four arms all show a
    back's line at least :data:`BACK_RIDGE` deep, or two of them :data:`PART_RIDGE`, is a
    back; with no ink and no such lines it stays a moon, unsure (:data:`UNSURE_MOON`). A moon's
    ink keeps it a face whatever its arms show (a dim lamp's noise makes dips of 0.02-0.05
    on a face's blank arms), and its suit is that ink's read against the tile's own paper
    (a blue symbol in a blind's shade, read against the lit quarter beside it, looks black).
    Black "ink" that also fills the ring between a face's symbol and its border, as dark
    there as in the centre (:func:`shaded_centres`), is a blind's band of shade across the
    whole tile: read as a blank centre (a back where its arms show the lines).

    Args:
        patches: (N, PATCH_PX, PATCH_PX, 3) uint8 BGR.
        inks: Suit name -> 8-bit RGB of its ink.
        back_contrast: The first reading's least contrast of a back.
    """
    if not len(patches):
        return []
    out = _quadrant_reading(np.asarray(patches), inks, back_contrast)
    neutral = set(neutral_inks(inks))
    maybe = [i for i, (f, s, _) in enumerate(out) if f == "up" and s in neutral]
    if not maybe:
        return out
    arms = np.sort(arm_ridges(np.asarray(patches)[maybe]), axis=1)
    paper = own_paper(np.asarray(patches)[maybe])
    share, rel = symbol_inks(np.asarray(patches)[maybe], paper)
    inked = np.flatnonzero(share >= NO_SYMBOL)
    coloured = {int(k): r for k in inked
                if (r := classify_ink(rel[k], inks))[0] is not None and r[0] not in neutral}
    shaded = shaded_centres(np.asarray(patches)[maybe], paper)
    blank = (share < NO_SYMBOL) | (shaded & ~np.isin(np.arange(len(maybe)), list(coloured)))
    back = blank & ((arms[:, 0] >= BACK_RIDGE) | (arms[:, 2] >= PART_RIDGE))
    for k in np.flatnonzero(back):
        out[maybe[k]] = ("down", None, float(np.clip(0.5 + 4 * arms[k, 2], 0.5, 1.0)))
    for k in np.flatnonzero(blank & ~back):
        f, sv, conf = out[maybe[k]]
        out[maybe[k]] = (f, sv, min(conf, UNSURE_MOON))
    for k, (suit, conf) in coloured.items():  # its ink against its own paper: a colour
        out[maybe[k]] = ("up", suit, conf)
    return out


def read_tile_faces(top: np.ndarray, centres_px: np.ndarray, angles_px: list[float],
                    side_px: float, inks: Mapping[str, tuple[int, int, int]],
                    back_contrast: float = 0.01) -> list[tuple[str, str | None, float]]:
    """(face, suit, confidence) of each tile of the top view ``top``, centred at
    ``centres_px`` and turned by ``angles_px``, from its square patch (:func:`read_faces`)."""
    if not len(angles_px):
        return []
    patches = np.stack([tile_patch(top, c, a, side_px)
                        for c, a in zip(centres_px, angles_px, strict=True)])
    return read_faces(patches, inks, back_contrast)

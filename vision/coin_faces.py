"""A coin's face seen from above at a fixed scale, and its suit read from it.

However a coin was found (the bright mask's blobs, the centre net's peaks), its suit is read
the same way: a patch of the raw frame around its seen top face (the face and a little
table), one perspective warp through the calibration (and lens) at :data:`PATCH_PX` samples
over :data:`PATCH_MM` whatever the camera's height or resolution, and the symbol's colour
there relative to the face's body (:func:`vision.suits.darkest_colour_of`, named by
:func:`vision.suits.classify_ink`; a face the camera saturated in every channel and read
unsurely so, by the ink that explains it through a clipping camera, the blue and the green
ink told apart by how much more the symbol darkens green than blue:
:mod:`vision.coin_saturated`). Black ink centred on the face is no moon but the coin's value
(:mod:`vision.coin_value`): the coin lies value up, no suit to read.

>>> face_pixels().shape
(468,)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np

from calibration.model import Calibration
from vision.coin_saturated import blue_or_green, saturated_suits, unsure_on_saturated
from vision.coin_value import numeral_shown
from vision.patches import sample_patches
from vision.suits import brightest_colour_of, darkest_colour_of, neutral_inks, read_suits

PATCH_MM = 20.0
"""Side of a face patch on the table."""

PATCH_PX = 32
"""Its side in samples (1.6 a millimetre: a webcam's own resolution or finer)."""

RADIUS_MM = 9.525
"""The coin's radius (a piecepack coin, 3/4 inch across)."""

FACE_SHARE = 0.8
"""The face read is the disc of this share of the radius (its printed ring and the wall left
out, with a centre a little off)."""

COLOURED_CHROMA = 0.1
"""A face whose darkest tenth, relative to its body (:func:`vision.suits.darkest_colour_of`),
lies at least this far from grey (the length of its deviation from its own mean) shows a
coloured ink: a value's numeral is black, and reads at most 0.073 so on renders 644000-644079
(tables of coins on black felt and cloth, dark wood, walnut and slate under every light:
blur, a lamp's tint and the highlight shoulder's drift), where the coloured inks read 0.1 or
more on 99 % of their faces (suns 0.32 and up, crowns 0.08, arms 0.04 where washed out)."""


def face_patches(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray
                 ) -> np.ndarray:
    """uint8 (N, PATCH_PX, PATCH_PX, 3) BGR patches round coins' seen top faces (mm)."""
    return sample_patches(frame_bgr, calibration, np.asarray(seen_mm, float).reshape(-1, 2),
                          PATCH_MM, PATCH_PX)


@functools.lru_cache(maxsize=4)
def face_pixels(radius_mm: float = RADIUS_MM) -> np.ndarray:
    """Flat indices of a patch's samples on the face (:data:`FACE_SHARE` of the radius)."""
    s = PATCH_PX / PATCH_MM
    c = (PATCH_PX - 1) / 2.0
    yy, xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX]
    return np.flatnonzero(np.hypot(xx - c, yy - c) <= FACE_SHARE * radius_mm * s)


@functools.lru_cache(maxsize=4)
def face_offsets(radius_mm: float = RADIUS_MM) -> np.ndarray:
    """(P, 2) places of :func:`face_pixels` relative to the patch's centre, in samples."""
    c = (PATCH_PX - 1) / 2.0
    yy, xx = np.divmod(face_pixels(radius_mm), PATCH_PX)
    return np.c_[xx - c, yy - c]


def face_samples(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
                 radius_mm: float = RADIUS_MM) -> np.ndarray:
    """(N, P, 3) BGR samples of the faces of coins whose top faces are seen at ``seen_mm``
    (N, 2): each one's :func:`face_pixels` of its :func:`face_patches` patch."""
    seen = np.asarray(seen_mm, float).reshape(-1, 2)
    on_face = face_pixels(round(radius_mm, 3))
    if not len(seen):
        return np.zeros((0, len(on_face), 3), np.uint8)
    return face_patches(frame_bgr, calibration, seen).reshape(len(seen), -1, 3)[:, on_face]


def coin_readings(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
                  inks_rgb: Mapping[str, tuple[int, int, int]], radius_mm: float = RADIUS_MM,
                  value_seen: np.ndarray | None = None) -> list[tuple[str | None, float, str]]:
    """``(suit or None, confidence, side)`` of each coin whose top face is seen at
    ``seen_mm`` (N, 2): side ``"down"`` (no suit) where its face shows its value's numeral,
    black ink centred on it (:func:`vision.coin_value.numeral_shown`; where the ink's place
    does not tell, as ``value_seen`` says: the namer sees a numeral rather than a crescent),
    else ``"up"``."""
    return face_readings(face_samples(frame_bgr, calibration, seen_mm, radius_mm), inks_rgb,
                         radius_mm, value_seen)


def face_readings(px: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]],
                  radius_mm: float = RADIUS_MM, value_seen: np.ndarray | None = None
                  ) -> list[tuple[str | None, float, str]]:
    """:func:`coin_readings` of faces already sampled: ``px`` (N, P, 3) BGR, each face's
    :func:`face_pixels` of its patch."""
    r = round(radius_mm, 3)
    if not len(px):
        return []
    read = read_suits(darkest_colour_of(px), inks_rgb, brightest_colour_of(px))
    clipped = np.flatnonzero(unsure_on_saturated(px, read))
    fits = blue_or_green(px[clipped], saturated_suits(px[clipped], inks_rgb), inks_rgb)
    for i, sc in zip(clipped, fits, strict=True):
        read[i] = sc  # a face the camera clipped: its relative colour is no measure
    black = neutral_inks(inks_rgb)
    ask = np.array([s in black for s, _ in read], bool)
    value = np.zeros(len(read), bool)
    if ask.any():
        value[ask] = numeral_shown(px[ask], face_offsets(r), value_seen=None if value_seen
                                   is None else np.asarray(value_seen, bool).reshape(-1)[ask],
                                   sample_mm=PATCH_MM / PATCH_PX)
    return [(None, c, "down") if v else (s, c, "up")
            for (s, c), v in zip(read, value, strict=True)]


def suits_shown(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
                inks_rgb: Mapping[str, tuple[int, int, int]], radius_mm: float = RADIUS_MM
                ) -> list[str | None]:
    """The suit each coin whose top face is seen at ``seen_mm`` (N, 2) shows beyond doubt of
    its side: its reading (:func:`coin_readings`) where that is a coloured ink at least
    :data:`COLOURED_CHROMA` from grey, which no value's numeral shows (a numeral is black);
    None where the face shows black ink, no ink or only a faint tint (a numeral in a lamp's
    tint or the highlight shoulder)."""
    return face_suits_shown(face_samples(frame_bgr, calibration, seen_mm, radius_mm), inks_rgb,
                            radius_mm)


def face_suits_shown(px: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]],
                     radius_mm: float = RADIUS_MM) -> list[str | None]:
    """:func:`suits_shown` of faces already sampled: ``px`` (N, P, 3) BGR, each face's
    :func:`face_pixels` of its patch."""
    if not len(px):
        return []
    rel = darkest_colour_of(px)
    chroma = np.linalg.norm(rel - rel.mean(axis=1, keepdims=True), axis=1)
    black = neutral_inks(inks_rgb)
    return [s if s is not None and s not in black and c >= COLOURED_CHROMA else None
            for (s, _, _), c in zip(face_readings(px, inks_rgb, radius_mm), chroma,
                                    strict=True)]


def coin_suits(frame_bgr: np.ndarray, calibration: Calibration, seen_mm: np.ndarray,
               inks_rgb: Mapping[str, tuple[int, int, int]], radius_mm: float = RADIUS_MM
               ) -> list[tuple[str | None, float]]:
    """The suit (or None: none read, or the coin lies value up) and its confidence of each
    coin whose top face is seen at ``seen_mm`` (N, 2) (:func:`coin_readings`)."""
    return [(s, c) for s, c, _ in coin_readings(frame_bgr, calibration, seen_mm, inks_rgb,
                                                radius_mm)]

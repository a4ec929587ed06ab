"""A coin's suit where the camera saturated its face: which ink, mixed with the body and seen
through a camera that clips, explains the symbol's darkest pixels.

On a dark table (dark wood, black felt or cloth) a webcam's automatic exposure brightens the
picture, and a pale coin's face clips at the sensor's top in every channel. The symbol's
colour relative to the body (:func:`vision.suits.darkest_colour_of`) then divides by a body
that reads neutral white whatever its true tint, and by less than its true level in the
channels that clip: a blue ink's blue channel, near the body's level, is cut as the body is,
and the blue reads as cyan, between the arms' blue and the crowns' green, and the hue reading
is unsure. Here the darkest tenth of the face is explained instead by each ink in turn: a
pixel is ``min(255, k * body * (1 - a * (1 - ink)))``, its share ``a`` of ink free, the face's
true level ``k`` times what is seen (1 to 3) shared by the face's pixels; the ink whose best
fit leaves the least squared error names the suit. Only for faces saturated in every channel
where the hue reading is unsure (:func:`unsure_on_saturated`): on a face that does not clip,
the relative colour is exact and read by hue, which holds for inks of other shades than the
set's own (a set printed in other inks); this reading needs the inks' own colours.

>>> inks = {"crowns": (0, 158, 115), "arms": (0, 114, 178)}
>>> face = np.full((1, 60, 3), 255.0)  # BGR, the body clipped
>>> face[0, :6] = np.minimum(255, 400 * (1 - 0.8 * (1 - np.array([178, 114, 0]) / 255)))
>>> saturated_suits(face, inks)[0][0]
'arms'

Between the set's blue and green inks (no red in either: the arms' and the crowns'), a
clipped face where the symbol darkens both green and blue is read by how much more it darkens
green than blue (:func:`blue_or_green`): a blue ink absorbs more green than blue, a green ink
less, and the clipping that shrinks the blue ink's blue deficit (its brightest channel, the
first to reach the sensor's top) keeps that order: on renders under glare (43000+), 0.36-0.67
for crowns and 1.0-2.6 for arms, where the fit above named 7 of 16 arms crowns.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from vision.suits import DARKEST_SHARE

GAINS = np.array([1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.3, 2.6, 3.0])
"""The face's true level, times its seen one, tried (a webcam's exposure on a dark table
brightens it by up to 1.5, a lamp's pool and the coin's pale body more)."""

INK_SHARES = np.linspace(0.0, 1.0, 26)
"""A pixel's share of ink, tried (blur mixes the ink's edge with the body)."""

SATURATED = 240.0
"""A face whose brightest quarter is at least this level in every channel (8-bit) is
saturated: its body's tint and true level are lost."""

UNSURE = 0.15
"""The hue reading's confidence below which its two nearest inks nearly tie."""


def _split(px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each face's darkest tenth (M, k, 3) and its brightest quarter's mean (M, 3), RGB."""
    p = np.asarray(px, float)[..., ::-1]
    n = p.shape[1]
    order = np.argsort(p.sum(axis=2), axis=1)
    k = max(3, round(DARKEST_SHARE * n))
    dark = np.take_along_axis(p, order[:, :k, None], axis=1)
    body = np.take_along_axis(p, order[:, n - max(1, n // 4):, None], axis=1).mean(axis=1)
    return dark, body


def saturated(px: np.ndarray) -> np.ndarray:
    """Whether each face (M, P, 3, BGR) is saturated in every channel, bool (M,)."""
    p = np.asarray(px)
    if p.shape[0] == 0 or p.shape[1] < 8:
        return np.zeros(p.shape[0], bool)
    return _split(p)[1].min(axis=1) >= SATURATED


def saturated_suits(px: np.ndarray, inks_rgb: Mapping[str, tuple[int, int, int]]
                    ) -> list[tuple[str, float]]:
    """The ink that best explains each face's darkest tenth through a clipping camera, and a
    confidence (1 less the ratio of its error to the next ink's).

    Args:
        px: (M, P, 3) BGR pixels of M faces (P at least 8).
        inks_rgb: name -> 8-bit RGB of each ink.
    """
    names = list(inks_rgb)
    if not len(px) or not names:
        return []
    absorb = 1.0 - np.array([inks_rgb[k] for k in names], float) / 255.0  # (I, 3)
    dark, body = _split(px)
    err = np.full((len(dark), len(names)), np.inf)
    mix = 1.0 - INK_SHARES[None, :, None] * absorb[:, None, :]  # (I, A, 3)
    for g in GAINS:
        seen = np.minimum(255.0, g * body[:, None, None, :] * mix[None])  # (M, I, A, 3)
        e = ((seen[:, :, :, None, :] - dark[:, None, None, :, :]) ** 2).sum(axis=-1)
        err = np.minimum(err, e.min(axis=2).sum(axis=-1))
    order = np.argsort(err, axis=1)
    rows = np.arange(len(err))
    best = err[rows, order[:, 0]]
    second = err[rows, order[:, 1]] if len(names) > 1 else np.full(len(err), np.inf)
    conf = np.clip(1.0 - best / np.maximum(second, 1e-9), 0.0, 1.0)
    return [(names[int(i)], float(c)) for i, c in zip(order[:, 0], conf, strict=True)]


BLUE_OVER_GREEN = 0.85
"""A clipped face whose symbol darkens green at least this many times as much as blue is the
blue ink's, below it the green's (the inks' own ratios: 1.83 and 0.69)."""

VISIBLE = 0.05
"""Both deficits (1 less the symbol's level over the body's) at least this, else the ratio
is noise and the fit's reading stands."""


def blue_green_pair(inks_rgb: Mapping[str, tuple[int, int, int]]) -> tuple[str, str] | None:
    """The (blue, green) inks of the set: the two without red, one bluer than green and one
    greener than blue; None where the set has no such pair."""
    no_red = [k for k, v in inks_rgb.items() if v[0] < min(v[1], v[2]) * 0.3]
    blue = [k for k in no_red if inks_rgb[k][2] > inks_rgb[k][1]]
    green = [k for k in no_red if inks_rgb[k][1] > inks_rgb[k][2]]
    return (blue[0], green[0]) if len(blue) == 1 and len(green) == 1 else None


def blue_or_green(px: np.ndarray, read: list[tuple[str, float]],
                  inks_rgb: Mapping[str, tuple[int, int, int]]) -> list[tuple[str, float]]:
    """``read`` (:func:`saturated_suits` of the clipped faces ``px``, (M, P, 3) BGR) with
    each reading of the blue or the green ink named again by the green-to-blue ratio of the
    symbol's deficit where both show (:data:`BLUE_OVER_GREEN`, :data:`VISIBLE`)."""
    pair = blue_green_pair(inks_rgb)
    if pair is None or not len(px):
        return read
    dark, body = _split(px)
    deficit = 1.0 - dark.mean(axis=1) / np.maximum(body, 1.0)  # (M, 3) RGB
    out = list(read)
    for i, (name, _) in enumerate(read):
        g, b = deficit[i, 1], deficit[i, 2]
        if name not in pair or min(g, b) < VISIBLE:
            continue
        ratio = g / b
        conf = float(np.clip(abs(np.log(ratio / BLUE_OVER_GREEN)) / np.log(2.0), 0.0, 1.0))
        out[i] = (pair[0] if ratio >= BLUE_OVER_GREEN else pair[1], conf)
    return out


def unsure_on_saturated(px: np.ndarray, read: list[tuple[str | None, float]]) -> np.ndarray:
    """Which faces to read by :func:`saturated_suits`: saturated in every channel, and their
    hue reading ``read`` names an ink, unsurely (confidence under :data:`UNSURE`), bool
    (M,)."""
    unsure = np.array([s is not None and c < UNSURE for s, c in read], bool).reshape(-1)
    return saturated(px) & unsure

"""A coin's top face from a rim in colour that barely stands above the table's own noise.

:func:`vision.coin_colour.colour_rim_centres` keeps a fit only where the rim's rise is
``over_texture`` (2.5) times the colour change over the table round the coin: on a wood's
grain or a gingham's checks a window of bare table fits a circle too, and that check alone
tells them from a coin. A cream coin on a glossy white top under a lamp's glare or a soft
light, or on marble in a dim warm room, is nearly the table's colour: its rim rises only
1.4-2.5 times the table's noise (on renders 378000-379999, where every other fit refused
them), and the fit places it as well as it places a plain coin. Here that same fit is kept
down to ``least`` times the table's change; what it places is a candidate only, for gates
that look at the coin as a whole (the namer, the coin judge, the table round it:
:func:`vision.centre_proposals.faint_coins`), as the centre net's faint peaks are.
"""

from __future__ import annotations

import numpy as np

from vision.coin_colour import ColourRimConfig, colour_rim_fit


def weak_rim_centres(top_bgr: np.ndarray, starts: np.ndarray, away: np.ndarray, r: float,
                     least: float, cfg: ColourRimConfig | None = None) -> np.ndarray:
    """(N, 2) centres of coins' top faces near ``starts`` (view pixels) whose colour rim fit
    holds (enough rays, its RMS, near the start) with a rise at least ``least`` times the
    table's change round it; NaN elsewhere.

    >>> import cv2
    >>> rng = np.random.default_rng(1)
    >>> img = np.clip(rng.normal(238.0, 3.0, (90, 90, 3)), 0, 255).astype(np.uint8)
    >>> _ = cv2.circle(img, (45, 45), 10, (228, 236, 238), -1)  # cream on white, faint
    >>> fit = weak_rim_centres(img, np.array([[46.0, 44.0]]), np.zeros((1, 2)), 10.0, 1.3)
    >>> bool(np.hypot(*(fit[0] - 45.0)) < 0.5)
    True
    """
    cfg = cfg or ColourRimConfig()
    starts = np.asarray(starts, float).reshape(-1, 2)
    fit = colour_rim_fit(top_bgr, starts, np.asarray(away, float).reshape(-1, 2), r, cfg)
    good = fit.held & (fit.lift >= least * np.maximum(fit.texture, 1e-3))
    out = np.full_like(fit.centre, np.nan)
    out[good] = fit.centre[good]
    return out

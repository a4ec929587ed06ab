"""A tile placed from the centre net's sure peak by its own sides' steepest edges.

On a pale table (glossy white, marble) a tile's paper is nearly the table's level and
colour: the stages' edge fit finds no step against the table, the back's cross may not show
(a face up, or a blind's shade over half of it) and the colour fit (:func:`vision.tile_fit.
fit_square`), which looks for its sides' lines within a fifth of a side of the candidate and
must pair them one side apart, takes a crown's ink or the wall's shadow for a side and
fails (renders 490009, 490105, 490400: the net's peak 1-2 px from the tile's centre, the
colour fit's square 3-10 px off or none). The net's peak is itself a good start: a square of
the tile's size there, turned as the strongest gradients round it are, lies within a pixel
or two of every side, and :func:`vision.square_polish.polish_square` measures each side's
steepest change near its line, every pixel along it, and fits the four sides as lines of one
direction (a Tukey fit: a coin or a card against a side weighs nothing). It stands only where
two perpendicular sides are measured along half their length, the points fit to 0.45 px and
its sides lie on edges at least as strong as the start's; what it places is then judged like
every other net square (sides running on, a sheet's corner, the tile judge, the lattice,
the namer).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.square_polish import PolishConfig, polish_square

FROM_PEAK = dataclasses.replace(PolishConfig(), centre_shift=PolishConfig().max_shift)
"""The polish from a peak: its centre taken up to ``max_shift`` of a side from the peak (a
peak is a start, not a measured square whose centre should stand)."""


def square_at_peak(top: np.ndarray, peak_px: np.ndarray, angles_deg: list[float],
                   face_px: float, away: np.ndarray, cfg: PolishConfig = FROM_PEAK
                   ) -> tuple[np.ndarray, float] | None:
    """(centre view pixels (2,), angle view degrees) of the tile's top face measured from a
    peak of the centre net (``peak_px``), at the first of ``angles_deg`` (the directions the
    gradients round it vote for) where the polish measures it; None where it measures none.

    Args:
        top: The view (uint8 BGR), made in full round the peak.
        peak_px: The net's peak, view pixels.
        angles_deg: Directions of the sides to try, in order (view degrees).
        face_px: The top face's side in view pixels (:func:`vision.square_polish.
            face_side_px`).
        away: Unit vector away from the camera's nadir.
        cfg: The polish's thresholds.
    """
    for a in angles_deg:
        got = polish_square(top, np.asarray(peak_px, float), a, face_px, away, cfg)
        if got is not None:
            return np.asarray(got[0], float), float(got[1])
    return None

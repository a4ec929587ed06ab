"""The coin candidates' windows under a blind: divided by the table's colour with its bands.

The centre net's coin candidates that lie where the prepared view was not made in full (no
candidate cell of step 2's masks near them: a cream or grey coin on pale marble, which the
masks do not see) get a window of their own (:func:`vision.centre_proposals.local_views`),
divided by its own median grey. Under a blind that leaves the stripes in: the table round a
coin stands 0.5-1.75 of its level band by band, and the far rim the fits look for
(:func:`vision.centre_proposals.coin_fits`: the face against a table at level 1) is a band's
edge as often as the coin's. Where step 2 found bands (:mod:`vision.bands`), the coins'
windows are divided by the table's colour with its bands, as the prepared view itself is (the
same shade the prepared view would have made there); without bands nothing changes.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.prepare import Prepared


def banded_windows(prep: Prepared, shade: np.ndarray, top: np.ndarray,
                   centres_px: np.ndarray, half_px: float) -> np.ndarray:
    """``shade`` (float32 (H, W), :func:`vision.centre_proposals.local_views`' of the coin
    candidates ``centres_px``, windows ``half_px`` each way) with the windows the prepared
    view did not make divided by the table's colour with its bands (grey ``top`` over the
    table's grey plus 1, as :func:`vision.prepare.prepare` makes its shade); ``shade`` itself
    where the table has no bands (or no candidate's window was made on its own)."""
    table = prep.table
    if table is None or table.bands is None:
        return shade
    out = shade
    for centre in np.asarray(centres_px, float).reshape(-1, 2):
        rect = prep.unmade_window(centre, half_px)
        if rect is None:
            continue
        if out is shade:
            out = shade.copy()
        x0, y0, x1, y1 = rect
        grey = cv2.cvtColor(top[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
        bg = cv2.cvtColor(table.at_rect(x0, y0, x1, y1), cv2.COLOR_BGR2GRAY)
        out[y0:y1, x0:x1] = grey / (bg.astype(np.float32) + 1.0)
    return out

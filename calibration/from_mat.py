"""Calibrating from a photo of the printed mat (which paper it is, how it printed)."""

from __future__ import annotations

import numpy as np

from calibration.errors import CalibrationError, MatNotFound
from calibration.homography import calibrate_from_markers, detect_markers
from calibration.mat import BAR_MM, PAPER_MARKER_IDS, layout_from_json, layout_json
from calibration.model import Calibration, Lens
from tabletop.printing import PAPER_MM


def calibrate_from_mat(image_bgr: np.ndarray, paper: str | None = None,
                       lens: Lens | None = None, bar_mm: float = BAR_MM) -> Calibration:
    """The table homography from a photo of the mat; the world frame is the mat's.

    Args:
        image_bgr: The camera image.
        paper: ``a4``, ``a3`` or ``letter``; None reads it from the paper marker (or, when
            that is covered, takes the layout the markers fit best).
        lens: Undistorts first when given.
        bar_mm: The printed 100 mm scale bar as measured with a ruler (printers rescale).

    Raises:
        MatNotFound: no mat (or too little of it) in the image.
    """
    if not 50.0 <= bar_mm <= 200.0:
        raise CalibrationError(f"--bar-mm {bar_mm:g}: the printed 100 mm bar cannot measure that")
    scale = bar_mm / BAR_MM
    found = detect_markers(image_bgr)
    if paper is not None and paper not in PAPER_MM:
        raise CalibrationError(f"unknown paper {paper!r} (choose from {', '.join(PAPER_MM)})")
    if paper is None:
        named = [p for p, k in PAPER_MARKER_IDS.items() if k in set(found.ids.tolist())]
        candidates = named if len(named) == 1 else list(PAPER_MM)
    else:
        seen = [p for p, k in PAPER_MARKER_IDS.items() if k in set(found.ids.tolist())]
        if len(seen) == 1 and seen[0] != paper:
            raise CalibrationError(f"the mat in the image is printed on {seen[0].upper()} (its "
                                   f"paper marker says so), not {paper.upper()}; drop --paper")
        candidates = [paper]
    best: tuple[tuple[int, float], Calibration] | None = None
    error: MatNotFound | None = None
    for p in candidates:
        layout = layout_json(p, scale)
        try:
            cal = calibrate_from_markers(image_bgr, layout_from_json(layout), lens,
                                         detections=found, extra={"mat": _mat_meta(layout)})
        except MatNotFound as exc:
            error = error or exc
            continue
        key = (-len(cal.extra["markers"]["inlier_ids"]), cal.reprojection_mm)
        if best is None or key < best[0]:
            best = (key, cal)
    if best is None:
        assert error is not None
        raise error
    return best[1]


def _mat_meta(layout: dict) -> dict:
    return {k: v for k, v in layout.items() if k != "markers"}

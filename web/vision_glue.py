"""Builds the pipeline's :class:`web.pipeline.Vision` from the ``vision`` package."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from calibration.model import Calibration
from tabletop.errors import InputError
from tabletop.pieceset import PieceSet
from web.pipeline import Vision


class VisionUnavailable(InputError):
    """The ``vision`` package does not (yet) provide what the pipeline needs."""


def load_vision(calibration: Calibration, game: str | None = None,
                pieces: PieceSet | None = None,
                area_mm: tuple[float, float, float, float] | None = None) -> Vision:
    """The real detector (looking for the kinds ``game`` uses), stabiliser and annotator.

    ``area_mm`` (x0, y0, x1, y1) limits the search to the play area (default: all the picture).

    Raises:
        VisionUnavailable: when the vision package lacks ``Detector``/``Stabiliser``.
    """
    try:
        vision: Any = importlib.import_module("vision")
    except ImportError as exc:  # pragma: no cover - the package is part of the project
        raise VisionUnavailable(f"the vision package cannot be imported ({exc})") from None
    missing = [n for n in ("Detector", "DetectorConfig", "Stabiliser") if not hasattr(vision, n)]
    if missing:
        raise VisionUnavailable(f"the vision package does not provide {', '.join(missing)} yet")
    config = vision.DetectorConfig.for_game(game, area_mm=area_mm)
    detector = vision.Detector(calibration, pieces or PieceSet(), config)

    def check_image(image: np.ndarray) -> None:
        calibration.check_image_size((image.shape[1], image.shape[0]), "the frame")

    return Vision(detect=detector.detect, stabiliser=vision.Stabiliser(),
                  annotate=getattr(vision, "annotate", None), check_image=check_image)


def still_frames() -> int:
    """How many agreeing frames the stabiliser wants before it calls the table still."""
    try:
        vision: Any = importlib.import_module("vision")
        return int(vision.Stabiliser().still_frames)
    except (ImportError, AttributeError, TypeError, ValueError):  # pragma: no cover
        return 3

"""Builds the pipeline's :class:`web.pipeline.Vision` from the ``vision`` package."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from calibration.model import Calibration
from tabletop.errors import InputError
from web.pipeline import Vision


class VisionUnavailable(InputError):
    """The ``vision`` package does not (yet) provide what the pipeline needs."""


def load_vision(calibration: Calibration, game: str | None = None) -> Vision:
    """The real detector, stabiliser and annotator for frames of this calibration.

    Raises:
        VisionUnavailable: when the vision package lacks ``Detector``/``Stabiliser``.
    """
    try:
        vision: Any = importlib.import_module("vision")
    except ImportError as exc:  # pragma: no cover - the package is part of the project
        raise VisionUnavailable(f"the vision package cannot be imported ({exc})") from None
    missing = [n for n in ("Detector", "Stabiliser") if not hasattr(vision, n)]
    if missing:
        raise VisionUnavailable(f"the vision package does not provide {', '.join(missing)} yet")
    detector = _make_detector(vision.Detector, calibration, game)
    annotate = getattr(vision, "annotate", None)

    def check_image(image: np.ndarray) -> None:
        calibration.check_image_size((image.shape[1], image.shape[0]), "the frame")

    return Vision(detect=detector.detect, stabiliser=vision.Stabiliser(), annotate=annotate,
                  check_image=check_image)


def _make_detector(cls: Any, calibration: Calibration, game: str | None) -> Any:
    if game is not None:
        try:
            return cls(calibration, game=game)
        except TypeError:
            pass
    return cls(calibration)

"""Calibration errors, each a one-line message for the user."""

from __future__ import annotations

from tabletop.calibration import (  # noqa: F401  (defined with the value they guard)
    CalibrationError,
    CalibrationFileError,
    ResolutionMismatch,
)


class MatNotFound(CalibrationError):
    """The printed marker mat is not in the image (or too little of it)."""


class LensError(CalibrationError):
    """Chessboard photos cannot give a lens calibration."""

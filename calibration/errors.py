"""Calibration errors, each a one-line message for the user."""

from __future__ import annotations

from tabletop.errors import InputError


class CalibrationError(InputError):
    """A calibration cannot be made or read."""


class CalibrationFileError(CalibrationError):
    """A calibration or lens file is missing, broken, or of an unknown version."""


class MatNotFound(CalibrationError):
    """The printed marker mat is not in the image (or too little of it)."""


class LensError(CalibrationError):
    """Chessboard photos cannot give a lens calibration."""


class ResolutionMismatch(CalibrationError):
    """An image is not of the size the calibration was made for."""

"""Vision errors, each a one-line message for the user.

``VisionError > ImageReadError, FrameError, ViewError``: the dashboard can say each case
differently (a broken file, a frame of the wrong shape, a calibration that gives no top view).
A frame of another resolution than the calibration's raises
:class:`calibration.errors.ResolutionMismatch` (a calibration problem, not a vision one).
"""

from __future__ import annotations

from tabletop.errors import InputError


class VisionError(InputError):
    """Base of the errors vision reports."""


class ImageReadError(VisionError):
    """An image file is missing, unreadable or corrupt."""


class FrameError(VisionError):
    """A frame is not an 8-bit BGR (or grey) image."""


class ViewError(VisionError):
    """The calibration gives no usable top-down view of the table."""
